/**
 * allow-override-default and allow-override-for-htaccess on real trees
 * (main config + .htaccess files on disk) and on a real httpd 2.4:
 *
 *  - a .htaccess that used Order/Allow/Deny under `AllowOverride Limit`,
 *    migrated by access-to-require, answers every request like the 2.2 text
 *    does on 2.4 + mod_access_compat, once the governing <Directory> gets
 *    `AllowOverrideList Require …` (no mod_access_compat on the
 *    migrated side); negative controls: plain `AllowOverride Limit` → 500, and
 *    without `AllowOverrideList None` a closed child directory reads its
 *    .htaccess (the list is inherited on its own);
 *  - a config that relied on 2.2's default AllowOverride All: unmigrated on
 *    2.4 → 500 for a .htaccess directive (negative control), migrated →
 *    the .htaccess works again and explicit `None` below still wins.
 */
import * as fs from 'fs';
import * as path from 'path';
import { discover } from '../src/server/discover';
import { run, transformText } from '../src/run/runner';
import { accessToRequire } from '../transforms/access-to-require';
import { allowOverrideDefault } from '../transforms/allow-override-default';
import { allowOverrideForHtaccess } from '../transforms/allow-override-for-htaccess';
import { baseConfig, configtest, freePorts, tempDir } from './support/httpd';
import { fetchFrom, makeWorldReadable, startTracked, stopTracked, writeTreeFile } from './support/served-tree';

const PIPELINE = [accessToRequire, allowOverrideDefault, allowOverrideForHtaccess];
const ADDRESSES = ['127.0.0.1', '127.0.0.5', '127.0.1.9', '127.1.2.3'];

/** Runs the pipeline over a directory as the CLI would (discover, then every server), returns outputs by real path and findings. */
function migrateTree(dir: string) {
  const result = run(discover([dir]), PIPELINE);
  expect(result.errors).toEqual([]);
  const outputs = new Map(result.files.map((f) => [f.file.realPath, f.output]));
  const findings = result.findings.map((f) => [path.basename(f.file), f.code, f.severity, f.line]);
  return { outputs, findings };
}

function writeOutputs(outputs: Map<string, string>): void {
  for (const [file, text] of outputs) fs.writeFileSync(file, Buffer.from(text, 'latin1'));
}

const HTACCESS_22: Record<string, string> = {
  p: 'Order deny,allow\nDeny from all\nAllow from 127.0.0.1 127.0.1\n',
  r: '# everyone but .5\nOrder allow,deny\nAllow from all\nDeny from 127.0.0.5\n',
  // under AllowOverride None: ignored by 2.2, must stay ignored
  'p/closed': 'Order deny,allow\nDeny from all\n',
};

function limitTree(root: string, port: number, compat: boolean): string {
  for (const dir of ['', 'p', 'p/sub', 'p/closed', 'q', 'r']) writeTreeFile(path.join(root, 'www', dir, 'index.html'), `${dir || 'root'}\n`);
  for (const [dir, text] of Object.entries(HTACCESS_22)) writeTreeFile(path.join(root, 'www', dir, '.htaccess'), text);
  const main = [
    baseConfig(root, port, compat ? ['authz_host', 'dir', 'access_compat'] : ['authz_host', 'dir']),
    `DocumentRoot "${root}/www"`,
    'DirectoryIndex index.html',
    '',
    '<Directory />',
    '    AllowOverride None',
    '</Directory>',
    '',
    '# users may restrict their folders',
    `<Directory "${root}/www/p">`,
    '    AllowOverride Limit',
    '</Directory>',
    '',
    `<Directory "${root}/www/p/closed">`,
    '    AllowOverride None',
    '</Directory>',
    '',
    `<Directory "${root}/www/r">`,
    '    AllowOverride Limit Indexes',
    '</Directory>',
    '',
  ].join('\n');
  const file = path.join(root, 'apache2.conf');
  writeTreeFile(file, main);
  return file;
}

const REQUEST_PATHS = ['/', '/p/', '/p/sub/', '/p/closed/', '/q/', '/r/'];

/** 1-based number of the first line of `text` that equals `line`. */
function lineOf(text: string, line: string): number {
  return text.split('\n').indexOf(line) + 1;
}

async function statuses(port: number): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const p of REQUEST_PATHS) for (const a of ADDRESSES) out[`GET ${p} from ${a}`] = (await fetchFrom(port, p, a)).status;
  return out;
}

afterAll(() => stopTracked());

describe('allow-override-for-htaccess: migrated .htaccess under AllowOverride Limit', () => {
  const dirs: string[] = [];
  let ports: number[];
  let baselineConf: string;
  let migratedRoot: string;
  let migratedConf: string;
  let migration: ReturnType<typeof migrateTree>;
  let migratedOriginal: string;

  beforeAll(async () => {
    ports = await freePorts(4);
    const base = tempDir('k-ao-base-');
    migratedRoot = tempDir('k-ao-mig-');
    dirs.push(base, migratedRoot);
    baselineConf = limitTree(base, ports[0], true);
    migratedConf = limitTree(migratedRoot, ports[1], false);
    migratedOriginal = fs.readFileSync(migratedConf, 'utf8');
    migration = migrateTree(migratedRoot);
    writeOutputs(migration.outputs);
    makeWorldReadable(base);
    makeWorldReadable(migratedRoot);
  });

  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  test('the governing <Directory> gets exactly the directives the migrated files use, and closed children stay closed', () => {
    const text = migration.outputs.get(migratedConf) as string;
    const tail = text.slice(text.indexOf('<Directory />'));
    expect(tail).toBe(
      [
        '<Directory />',
        '    AllowOverride None',
        '</Directory>',
        '',
        '# users may restrict their folders',
        `<Directory "${migratedRoot}/www/p">`,
        '    AllowOverride Limit',
        '    AllowOverrideList Require',
        '</Directory>',
        '',
        `<Directory "${migratedRoot}/www/p/closed">`,
        '    AllowOverride None',
        '    AllowOverrideList None',
        '</Directory>',
        '',
        `<Directory "${migratedRoot}/www/r">`,
        '    AllowOverride Limit Indexes',
        '    AllowOverrideList Require <RequireAll',
        '</Directory>',
        '',
      ].join('\n'),
    );
    expect(migration.outputs.get(path.join(migratedRoot, 'www/p/.htaccess'))).toBe('Require ip 127.0.0.1 127.0.1\n');
    expect(migration.outputs.get(path.join(migratedRoot, 'www/r/.htaccess'))).toContain('<RequireAll>');
    const original = migratedOriginal;
    const mine = migration.findings.filter((f) => String(f[1]).startsWith('htaccess-override'));
    expect(mine).toEqual([
      ['apache2.conf', 'htaccess-override-list-added', 'review', lineOf(original, '    AllowOverride Limit')],
      ['apache2.conf', 'htaccess-override-list-guarded', 'info', lineOf(original, `<Directory "${migratedRoot}/www/p/closed">`) + 1],
      ['apache2.conf', 'htaccess-override-list-added', 'review', lineOf(original, '    AllowOverride Limit Indexes')],
    ]);
  });

  test('the migrated config passes apache2 -t without any warning', () => {
    const r = configtest(migratedConf);
    expect(r.output.trim()).toBe('Syntax OK');
    expect(r.ok).toBe(true);
  });

  test('same status codes as the 2.2 rules on 2.4 + mod_access_compat, from several source addresses', async () => {
    const baseline = await startTracked(baselineConf, ports[0], path.dirname(baselineConf));
    const migrated = await startTracked(migratedConf, ports[1], migratedRoot);
    try {
      const want = await statuses(baseline.port);
      const got = await statuses(migrated.port);
      expect(got).toEqual(want);
      // the comparison exercises what it should
      expect(want['GET /p/ from 127.0.0.1']).toBe(200);
      expect(want['GET /p/ from 127.0.1.9']).toBe(200);
      expect(want['GET /p/ from 127.0.0.5']).toBe(403);
      expect(want['GET /p/sub/ from 127.0.0.5']).toBe(403);
      expect(want['GET /r/ from 127.0.0.5']).toBe(403);
      expect(want['GET /r/ from 127.1.2.3']).toBe(200);
      // closed/.htaccess is ignored; p/.htaccess still applies there
      expect(want['GET /p/closed/ from 127.0.0.1']).toBe(200);
      expect(want['GET /p/closed/ from 127.0.0.5']).toBe(403);
      expect(want['GET /q/ from 127.0.0.5']).toBe(200);
    } finally {
      await baseline.stop();
      await migrated.stop();
    }
  }, 30000);

  test('negative controls: without the AllowOverrideList lines 2.4 answers 500; without the guard the closed directory reads its .htaccess', async () => {
    const text = migration.outputs.get(migratedConf) as string;
    const noList = path.join(migratedRoot, 'no-list.conf');
    const noGuard = path.join(migratedRoot, 'no-guard.conf');
    fs.writeFileSync(noList, text.replace(/^\s*AllowOverrideList .*\n/gm, '').replace(`127.0.0.1:${ports[1]}`, `127.0.0.1:${ports[2]}`).replace(/httpd\.pid/, 'nolist.pid'));
    fs.writeFileSync(noGuard, text.replace(/^\s*AllowOverrideList None\n/gm, '').replace(`127.0.0.1:${ports[1]}`, `127.0.0.1:${ports[3]}`).replace(/httpd\.pid/, 'noguard.pid'));
    makeWorldReadable(migratedRoot);
    const a = await startTracked(noList, ports[2], migratedRoot);
    const b = await startTracked(noGuard, ports[3], migratedRoot);
    try {
      for (const addr of ADDRESSES) expect((await fetchFrom(a.port, '/p/', addr)).status).toBe(500);
      expect((await fetchFrom(b.port, '/p/closed/', '127.0.0.1')).status).toBe(403);
      expect((await fetchFrom(b.port, '/p/', '127.0.0.1')).status).toBe(200);
    } finally {
      await a.stop();
      await b.stop();
    }
    const log = fs.readFileSync(path.join(migratedRoot, 'error.log'), 'utf8');
    expect(log).toMatch(/\.htaccess: Require not allowed here/);
  }, 30000);
});

describe('allow-override-for-htaccess: where the .htaccess files are looked for', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  test('a copied tree: paths under the configured ServerRoot are mapped into the copy (CRLF kept); others are reported', () => {
    const copy = tempDir('k-ao-copy-');
    dirs.push(copy);
    writeTreeFile(path.join(copy, 'htdocs/p/.htaccess'), 'Order deny,allow\r\nDeny from all\r\nAllow from 10.0.0.0/8\r\n');
    const main = [
      'ServerRoot "/usr/local/apache2"',
      'LoadModule mpm_prefork_module modules/mod_mpm_prefork.so',
      '<Directory />',
      '    AllowOverride None',
      '</Directory>',
      '<Directory "/usr/local/apache2/htdocs/p">',
      '    AllowOverride  Limit   # not a comment for httpd, but kept',
      '</Directory>',
      '<Directory /var/www/elsewhere>',
      '    AllowOverride Limit',
      '</Directory>',
      '',
    ].join('\r\n');
    writeTreeFile(path.join(copy, 'conf/httpd.conf'), main.replace('   # not a comment for httpd, but kept', ''));
    const { outputs, findings } = migrateTree(copy);
    expect(outputs.get(path.join(copy, 'conf/httpd.conf'))).toBe(
      main
        .replace('   # not a comment for httpd, but kept', '')
        .replace('    AllowOverride  Limit\r\n', '    AllowOverride  Limit\r\n    AllowOverrideList Require\r\n'),
    );
    expect(findings.filter((f) => String(f[1]).startsWith('htaccess-') && f[0] === 'httpd.conf')).toEqual([
      ['httpd.conf', 'htaccess-override-list-added', 'review', 7],
      ['httpd.conf', 'htaccess-not-visible', 'manual', 10],
    ]);
  });

  test('a .htaccess that 2.2 already refused (AuthConfig directive under Limit) is left alone and reported', () => {
    const live = tempDir('k-ao-live-');
    dirs.push(live);
    writeTreeFile(path.join(live, 'www/p/.htaccess'), 'Order deny,allow\nDeny from all\nSatisfy any\n');
    writeTreeFile(
      path.join(live, 'apache2.conf'),
      `ServerRoot "${live}"\n<Directory />\n    AllowOverride None\n</Directory>\n<Directory ${live}/www/p>\n    AllowOverride Limit\n</Directory>\n`,
    );
    const { outputs, findings } = migrateTree(live);
    expect(outputs.get(path.join(live, 'apache2.conf'))).not.toContain('AllowOverrideList');
    expect(findings.filter((f) => f[0] === 'apache2.conf')).toEqual([['apache2.conf', 'htaccess-refused-on-22', 'review', 6]]);
  });
});

describe("allow-override-default: 2.2's implicit AllowOverride All on a real httpd", () => {
  let root: string;
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('unmigrated: 2.4 reads the .htaccess and answers 500; migrated: it works again and explicit None below still wins', async () => {
    root = tempDir('k-ao-default-');
    const [p1, p2] = await freePorts(2);
    writeTreeFile(path.join(root, 'www/p/index.html'), 'index\n');
    writeTreeFile(path.join(root, 'www/p/other.html'), 'other\n');
    writeTreeFile(path.join(root, 'www/p/.htaccess'), 'DirectoryIndex other.html\n');
    writeTreeFile(path.join(root, 'www/q/index.html'), 'q\n');
    writeTreeFile(path.join(root, 'www/q/.htaccess'), 'ThisIsNotADirective\n');
    const body = [`DocumentRoot "${root}/www"`, 'DirectoryIndex index.html', `<Directory "${root}/www/q">`, '    AllowOverride None', '</Directory>', ''].join('\n');
    const original = baseConfig(root, p1, ['dir']) + body;
    const result = transformText(original, [allowOverrideDefault], {}, 'httpd.conf', 'main');
    expect(result.findings.map((f) => [f.code, f.severity, f.line])).toEqual([['allow-override-all-explicit', 'review', lineOf(original, `<Directory "${root}/www/q">`)]]);
    expect(result.output).toBe(original.replace(`DirectoryIndex index.html\n`, 'DirectoryIndex index.html\n<Directory />\n    AllowOverride All\n</Directory>\n\n'));
    writeTreeFile(path.join(root, 'original.conf'), original.replace('httpd.pid', 'orig.pid'));
    writeTreeFile(path.join(root, 'migrated.conf'), result.output.replace(`127.0.0.1:${p1}`, `127.0.0.1:${p2}`));
    makeWorldReadable(root);
    expect(configtest(path.join(root, 'migrated.conf')).output.trim()).toBe('Syntax OK');
    const before = await startTracked(path.join(root, 'original.conf'), p1, root);
    const after = await startTracked(path.join(root, 'migrated.conf'), p2, root);
    try {
      expect((await fetchFrom(before.port, '/p/', '127.0.0.1')).status).toBe(500);
      const p = await fetchFrom(after.port, '/p/', '127.0.0.1');
      expect(p).toEqual({ status: 200, body: 'other\n' });
      expect(await fetchFrom(after.port, '/q/', '127.0.0.1')).toEqual({ status: 200, body: 'q\n' });
      expect((await fetchFrom(before.port, '/q/', '127.0.0.1')).status).toBe(200);
    } finally {
      await before.stop();
      await after.stop();
    }
    expect(fs.readFileSync(path.join(root, 'error.log'), 'utf8')).toMatch(/\.htaccess: DirectoryIndex not allowed here/);
  }, 30000);
});
