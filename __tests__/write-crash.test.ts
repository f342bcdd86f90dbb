/**
 * A `--write` killed with SIGKILL leaves no torn file and nothing httpd would load, and the next
 * run settles what it left. The server: a main config that includes `conf.d/` as a directory
 * (httpd then reads every file below it, dotfiles and hidden directories included) and 3,000
 * files there. Kills land while temporary files are written (nothing changed yet), while targets
 * are replaced (after the commit point: the next run completes the write), and at a random time.
 * After every kill, `apache2 -t -D DUMP_INCLUDES` lists what httpd would load: only the server's
 * own files, each holding either its old or its new bytes, never a torn one.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { APACHE2, MODULES_DIR, builtinModules } from './support/httpd';

const BIN = path.join(__dirname, '..', 'dist', 'src', 'cli.js');
const FILES = 3000;

function siteText(i: number): string {
  return `# site ${i}\n<Directory "/srv/www/site${i}">\n    Order allow,deny\n    Allow from all\n</Directory>\n`;
}
const MIGRATED = (i: number) => `# site ${i}\n<Directory "/srv/www/site${i}">\n    Require all granted\n</Directory>\n`;

function mainText(root: string): string {
  const builtin = builtinModules();
  const load = ['mpm_prefork', 'authz_core', 'authz_host', 'access_compat']
    .filter((m) => !builtin.has(m))
    .map((m) => `LoadModule ${m}_module ${MODULES_DIR}/mod_${m}.so\n`)
    .join('');
  return `ServerRoot "${root}"\n${load}ServerName localhost\nListen 127.0.0.1:1\nPidFile ${root}/httpd.pid\nErrorLog ${root}/error.log\n<Directory />\n    AllowOverride None\n</Directory>\nInclude conf.d/\n`;
}

function build(root: string): void {
  fs.mkdirSync(path.join(root, 'conf.d'), { recursive: true });
  fs.writeFileSync(path.join(root, 'httpd.conf'), mainText(root));
  for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, 'conf.d', `site${String(i).padStart(4, '0')}.conf`), siteText(i));
}

/** The files httpd would read for this config (absolute paths), from `-D DUMP_INCLUDES`. */
function includedFiles(root: string): string[] {
  const r = spawnSync(APACHE2, ['-t', '-D', 'DUMP_INCLUDES', '-f', path.join(root, 'httpd.conf')], { encoding: 'latin1' });
  expect(r.stderr).not.toMatch(/Syntax error|AH00526/);
  return r.stdout
    .split('\n')
    .map((l) => /^\s*\(\S+\)\s+(\S.*)$/.exec(l)?.[1])
    .filter((p): p is string => p !== undefined);
}

interface Killed {
  readonly stderr: string;
}

/** Starts `--write`, kills it with SIGKILL when `ready` says so (or after `ms`). */
async function writeAndKill(root: string, fault: string | null, ms = 0): Promise<Killed> {
  const env = { ...process.env, CI: 'true', ...(fault ? { HTTPD_CODEMOD_FAULT: fault } : {}) };
  const child = spawn(process.execPath, [BIN, '--write', '--jobs', '1', 'httpd.conf'], { cwd: root, env });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('latin1')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never stalled: ${stderr}`)), 60_000);
    const kill = () => {
      clearTimeout(timer);
      child.kill('SIGKILL');
    };
    if (fault) child.stderr.on('data', () => stderr.includes('fault injection: stalled') && kill());
    else setTimeout(kill, ms);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return { stderr };
}

function expectLoadableState(root: string): { migrated: number } {
  const included = includedFiles(root);
  const own = new Set([path.join(root, 'httpd.conf'), ...Array.from({ length: FILES }, (_, i) => path.join(root, 'conf.d', `site${String(i).padStart(4, '0')}.conf`))]);
  // nothing but the server's own files, each once (no temporary file, no stage, no duplicate)
  expect(included.filter((p) => !own.has(p))).toEqual([]);
  expect(new Set(included).size).toBe(own.size);
  let migrated = 0;
  for (let i = 0; i < FILES; i++) {
    const text = fs.readFileSync(path.join(root, 'conf.d', `site${String(i).padStart(4, '0')}.conf`), 'latin1');
    if (text === MIGRATED(i)) migrated++;
    else expect(text).toBe(siteText(i)); // never torn
  }
  return { migrated };
}

describe('SIGKILL during --write of 3,000 files', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-crash-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const kills: [string, string | null, number, 'none' | 'some'][] = [
    ['while writing the first temporary file', 'stall:temp-written:1', 0, 'none'],
    ['half-way through the temporary files', 'stall:temp-written:1500', 0, 'none'],
    ['after the last temporary file, before the commit', `stall:temp-written:${FILES}`, 0, 'none'],
    ['after the first rename', 'stall:target-replaced:1', 0, 'some'],
    ['half-way through the renames', 'stall:target-replaced:1500', 0, 'some'],
    ['before the last rename', `stall:target-replaced:${FILES - 1}`, 0, 'some'],
  ];

  test.each(kills)('killed %s: nothing httpd would load is left, no torn file; the next run settles it', async (_what, fault, ms, changed) => {
    const root = path.join(tmp, fault!.replace(/\W+/g, '-'));
    build(root);
    await writeAndKill(root, fault, ms);
    const after = expectLoadableState(root);
    if (changed === 'none') expect(after.migrated).toBe(0);
    else expect(after.migrated).toBeGreaterThan(0);
    // a stage is there (the kill left it), hidden where no Include reads it
    const stages = fs.readdirSync(root).filter((n) => n.startsWith('.codemod-stage-'));
    expect(stages).toHaveLength(1);
    expect(fs.readdirSync(path.join(root, 'conf.d')).filter((n) => !/^site\d{4}\.conf$/.test(n))).toEqual([]);

    // a dry run reports the leftover and changes nothing
    const dry = spawnSync(process.execPath, [BIN, '--jobs', '1', 'httpd.conf'], { cwd: root, encoding: 'latin1', env: { ...process.env, CI: 'true' } });
    expect(dry.stderr).toMatch(changed === 'none' ? /interrupted-write-discarded/ : /interrupted-write-completed\] a --write \(process \d+\) was interrupted while replacing files \(\d+ still old/);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.codemod-stage-'))).toEqual(stages);

    // the next --write settles it and finishes the migration
    const next = spawnSync(process.execPath, [BIN, '--write', '--jobs', '1', 'httpd.conf'], { cwd: root, encoding: 'latin1', env: { ...process.env, CI: 'true' } });
    expect(next.stderr).toMatch(changed === 'none' ? /info \[interrupted-write-discarded\] removed / : /review \[interrupted-write-completed\] a --write \(process \d+\) was interrupted while replacing files: completed it \(\d+ files?/);
    expect(next.stderr).toMatch(/ 0 errors$/m);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.codemod-stage-'))).toEqual([]);
    expect(expectLoadableState(root).migrated).toBe(FILES);
  }, 180_000);

  test('killed at a random moment: same guarantees', async () => {
    const root = path.join(tmp, 'random');
    build(root);
    await writeAndKill(root, null, 150 + Math.floor(Math.random() * 600));
    expectLoadableState(root);
    const next = spawnSync(process.execPath, [BIN, '--write', '--jobs', '1', 'httpd.conf'], { cwd: root, encoding: 'latin1', env: { ...process.env, CI: 'true' } });
    expect(next.status).toBe(0);
    expect(expectLoadableState(root).migrated).toBe(FILES);
    expect(fs.readdirSync(root).filter((n) => n.startsWith('.codemod-stage-'))).toEqual([]);
  }, 180_000);

  test('negative control: a temporary file beside the configs is what DUMP_INCLUDES catches', () => {
    const root = path.join(tmp, 'control');
    build(root);
    fs.writeFileSync(path.join(root, 'conf.d', '.site0000.conf.123456'), siteText(0));
    expect(() => expectLoadableState(root)).toThrow();
  });
});
