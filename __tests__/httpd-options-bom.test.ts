/**
 * byte-order-mark and options-includes-noexec on real httpd 2.4 (their fixtures run in
 * transform-fixtures.test.ts):
 * - a UTF-8 BOM is fatal at the start of a main or included config (`Invalid command
 *   '\xef\xbb\xbf…'`); the migrated files pass `apache2 -t` with nothing but "Syntax OK";
 * - a BOM'd .htaccess answers 500 while the same file without the BOM is applied: removing it
 *   would grant what the 500 refused, so the transform leaves it alone;
 * - Includes / IncludesNOEXEC chains on a started server give #exec exactly where 2.2.12+'s
 *   set_options/merge code (modelled in the transform, from the 2.2 sources) says: `+Includes`
 *   below IncludesNOEXEC executes, as it did in every 2.2, so it must not be rewritten; the lines
 *   the transform reports are those where 2.2.0–2.2.11 differed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { byteOrderMark } from '../transforms/byte-order-mark';
import { Ssi, chainSsi } from '../src/semantics/options22';
import { optionsIncludesNoexec } from '../transforms/options-includes-noexec';
import { Transform } from '../transforms/types';
import { RunningServer, baseConfig, configtest, freePorts, startServerChecked, tempDir as makeTempDir, localRequest } from './support/httpd';

jest.setTimeout(60000);

/** Temporary directories of this file, removed when it ends. */
const made: string[] = [];
function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const PLANNER = TRANSFORMS.filter((t) => t.id === 'load-modules');
const BOM = '\xEF\xBB\xBF';

// ---------------------------------------------------------------------------------------------
// Helpers

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(text, 'latin1'));
}

/** httpd's children run as www-data: the tree must be world-readable. */
function openUp(root: string): void {
  fs.chmodSync(root, 0o755);
  for (const name of fs.readdirSync(root)) {
    const p = path.join(root, name);
    if (fs.statSync(p).isDirectory()) openUp(p);
    else fs.chmodSync(p, 0o644);
  }
}

const get = localRequest;

function migrate(text: string, transform: Transform, role: 'main' | 'fragment' | 'htaccess', name = 'test.conf') {
  const result = transformText(text, [transform, ...PLANNER], {}, name, role);
  expect(result.errors).toEqual([]);
  return result;
}

// ---------------------------------------------------------------------------------------------
// byte-order-mark on httpd 2.4

describe('byte-order-mark on httpd 2.4', () => {
  test('a BOM before the main config is fatal; the migrated config passes -t cleanly', async () => {
    const dir = tempDir('codemod-bom-');
    const [port] = await freePorts(1);
    const text = BOM + baseConfig(dir, port) + `DocumentRoot "${dir}"\n`;
    const file = path.join(dir, 'httpd.conf');
    write(file, text);
    const before = configtest(file);
    expect(before.ok).toBe(false);
    expect(before.output).toContain("Invalid command '\\xef\\xbb\\xbfServerRoot'");

    const result = migrate(text, byteOrderMark, 'main', 'httpd.conf');
    expect(result.output).toBe(text.slice(3));
    expect(result.findings.map((f) => [f.code, f.severity, f.line])).toEqual([['bom-removed', 'review', 1]]);
    write(file, result.output);
    const after = configtest(file);
    expect(after.output.trim()).toBe('Syntax OK');
    expect(after.ok).toBe(true);
  });

  test('a BOM before an included file whose first line is a comment is fatal; migrated, it loads', async () => {
    const dir = tempDir('codemod-bom-');
    const [port] = await freePorts(1);
    const main = path.join(dir, 'httpd.conf');
    const sub = path.join(dir, 'conf.d', 'site.conf');
    write(main, baseConfig(dir, port, ['info']) + `DocumentRoot "${dir}"\nInclude conf.d/site.conf\n`);
    const fragment = BOM + '# site settings\r\nServerAdmin webmaster@example.com\r\nServerSignature Off\r\n';
    write(sub, fragment);
    const before = configtest(main);
    expect(before.ok).toBe(false);
    expect(before.output).toContain("Invalid command '\\xef\\xbb\\xbf#'");

    const result = migrate(fragment, byteOrderMark, 'fragment', 'site.conf');
    expect(result.output).toBe(fragment.slice(3));
    write(sub, result.output);
    const after = configtest(main, ['-D', 'DUMP_CONFIG']);
    expect(after.ok).toBe(true);
    expect(after.output).not.toMatch(/AH\d{5}|warn/i);
    expect(after.output).toMatch(/^\s*ServerAdmin webmaster@example\.com$/m);
  });

  describe('a BOM in .htaccess', () => {
    let server: RunningServer | null = null;
    let dir = '';
    const htaccess = BOM + 'Require all granted\n';

    beforeAll(async () => {
      dir = tempDir('codemod-bom-ht-');
      const [port] = await freePorts(1);
      const docs = path.join(dir, 'htdocs');
      for (const sub of ['with-bom', 'without-bom']) write(path.join(docs, sub, 'index.html'), 'secret\n');
      write(path.join(docs, 'with-bom', '.htaccess'), htaccess);
      write(path.join(docs, 'without-bom', '.htaccess'), htaccess.slice(3));
      openUp(dir);
      const conf = path.join(dir, 'httpd.conf');
      write(
        conf,
        baseConfig(dir, port, ['dir']) +
          `DocumentRoot "${docs}"\n` +
          `<Directory "${docs}">\n    AllowOverride AuthConfig\n    Require all denied\n</Directory>\n`,
      );
      expect(configtest(conf).ok).toBe(true);
      server = await startServerChecked(conf, port, dir);
    });

    afterAll(async () => {
      await server?.stop();
    });

    test('2.4 answers 500 for the BOM file and applies the same file without BOM (which opens the directory)', async () => {
      const withBom = await get(server!.port, '/with-bom/');
      const withoutBom = await get(server!.port, '/without-bom/');
      expect(withBom.status).toBe(500);
      expect(withoutBom.status).toBe(200);
      expect(withoutBom.body).toBe('secret\n');
      const log = fs.readFileSync(path.join(dir, 'error.log'), 'latin1');
      expect(log).toContain("with-bom/.htaccess: Invalid command '\\xef\\xbb\\xbfRequire'");
    });

    test('so the transform leaves a .htaccess BOM alone and asks a human', () => {
      const result = migrate(htaccess, byteOrderMark, 'htaccess', '.htaccess');
      expect(result.output).toBe(htaccess);
      expect(result.findings.map((f) => [f.code, f.severity, f.line])).toEqual([['bom-in-htaccess', 'manual', 1]]);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// options-includes-noexec on httpd 2.4

interface Chain {
  readonly dir: string;
  /** Options words per nesting level, outermost first (below `Options None`). */
  readonly levels: readonly (readonly string[])[];
  /** What 2.2.0–2.2.11's code gave (OPT_INCNOEXEC; read from the 2.2 sources, not the model). */
  readonly before2212: Ssi;
}

const CHAINS: readonly Chain[] = [
  { dir: 'a', levels: [['IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'b', levels: [['Includes']], before2212: 'exec' },
  // the suspected widening: +Includes below IncludesNOEXEC executed in 2.2 too (merge clears OPT_INCNOEXEC)
  { dir: 'c', levels: [['IncludesNOEXEC'], ['+Includes']], before2212: 'exec' },
  { dir: 'd', levels: [['Includes'], ['+IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'e', levels: [['IncludesNOEXEC'], ['+IncludesNOEXEC']], before2212: 'exec' },
  { dir: 'f', levels: [['Includes', 'IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'g', levels: [['All', 'IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'h', levels: [['Includes'], ['-IncludesNOEXEC'], ['+IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'i', levels: [['IncludesNOEXEC'], ['-Includes'], ['+Includes']], before2212: 'exec' },
  { dir: 'k', levels: [['+Includes', '+IncludesNOEXEC']], before2212: 'noexec' },
  { dir: 'l', levels: [['Includes'], ['-Includes']], before2212: 'off' },
];

/** The config lines for the chains: one <Directory> per level, nested by path. */
function chainSections(docs: string): { text: string; lineOf: Map<string, number> } {
  const lines: string[] = [];
  const lineOf = new Map<string, number>();
  for (const chain of CHAINS) {
    let p = path.join(docs, chain.dir);
    chain.levels.forEach((words, i) => {
      if (i > 0) p = path.join(p, `l${i}`);
      lines.push(`<Directory "${p}">`);
      lines.push(`    Options ${words.join(' ')}`);
      lineOf.set(`${chain.dir}/${i}`, lines.length);
      lines.push('</Directory>');
    });
  }
  return { text: lines.join('\n') + '\n', lineOf };
}

function leafPath(chain: Chain): string {
  return [chain.dir, ...chain.levels.slice(1).map((_, i) => `l${i + 1}`)].join('/');
}

describe('options-includes-noexec on httpd 2.4', () => {
  let server: RunningServer | null = null;
  let sections = { text: '', lineOf: new Map<string, number>() };
  const served = new Map<string, { status: number; body: string }>();

  beforeAll(async () => {
    const dir = tempDir('codemod-ssi-');
    const [port] = await freePorts(1);
    const docs = path.join(dir, 'htdocs');
    for (const chain of CHAINS) write(path.join(docs, leafPath(chain), 'x.shtml'), 'A<!--#exec cmd="echo EXEC-RAN" -->B\n');
    openUp(dir);
    sections = chainSections(docs);
    const conf = path.join(dir, 'httpd.conf');
    write(
      conf,
      baseConfig(dir, port, ['mime', 'include', 'cgi']) +
        `DocumentRoot "${docs}"\nTypesConfig /dev/null\nAddType text/html .shtml\nAddOutputFilter INCLUDES .shtml\n` +
        `<Directory "${docs}">\n    Options None\n    AllowOverride None\n    Require all granted\n</Directory>\n` +
        sections.text,
    );
    const t = configtest(conf);
    expect(t.output.trim()).toBe('Syntax OK');
    server = await startServerChecked(conf, port, dir);
    for (const chain of CHAINS) served.set(chain.dir, await get(port, `/${leafPath(chain)}/x.shtml`));
  });

  afterAll(async () => {
    await server?.stop();
  });

  const observed = (dir: string): Ssi => {
    const r = served.get(dir)!;
    expect(r.status).toBe(200);
    if (r.body === 'AEXEC-RAN\nB\n') return 'exec';
    if (r.body.includes('<!--#exec')) return 'off'; // the filter removed itself: raw text
    expect(r.body).toBe('A[an error occurred while processing this directive]B\n');
    return 'noexec';
  };

  test.each(CHAINS)('chain $dir: 2.4 gives what the 2.2.12+ code (the model) gives', (chain) => {
    expect(observed(chain.dir)).toBe(chainSsi(chain.levels, '2.2.12+'));
  });

  test.each(CHAINS)('chain $dir: the model of 2.2.0–2.2.11 matches the hand reading of its code', (chain) => {
    expect(chainSsi(chain.levels, 'pre-2.2.12')).toBe(chain.before2212);
  });

  test('`+Includes` below IncludesNOEXEC executes on 2.4 as in every 2.2; +IncludesNOEXEC there would not', () => {
    expect(observed('c')).toBe('exec');
    expect(observed('e')).toBe('noexec'); // what the rewrite to +IncludesNOEXEC would give: a change, not a fix
  });

  test('the transform changes nothing and reports the lines 2.2.0–2.2.11 read without #exec', () => {
    const result = migrate(sections.text, optionsIncludesNoexec, 'fragment');
    expect(result.output).toBe(sections.text);
    const reported = result.findings.map((f) => [f.code, f.severity, f.line]);
    const expected = ['f/0', 'g/0', 'k/0'].map((k) => ['options-includes-exec-by-release', 'review', sections.lineOf.get(k)]);
    expect(reported).toEqual(expected);
    // each reported line is a real difference: 2.4 executes, 2.2.0–2.2.11 did not
    for (const dir of ['f', 'g', 'k']) {
      expect(observed(dir)).toBe('exec');
      expect(CHAINS.find((c) => c.dir === dir)!.before2212).not.toBe('exec');
    }
  });
});
