/**
 * The logging transforms against a real httpd 2.4: the unmigrated 2.2 lines fail (negative controls),
 * the migrated config passes `apache2 -t` with nothing but "Syntax OK", and started servers show the
 * intended effect in their logs: rewrite/dumpio traces at the mapped levels, a module level written after
 * a later `LogLevel` survives (and in front of it would not), and a piped log that needs a shell receives
 * lines only when written `|$…`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { transformText } from '../src/run/runner';
import { debugLevelOption } from '../transforms/debug-level-option';
import { dumpIoLogLevel } from '../transforms/dump-io-log-level';
import { loadModules } from '../transforms/load-modules';
import { pipedLogShell } from '../transforms/piped-log-shell';
import { rewriteLogToLogLevel } from '../transforms/rewrite-log-to-log-level';
import { Transform } from '../transforms/types';
import { explain } from '../src/explain/explain';
import { baseConfig, configtest, freePorts, startServerChecked, tempDir, localRequest } from './support/httpd';

jest.setTimeout(60000);

function migrate(text: string, transform: Transform): { output: string; codes: string[] } {
  const r = transformText(text, [transform, loadModules], {}, 'httpd.conf', 'main');
  expect(r.errors).toEqual([]);
  return { output: r.output, codes: r.findings.map((f) => f.code) };
}

const get = async (port: number, urlPath: string): Promise<number> => (await localRequest(port, urlPath)).status;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Levels seen in an error log, e.g. `rewrite:trace3` → count. */
function levels(log: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of log.matchAll(/^\[[^\]]*\] \[([a-z_]+:[a-z0-9]+)\]/gm)) out.set(m[1], (out.get(m[1]) ?? 0) + 1);
  return out;
}

/** Writes `config` into a fresh directory (DIR replaced), serves one request to `urlPath`, returns the error log. */
async function serve(name: string, modules: readonly string[], body: string, urlPath = '/a', transform?: Transform) {
  const dir = tempDir(`codemod-log-${name}-`);
  fs.chmodSync(dir, 0o755); // the children run as www-data
  fs.mkdirSync(path.join(dir, 'htdocs'));
  fs.writeFileSync(path.join(dir, 'htdocs', 'b.html'), 'hello\n');
  fs.writeFileSync(path.join(dir, 'htdocs', 'map.txt'), 'a b\n');
  const [port] = await freePorts(1);
  let text = baseConfig(dir, port, modules) + `DocumentRoot "${dir}/htdocs"\n` + body.replace(/DIR\//g, `${dir}/`);
  let codes: string[] = [];
  if (transform) ({ output: text, codes } = migrate(text, transform));
  const file = path.join(dir, 'httpd.conf');
  fs.writeFileSync(file, text);
  const check = configtest(file);
  let log = '';
  let status = 0;
  if (check.ok) {
    const server = await startServerChecked(file, port, dir);
    try {
      status = await get(port, urlPath);
      await sleep(300);
    } finally {
      await server.stop();
    }
    log = fs.readFileSync(path.join(dir, 'error.log'), 'utf8');
  }
  const result = { dir, text, codes, check, log, status, levels: levels(log) };
  return { ...result, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const REWRITE = 'RewriteEngine On\nRewriteRule ^/a$ /b.html [PT]\n';

describe('rewrite-log-to-log-level on httpd 2.4', () => {
  test('negative control: the 2.2 lines are rejected', async () => {
    const s = await serve('rw-neg', ['rewrite'], `LogLevel warn\n${REWRITE}RewriteLog DIR/rewrite.log\nRewriteLogLevel 3\n`);
    expect(s.check.ok).toBe(false);
    expect(s.check.output).toContain("Invalid command 'RewriteLog'");
    expect(explain(s.check.output).text).toContain('rewrite-log-to-log-level');
    s.cleanup();
  });

  test('RewriteLogLevel 3 merged into LogLevel warn: trace1..3 in the ErrorLog, nothing above, no info noise', async () => {
    const s = await serve('rw-merge', ['rewrite'], `LogLevel warn\n${REWRITE}RewriteLog DIR/rewrite.log\nRewriteLogLevel 3\n`, '/a', rewriteLogToLogLevel);
    expect(s.text).toContain('LogLevel warn rewrite:trace3\n');
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.status).toBe(200);
    expect(s.levels.get('rewrite:trace3')).toBeGreaterThan(0);
    expect(s.levels.get('rewrite:trace2')).toBeGreaterThan(0);
    expect([...s.levels.keys()].filter((k) => /^rewrite:trace[4-8]$/.test(k) || k.endsWith(':info') || k.endsWith(':debug'))).toEqual([]);
    expect(fs.existsSync(path.join(s.dir, 'rewrite.log'))).toBe(false);
    expect(s.codes).toEqual(['rewrite-log-replaced', 'rewrite-log-file-gone']);
    s.cleanup();
  });

  test('RewriteLogLevel 9 is capped at trace8; with a RewriteMap mod_rewrite emits trace2..trace6, none above', async () => {
    const s = await serve(
      'rw-nine',
      ['rewrite'],
      'RewriteEngine On\nRewriteMap m txt:DIR/htdocs/map.txt\nRewriteCond ${m:$1} ^(.+)$\nRewriteRule ^/(a)$ /b.html [PT]\nRewriteLog DIR/rewrite.log\nRewriteLogLevel 9\n',
      '/a',
      rewriteLogToLogLevel,
    );
    expect(s.text).toContain('LogLevel rewrite:trace8\n');
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.status).toBe(200);
    const traces = [...s.levels.keys()].filter((k) => k.startsWith('rewrite:')).sort();
    expect(traces).toContain('rewrite:trace6');
    expect(traces.filter((k) => k === 'rewrite:trace7' || k === 'rewrite:trace8')).toEqual([]);
    s.cleanup();
  });

  test('a module level written after a later `LogLevel warn` survives; in front of it, it would be reset', async () => {
    const input = `<IfModule mod_rewrite.c>\n${REWRITE}RewriteLog DIR/rewrite.log\nRewriteLogLevel 2\n</IfModule>\nLogLevel warn\n`;
    const migrated = await serve('rw-later', ['rewrite'], input, '/a', rewriteLogToLogLevel);
    expect(migrated.text).toMatch(/LogLevel warn\n<IfModule mod_rewrite.c>\n\s+LogLevel rewrite:trace2\n<\/IfModule>\n$/);
    expect(migrated.check.output.trim()).toBe('Syntax OK');
    expect(migrated.levels.get('rewrite:trace2')).toBeGreaterThan(0);
    migrated.cleanup();
    // control: the naive in-place replacement, followed by the later LogLevel warn
    const naive = await serve('rw-naive', ['rewrite'], `<IfModule mod_rewrite.c>\n${REWRITE}LogLevel rewrite:trace2\n</IfModule>\nLogLevel warn\n`);
    expect(naive.check.ok).toBe(true);
    expect([...naive.levels.keys()].filter((k) => k.startsWith('rewrite:'))).toEqual([]);
    naive.cleanup();
  });

  test('a VirtualHost with only a module level inherits the main level', async () => {
    const s = await serve(
      'rw-vhost',
      ['rewrite'],
      `LogLevel warn\n<VirtualHost 127.0.0.1:*>\n    ${REWRITE.trim().split('\n').join('\n    ')}\n    RewriteLog DIR/vhost-rewrite.log\n    RewriteLogLevel 3\n</VirtualHost>\n`,
      '/a',
      rewriteLogToLogLevel,
    );
    expect(s.text).toContain('    LogLevel rewrite:trace3\n');
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.levels.get('rewrite:trace3')).toBeGreaterThan(0);
    expect([...s.levels.keys()].filter((k) => k.endsWith(':info') || k.endsWith(':debug'))).toEqual([]);
    s.cleanup();
  });

  test('RewriteLogLevel without RewriteLog: removed, and 2.4 logs no rewrite trace either', async () => {
    const s = await serve('rw-none', ['rewrite'], `LogLevel warn\n${REWRITE}RewriteLogLevel 5\n`, '/a', rewriteLogToLogLevel);
    expect(s.text).not.toMatch(/rewrite:trace/i);
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.status).toBe(200);
    expect([...s.levels.keys()].filter((k) => k.startsWith('rewrite:'))).toEqual([]);
    s.cleanup();
  });
});

describe('dump-io-log-level on httpd 2.4', () => {
  test('negative control, then DumpIOLogLevel → LogLevel dumpio:trace7 dumps the request', async () => {
    const body = 'LogLevel debug\nDumpIOInput On\nDumpIOLogLevel debug\n';
    const neg = await serve('dio-neg', ['dumpio'], body);
    expect(neg.check.output).toContain("Invalid command 'DumpIOLogLevel'");
    neg.cleanup();
    const s = await serve('dio', ['dumpio'], body.replace('LogLevel debug', 'LogLevel warn'), '/b.html', dumpIoLogLevel);
    // LogLevel warn: 2.2 printed nothing (debug < warn) → removed without a trace level
    expect(s.text).not.toContain('dumpio:trace7');
    expect(s.levels.get('dumpio:trace7') ?? 0).toBe(0);
    s.cleanup();
    const d = await serve('dio-debug', ['dumpio'], body, '/b.html', dumpIoLogLevel);
    expect(d.text).toContain('LogLevel debug dumpio:trace7\n');
    expect(d.check.output.trim()).toBe('Syntax OK');
    expect(d.levels.get('dumpio:trace7')).toBeGreaterThan(0);
    d.cleanup();
  });
});

describe('debug-level-option on httpd 2.4', () => {
  test.each([
    ['charset', 'charset_lite', '<Location />\n    CharsetSourceEnc UTF-8\n    CharsetDefault ISO-8859-1\n    CharsetOptions ImplicitAdd DebugLevel=4\n</Location>\n', 'Invalid CharsetOptions option: DebugLevel=4', 'LogLevel charset_lite:trace3', 'charset_lite:trace3'],
    ['extfilter', 'ext_filter', 'ExtFilterDefine up mode=output intype=text/html cmd="/usr/bin/tr a-z A-Z"\n<Location />\n    SetOutputFilter up\n    ExtFilterOptions DebugLevel=1\n</Location>\n', 'Invalid ExtFilterOptions option: DebugLevel=1', 'LogLevel ext_filter:trace1', 'ext_filter:trace1'],
  ])('%s: 2.2 option rejected; migrated passes -t and logs at the mapped level', async (_name, module, body, error, line, level) => {
    const full = `LogLevel debug\n${body}`;
    const neg = await serve(`dl-neg-${module}`, [module], full);
    expect(neg.check.ok).toBe(false);
    expect(neg.check.output).toContain(error);
    expect(explain(neg.check.output).text).toContain('debug-level-option');
    neg.cleanup();
    const s = await serve(`dl-${module}`, [module], full, '/b.html', debugLevelOption);
    expect(s.text).toContain(line);
    expect(s.text).not.toMatch(/DebugLevel=/i);
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.status).toBe(200);
    expect(s.levels.get(level)).toBeGreaterThan(0);
    s.cleanup();
  });
});

describe('piped-log-shell on a started httpd 2.4', () => {
  test('negative control: "|cat >> FILE" stops 2.4 from starting', async () => {
    const dir = tempDir('codemod-log-pipe-neg-');
    fs.chmodSync(dir, 0o755);
    const [port] = await freePorts(1);
    const file = path.join(dir, 'httpd.conf');
    fs.writeFileSync(file, baseConfig(dir, port) + `CustomLog "|cat >> ${dir}/access.pipe.log" "%h %r %>s"\n`);
    expect(configtest(file).ok).toBe(true); // -t does not see it
    await expect(startServerChecked(file, port, dir, 5000)).rejects.toThrow(/AH00104|unable to start piped log program/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('negative control: "|/bin/cat >> FILE" starts but the log is lost', async () => {
    const s = await serve('pipe-abs', [], 'CustomLog "|/bin/cat >> DIR/access.pipe.log" "%h %r %>s"\n', '/b.html');
    expect(s.status).toBe(200);
    await sleep(200);
    expect(fs.existsSync(path.join(s.dir, 'access.pipe.log'))).toBe(false);
    s.cleanup();
  });

  test('migrated "|$cat >> FILE" (CustomLog and ErrorLog) receives the lines', async () => {
    const s = await serve(
      'pipe-shell',
      [],
      'CustomLog "|cat >> DIR/access.pipe.log" "%h %r %>s"\nCustomLog "|/usr/bin/tee -a DIR/plain.log" "%h %r %>s"\n',
      '/b.html',
      pipedLogShell,
    );
    expect(s.text).toContain('CustomLog "|$cat >> ');
    expect(s.text).toContain('CustomLog "|/usr/bin/tee -a '); // a simple command stays as it was
    expect(s.codes).toEqual(['piped-log-shell']);
    expect(s.check.output.trim()).toBe('Syntax OK');
    expect(s.status).toBe(200);
    await sleep(300);
    expect(fs.readFileSync(path.join(s.dir, 'access.pipe.log'), 'utf8')).toContain('127.0.0.1 GET /b.html HTTP/1.1 200');
    expect(fs.readFileSync(path.join(s.dir, 'plain.log'), 'utf8')).toContain('127.0.0.1 GET /b.html HTTP/1.1 200');
    s.cleanup();
  });

  test('migrated ErrorLog "|$cat >> FILE" receives the error log', async () => {
    const dir = tempDir('codemod-log-pipe-err-');
    fs.chmodSync(dir, 0o755);
    const [port] = await freePorts(1);
    const text = baseConfig(dir, port).replace(`ErrorLog "${dir}/error.log"`, `ErrorLog "|cat >> ${dir}/error.pipe.log"`) + 'LogLevel info\n';
    const { output, codes } = migrate(text, pipedLogShell);
    expect(codes).toEqual(['piped-log-shell']);
    const file = path.join(dir, 'httpd.conf');
    fs.writeFileSync(file, output);
    const server = await startServerChecked(file, port, dir);
    const piped = path.join(dir, 'error.pipe.log');
    let seen = '';
    try {
      await get(port, '/nothing-here');
      // the logger runs in the server's process group: read before stopping it
      for (let i = 0; i < 30 && !/AH00128/.test(seen); i++) {
        await sleep(100);
        seen = fs.existsSync(piped) ? fs.readFileSync(piped, 'utf8') : '';
      }
    } finally {
      await server.stop();
    }
    expect(seen).toMatch(/AH00163: .*resuming normal operations/);
    expect(seen).toMatch(/AH00128: File does not exist: .*nothing-here/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
