/**
 * `codemod explain`: every table entry is matched by its own sample, every transform id it names exists,
 * and — so the table is proven against httpd's real wording, not its own strings — the stderr of
 * `apache2 -t` on small unmigrated 2.2 snippets is fed back and must name the transform that fixes it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { explain, matchMessages } from '../src/explain/explain';
import { DIRECTIVES, MESSAGES } from '../src/explain/messages';
import { APACHE2, MODULES_DIR, configtest, loadModuleLines, tempDir } from './support/httpd';

const INDEX = fs.readFileSync(path.join(__dirname, '..', 'transforms', 'index.ts'), 'utf8');
const isRegistered = (id: string) => INDEX.includes(`from './${id}'`) || id === 'load-modules';

describe('message table', () => {
  test.each(MESSAGES.map((e) => [e.id, e] as const))('%s: its sample matches', (_id, entry) => {
    const result = explain(entry.sample);
    expect(result.matched).toBe(true);
    expect(matchMessages(entry.sample).map((m) => m.entry)).toContain(entry.id);
  });

  test('every transform id named in the tables is registered in transforms/index.ts', () => {
    const ids = new Set<string>();
    for (const e of MESSAGES) {
      if (Array.isArray(e.transforms)) e.transforms.forEach((t) => ids.add(t));
      else {
        const m = e.pattern.exec(e.sample);
        if (m && typeof e.transforms === 'function') e.transforms(m).forEach((t) => ids.add(t));
      }
    }
    for (const d of Object.values(DIRECTIVES)) d.transforms.forEach((t) => ids.add(t));
    const unknown = [...ids].filter((id) => !isRegistered(id) || !fs.existsSync(path.join(__dirname, '..', 'transforms', `${id}.ts`)));
    expect(unknown).toEqual([]);
    expect(ids.size).toBeGreaterThan(15);
  });

  test('an unknown message is not matched', () => {
    expect(explain('the quick brown fox').matched).toBe(false);
    expect(explain('').matched).toBe(false);
  });

  test('pasted forms: AH00526 wrapper on its own line, nested read-phase wrapper, quotes, log prefixes', () => {
    const two = explain("AH00526: Syntax error on line 12 of /etc/apache2/apache2.conf:\nInvalid command 'LockFile', perhaps misspelled or defined by a module not included in the server configuration\nAction 'configtest' failed.");
    expect(two.matched).toBe(true);
    expect(two.text).toContain('replace-mutex-directives');
    expect(two.text).toContain('/etc/apache2/apache2.conf, line 12');
    const nested = matchMessages("apache2: Syntax error on line 7 of /a/main.conf: Syntax error on line 3 of /a/inc.conf: module unixd_module is built-in and can't be loaded");
    expect(nested).toHaveLength(1);
    expect(nested[0].where).toEqual({ file: '/a/inc.conf', line: 3 });
    expect(nested[0].transforms).toEqual(['rename-module-references']);
    expect(explain(`"Invalid command 'RewriteLog'"`).text).toContain('rewrite-log-to-log-level');
    const logged = matchMessages('[Tue Mar 03 10:00:00.123456 2026] [core:warn] [pid 42] AH00117: Ignoring deprecated use of DefaultType in line 3 of /x.conf.');
    expect(logged.map((m) => m.entry)).toEqual(['default-type']);
    const several = matchMessages('Invalid command \'Order\', perhaps misspelled\nKeepAlive must be On or Off trailing text');
    expect(several.map((m) => m.entry)).toEqual(['invalid-command', 'keep-alive']);
    expect(several[0].transforms).toEqual(['access-to-require']);
    const wrapperOnly = matchMessages('AH00526: Syntax error on line 5 of /x.conf:');
    expect(wrapperOnly.map((m) => m.entry)).toEqual(['syntax-error-location']);
  });
});

// ---------------------------------------------------------------------------
// Real stderr of apache2 -t on unmigrated 2.2 snippets
// ---------------------------------------------------------------------------

interface RealCase {
  readonly name: string;
  readonly modules: readonly string[];
  readonly snippet: string;
  /** Transform the explanation must name (null: an entry without transform, checked by `entry`). */
  readonly transform: string | null;
  readonly entry: string;
  /** Whether httpd fails (-t exit 1) or only warns. */
  readonly fails?: boolean;
  readonly mpm?: boolean;
  readonly args?: readonly string[];
}

const REAL: readonly RealCase[] = [
  { name: 'order-without-access-compat', modules: ['authz_core', 'authz_host'], snippet: '<Directory /tmp>\nOrder allow,deny\nAllow from all\n</Directory>\n', transform: 'access-to-require', entry: 'invalid-command' },
  { name: 'require-without-authz-core', modules: [], snippet: '<Directory /tmp>\nRequire all granted\n</Directory>\n', transform: 'access-to-require', entry: 'invalid-command' },
  { name: 'rewritelog', modules: ['rewrite'], snippet: 'RewriteLog /tmp/rewrite.log\nRewriteLogLevel 3\n', transform: 'rewrite-log-to-log-level', entry: 'invalid-command' },
  { name: 'rewriteloglevel', modules: ['rewrite'], snippet: 'RewriteLogLevel 3\n', transform: 'rewrite-log-to-log-level', entry: 'invalid-command' },
  { name: 'lockfile', modules: [], snippet: 'LockFile /tmp/accept.lock\n', transform: 'replace-mutex-directives', entry: 'invalid-command' },
  { name: 'acceptmutex', modules: [], snippet: 'AcceptMutex flock\n', transform: 'replace-mutex-directives', entry: 'invalid-command' },
  { name: 'sslmutex', modules: ['socache_shmcb', 'ssl'], snippet: 'SSLMutex default\n', transform: 'replace-mutex-directives', entry: 'invalid-command' },
  { name: 'dumpiologlevel', modules: ['dumpio'], snippet: 'DumpIOLogLevel debug\n', transform: 'dump-io-log-level', entry: 'invalid-command' },
  { name: 'authz-user-authoritative', modules: ['authz_core', 'authz_user'], snippet: '<Directory /tmp>\nAuthzUserAuthoritative Off\n</Directory>\n', transform: 'remove-authz-authoritative', entry: 'invalid-command' },
  { name: 'charset-debuglevel', modules: ['charset_lite'], snippet: 'CharsetOptions DebugLevel=4\n', transform: 'debug-level-option', entry: 'debug-level-option' },
  { name: 'extfilter-debuglevel', modules: ['ext_filter'], snippet: '<Directory /tmp>\nExtFilterOptions DebugLevel=1\n</Directory>\n', transform: 'debug-level-option', entry: 'debug-level-option' },
  { name: 'keepalive', modules: [], snippet: 'KeepAlive 1\n', transform: 'normalize-keep-alive', entry: 'keep-alive' },
  { name: 'options-none-later', modules: [], snippet: '<Directory /tmp>\nOptions Indexes None\n</Directory>\n', transform: 'options-mixed-signs', entry: 'options-first' },
  { name: 'options-mixed', modules: [], snippet: '<Directory /tmp>\nOptions FollowSymLinks -Indexes\n</Directory>\n', transform: 'options-mixed-signs', entry: 'options-mixed' },
  { name: 'namevirtualhost', modules: [], snippet: 'NameVirtualHost *:80\n', transform: 'remove-name-virtual-host', entry: 'name-virtual-host', fails: false },
  { name: 'defaulttype', modules: [], snippet: 'DefaultType text/plain\n', transform: 'remove-default-type', entry: 'default-type', fails: false },
  { name: 'maxclients-info', modules: [], snippet: 'MaxClients 50\n', transform: 'rename-max-clients', entry: 'max-clients', fails: false, args: ['-e', 'info'] },
  { name: 'loadmodule-builtin', modules: [], snippet: `LoadModule log_config_module ${MODULES_DIR}/mod_log_config.so\n`, transform: 'rename-module-references', entry: 'built-in-module' },
  { name: 'loadmodule-renamed', modules: [], snippet: `LoadModule disk_cache_module ${MODULES_DIR}/mod_disk_cache.so\n`, transform: 'rename-module-references', entry: 'cannot-load-missing' },
  { name: 'include-wildcard-nomatch', modules: [], snippet: 'Include DIR/empty/*.conf\n', transform: 'include-optional-wildcard', entry: 'include-wildcard' },
  { name: 'include-missing-dir', modules: [], snippet: 'Include DIR/nonexistent/*.conf\n', transform: 'include-optional-wildcard', entry: 'include-wildcard' },
  { name: 'authz-provider', modules: ['authz_core'], snippet: '<Directory /tmp>\nRequire ip 10.0.0.0/8\n</Directory>\n', transform: 'load-modules', entry: 'authz-provider' },
  { name: 'no-mpm', modules: [], snippet: '', transform: 'load-modules', entry: 'no-mpm', mpm: false },
  { name: 'filterprovider-22', modules: ['filter', 'deflate'], snippet: 'FilterDeclare f1\nFilterProvider f1 DEFLATE resp=Content-Type $text/html\n', transform: 'filter-provider-expression', entry: 'filter-provider' },
  { name: 'sslprotocol-sslv2', modules: ['socache_shmcb', 'ssl'], snippet: 'SSLProtocol SSLv2\n', transform: 'ssl-drop-sslv2', entry: 'sslv2' },
  { name: 'mutex-lockfile-path', modules: [], snippet: 'Mutex file:DIR/empty/accept.lock default\n', transform: 'replace-mutex-directives', entry: 'mutex-directory' },
  { name: 'loglevel-without-module', modules: [], snippet: 'LogLevel warn rewrite:trace3\n', transform: 'rewrite-log-to-log-level', entry: 'log-level-module' },
  { name: 'bom', modules: [], snippet: '\ufeffServerAdmin webmaster@example.com\n', transform: 'byte-order-mark', entry: 'bom' },
  { name: 'trailing-comment', modules: [], snippet: 'Timeout 300 # seconds\n', transform: null, entry: 'trailing-comment' },
];

describe('real httpd 2.4 messages for unmigrated 2.2 snippets', () => {
  const dir = tempDir('codemod-explain-');
  fs.mkdirSync(path.join(dir, 'empty'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each(REAL.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const snippetFile = path.join(dir, `${c.name}.conf`);
    fs.writeFileSync(snippetFile, c.snippet.replace(/DIR\//g, `${dir}/`));
    const main = path.join(dir, `${c.name}.main.conf`);
    fs.writeFileSync(
      main,
      [
        `ServerRoot "${dir}"`,
        `DefaultRuntimeDir "${dir}"`,
        `PidFile "${dir}/httpd.pid"`,
        `ErrorLog "${dir}/error.log"`,
        'ServerName localhost',
        c.mpm === false ? '' : loadModuleLines(['mpm_prefork']).trimEnd(),
        loadModuleLines(c.modules).trimEnd(),
        `Include ${snippetFile}`,
        '',
      ].join('\n'),
    );
    const result = configtest(main, c.args ?? []);
    expect(result.ok).toBe(c.fails === false);
    const found = matchMessages(result.output);
    expect(found.map((m) => m.entry)).toContain(c.entry);
    const mine = found.find((m) => m.entry === c.entry)!;
    if (c.transform) expect(mine.transforms).toContain(c.transform);
    else expect(mine.transforms).toEqual([]);
    expect(explain(result.output).matched).toBe(true);
  });

  test('the harness runs the real binary', () => {
    expect(fs.existsSync(APACHE2)).toBe(true);
  });
});
