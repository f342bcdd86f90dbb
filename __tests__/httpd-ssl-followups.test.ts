/**
 * ssl-session-cache-shm, ssl-drop-sslv3 and dump-io-default-level against a real httpd 2.4.71:
 * - their fixtures (run here too until they are registered in transforms/index.ts);
 * - `apache2 -t` on every fixture: each output passes without a warning, each input the transform had to
 *   fix fails with the message the transform names (negative control);
 * - the measured rules the transforms rely on (what 2.4 says about each 2.2 cache type and protocol word);
 * - started servers: the migrated shm: session cache resumes TLS sessions; the 2.2 SSLv3 lines do not
 *   start, the migrated ones offer exactly the protocols that remain (openssl s_client), and a line left
 *   with TLSv1 only serves nobody at OpenSSL 3's default security level; the 2.2 DumpIO lines log no dump
 *   on 2.4, the migrated ones log the request.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from '../src/cst';
import { run, transformText } from '../src/run/runner';
import { Discovery, SourceFile } from '../src/server/types';
import { TRANSFORMS } from '../transforms';
import { dumpIoDefaultLevel } from '../transforms/dump-io-default-level';
import { sslDropSslv3 } from '../transforms/ssl-drop-sslv3';
import { sslSessionCacheShm } from '../transforms/ssl-session-cache-shm';
import { RunOptions, Transform } from '../transforms/types';
import { APACHE2, baseConfig, configtest, freePorts, startServerChecked, tempDir } from './support/httpd';
import { fixtureServer } from './support/mutex-ssl';

const FIXTURES = path.join(__dirname, 'fixtures');
const MINE: readonly Transform[] = [sslSessionCacheShm, sslDropSslv3, dumpIoDefaultLevel];
const planner = TRANSFORMS.filter((t) => t.id === 'load-modules');
const read = (file: string) => fs.readFileSync(file).toString('latin1');
const WARNING = /\[[a-z_]+:(warn|error|crit|alert|emerg)\]|AH\d{5}/;

interface Case {
  readonly transform: Transform;
  readonly key: string;
  readonly name: string;
  readonly input: string;
  readonly output: string | null;
  readonly findings: [string, string, number][] | null;
  readonly options: RunOptions;
  readonly role: 'main' | 'fragment' | 'htaccess';
}

function cases(transform: Transform): Case[] {
  const dir = path.join(FIXTURES, transform.id);
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.input.conf'))
    .sort()
    .map((n) => {
      const name = n.replace(/\.input\.conf$/, '');
      const file = (ext: string) => path.join(dir, `${name}.${ext}`);
      return {
        transform,
        key: `${transform.id}/${name}`,
        name,
        input: read(file('input.conf')),
        output: fs.existsSync(file('output.conf')) ? read(file('output.conf')) : null,
        findings: fs.existsSync(file('findings.json')) ? JSON.parse(fs.readFileSync(file('findings.json'), 'utf8')) : null,
        options: fs.existsSync(file('options.json')) ? JSON.parse(fs.readFileSync(file('options.json'), 'utf8')) : {},
        role: name.startsWith('main-') ? 'main' : name.startsWith('htaccess-') ? 'htaccess' : 'fragment',
      };
    });
}

const ALL = MINE.flatMap(cases);

// ---------------------------------------------------------------------------------------------------
// Fixtures, the way transform-fixtures.test.ts runs them, for transforms not registered yet
const unregistered = ALL.filter((c) => !TRANSFORMS.some((t) => t.id === c.transform.id));
if (unregistered.length > 0) {
  describe.each(unregistered.map((c) => [c.key, c] as const))('fixture %s', (_key, c) => {
    const pipeline = [c.transform, ...planner];
    const result = transformText(c.input, pipeline, c.options, `${c.name}.conf`, c.role);
    const outputFile = path.join(FIXTURES, c.transform.id, `${c.name}.output.conf`);

    test('input round-trips', () => {
      expect(parse(c.input).print()).toBe(c.input);
    });

    test('output is exact', () => {
      expect(result.errors).toEqual([]);
      if (process.env.UPDATE_FIXTURES === '1' && result.output !== c.input) fs.writeFileSync(outputFile, Buffer.from(result.output, 'latin1'));
      if (c.output !== null || fs.existsSync(outputFile)) {
        const expected = read(outputFile);
        expect(expected).not.toBe(c.input);
        expect(result.output).toBe(expected);
      } else {
        expect(result.output).toBe(c.input);
      }
    });

    test('a second run changes nothing', () => {
      expect(transformText(result.output, pipeline, c.options, `${c.name}.conf`, c.role).output).toBe(result.output);
    });

    if (c.findings) {
      test('findings', () => {
        expect(result.findings.map((f) => [f.code, f.severity, f.line])).toEqual(c.findings);
      });
    }
  });
}

test('every transform of this file has fixtures, and each fixture dir has changed and unchanged cases', () => {
  for (const t of MINE) {
    const mine = ALL.filter((c) => c.transform === t);
    expect([t.id, mine.some((c) => c.output !== null)]).toEqual([t.id, true]);
    expect([t.id, mine.some((c) => c.output === null)]).toEqual([t.id, true]);
  }
});

// ---------------------------------------------------------------------------------------------------
// apache2 -t on the fixtures
const MODULES = ['ssl', 'socache_shmcb', 'socache_dbm', 'socache_memcache', 'dumpio', 'version'];
/** Outputs that keep lines the transform could not rewrite (a `manual` finding says so): httpd still refuses them. */
const STILL_FAILING: Record<string, RegExp> = {
  'ssl-session-cache-shm/distcache-manual': /'dc' session cache not supported/,
  'ssl-drop-sslv3/protocol-manual': /SSLv3 not supported by this version of OpenSSL/,
  // DumpIOLogLevel is dump-io-log-level's (it runs before); this transform leaves such servers alone
  'dump-io-default-level/explicit-level-or-2.4-untouched': /Invalid command 'DumpIOLogLevel'/,
};
/** What 2.4 says about each input the transform changes (or must change by hand). */
const INPUT_FAILS: Record<string, RegExp> = {
  'ssl-session-cache-shm/main-debian-ssl': /SSLSessionCache: 'shm' session cache not supported \(known names: [a-z,]+\)/,
  'ssl-session-cache-shm/forms': /SSLSessionCache: '(shmht|SHM|ShmCB|DBM|shm)' session cache not supported/,
  'ssl-session-cache-shm/crlf-continuation-no-final-newline': /SSLSessionCache: 'shm' session cache not supported/,
  'ssl-session-cache-shm/distcache-manual': /'dc' session cache not supported/,
  'ssl-drop-sslv3/protocol-forms': /SSLv3 not supported by this version of OpenSSL/,
  'ssl-drop-sslv3/protocol-manual': /SSLv3 not supported by this version of OpenSSL/,
  'ssl-drop-sslv3/crlf-continuation-vhost': /SSLv3 not supported by this version of OpenSSL/,
};
/** Inputs that keep a 2.2 line on purpose (ssl-drop-sslv2's line). */
const INPUT_ALSO_FAILS: Record<string, RegExp> = {
  'ssl-drop-sslv3/minus-sslv3-unchanged': /SSLProtocol: SSLv2 is no longer supported/,
  'dump-io-default-level/explicit-level-or-2.4-untouched': /Invalid command 'DumpIOLogLevel'/,
};

function serverWith(dir: string, body: string, name: string, modules = MODULES): string {
  return fixtureServer(dir, body, name, { modules });
}

describe('apache2 -t on the fixtures', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('codemod-ssl-followups-');
    fs.mkdirSync(path.join(dir, 'logs'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each(ALL.map((c) => [c.key, c] as const))('%s', (key, c) => {
    // configs of this suite pass unless the table above says why not
    const text = c.output ?? c.input;
    // the second SSLProtocol of minus-sslv3-unchanged still names SSLv2 (ssl-drop-sslv2 removes it)
    const after = configtest(serverWith(dir, key in INPUT_ALSO_FAILS ? text.replace(/^SSLProtocol SSLv2.*$/m, '') : text, 'after'));
    if (STILL_FAILING[key]) {
      expect(after.ok).toBe(false);
      expect(after.output).toMatch(STILL_FAILING[key]);
    } else {
      expect(after.output).not.toMatch(WARNING);
      expect(after.ok).toBe(true);
    }
    const before = configtest(serverWith(dir, c.input, 'before'));
    const failure = INPUT_FAILS[key] ?? INPUT_ALSO_FAILS[key];
    if (failure) {
      expect(before.ok).toBe(false);
      expect(before.output).toMatch(failure);
    } else {
      expect(before.ok).toBe(true);
    }
  });

  test('each 2.2 spelling of forms.input.conf fails on its own (not only the first line)', () => {
    const lines = ALL.find((c) => c.key === 'ssl-session-cache-shm/forms')!.input.split('\n').filter((l) => /^ssl/i.test(l));
    expect(lines.length).toBe(7);
    for (const line of lines) {
      const r = configtest(serverWith(dir, line, 'one'));
      expect([line, r.ok]).toEqual([line, false]);
      expect(r.output).toMatch(/(session|stapling) cache not supported/);
    }
  });

  test('LogLevel dumpio:trace7 needs mod_dumpio: why the transform asks for it, or keeps the <IfModule> guard', () => {
    const unguarded = configtest(serverWith(dir, 'LogLevel debug dumpio:trace7\n', 'unguarded', ['version']));
    expect(unguarded.ok).toBe(false);
    expect(unguarded.output).toMatch(/Cannot find module dumpio/);
    const guarded = ALL.find((c) => c.key === 'dump-io-default-level/main-guarded-later-loglevel')!;
    const r = configtest(serverWith(dir, guarded.output!, 'guarded', ['version']));
    expect(r.output).not.toMatch(WARNING);
    expect(r.ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// The measured rules
describe('what httpd 2.4.71 says about the 2.2 forms', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('codemod-ssl-followups-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const check = (line: string, modules = ['ssl', 'socache_shmcb', 'socache_dbm']) => {
    const file = path.join(dir, 'rule.conf');
    fs.writeFileSync(file, baseConfig(dir, 8, modules) + line + '\n');
    return configtest(file);
  };

  test.each([
    ['SSLSessionCache shm:/x/c(512000)', /'shm' session cache not supported/],
    ['SSLSessionCache shmht:/x/c', /'shmht' session cache not supported/],
    ['SSLSessionCache SHMCB:/x/c', /'SHMCB' session cache not supported/],
    ['SSLSessionCache DBM:/x/c', /'DBM' session cache not supported/],
    ['SSLSessionCache dc:UNIX:/x/dc.sock', /'dc' session cache not supported/],
    ['SSLStaplingCache shm:/x/s(32768)', /'shm' stapling cache not supported/],
    ['SSLSessionCache shmcb:/x/c(4096)', /size has to be >= 8192 bytes/],
    ['SSLProtocol SSLv3 TLSv1', /SSLv3 not supported by this version of OpenSSL/],
    ['SSLProtocol all +SSLv3', /SSLv3 not supported by this version of OpenSSL/],
    ['SSLProtocol +SSLv3', /SSLv3 not supported by this version of OpenSSL/],
    ['SSLProtocol TLSv1 sslv3', /SSLv3 not supported by this version of OpenSSL/],
    ['SSLProxyProtocol +SSLv3 +TLSv1.2', /SSLv3 not supported by this version of OpenSSL/],
  ])('%s fails', (line, message) => {
    const r = check(line);
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(message);
  });

  test('shm: fails even with every socache module loaded', () => {
    const r = check('SSLSessionCache shm:/x/c(512000)', ['ssl', 'socache_shmcb', 'socache_dbm', 'socache_memcache', 'socache_redis']);
    expect(r.output).toMatch(/'shm' session cache not supported \(known names: [a-z,]+\)/);
  });

  test.each([
    'SSLSessionCache shmcb:/x/c(512000)',
    'SSLSessionCache shmcb:logs/c',
    'SSLSessionCache dbm:/x/c',
    'SSLSessionCache none',
    'SSLSessionCache NONE',
    'SSLSessionCache NoneNotNull',
    'SSLStaplingCache shmcb:/x/s(32768)',
    'SSLProtocol all -SSLv3',
    'SSLProtocol -SSLv3 +TLSv1.2',
    'SSLProtocol all -SSLv2 -SSLv3',
    'SSLProtocol +TLSv1.2',
    'SSLProxyProtocol ALL -SSLV3',
  ])('%s passes silently', (line) => {
    const r = check(line);
    expect(r.output).not.toMatch(WARNING);
    expect(r.ok).toBe(true);
  });

  test('shmcb: needs mod_socache_shmcb (the planner loads it)', () => {
    expect(check('SSLSessionCache shmcb:/x/c(512000)', ['ssl']).output).toMatch(/'shmcb' session cache not supported/);
  });
});

// ---------------------------------------------------------------------------------------------------
// dump-io-default-level in a server of several files: the main server's LogLevel decides for an included vhost
describe('dump-io-default-level across files', () => {
  const serverOf = (main: string, vhost: string): Discovery => {
    const file = (name: string, role: SourceFile['role'], text: string): SourceFile => ({ realPath: `/srv/${name}`, displayPath: name, role, original: text, tree: parse(text) });
    const files = [file('httpd.conf', 'main', main), file('vhost.conf', 'included', vhost)];
    return { servers: [{ id: 'httpd.conf', main: files[0], serverRoot: '/srv', files, includes: new Map([['/srv/httpd.conf', ['/srv/vhost.conf']]]) }], errors: [], skipped: [] };
  };
  const vhost = '<VirtualHost *:80>\n    DumpIOInput On\n</VirtualHost>\n';

  test.each([
    ['LogLevel debug\nInclude vhost.conf\n', true],
    ['LogLevel warn\nInclude vhost.conf\n', false],
    ['Include vhost.conf\n', false], // 2.2's default LogLevel warn
  ])('%j: added = %s', (main, added) => {
    const result = run(serverOf(main, vhost), [dumpIoDefaultLevel]);
    const out = result.files.find((f) => f.file.displayPath === 'vhost.conf')!.output;
    expect(out).toBe(added ? '<VirtualHost *:80>\n    DumpIOInput On\n    LogLevel dumpio:trace7\n</VirtualHost>\n' : vhost);
    expect(result.findings.map((f) => f.code)).toEqual(added ? ['dump-io-level-added'] : []);
  });
});

// ---------------------------------------------------------------------------------------------------
// After ssl-drop-sslv2 (order 470): lines that named both SSLv2 and SSLv3 end up accepted by 2.4
describe('ssl-drop-sslv2 then ssl-drop-sslv3', () => {
  const sslv2 = TRANSFORMS.filter((t) => t.id === 'ssl-drop-sslv2');
  let dir: string;
  beforeAll(() => {
    dir = tempDir('codemod-ssl-followups-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['SSLProtocol all -SSLv2 +SSLv3', 'SSLProtocol all', 'review'],
    ['SSLProtocol +SSLv2 +SSLv3 +TLSv1 +TLSv1.2', 'SSLProtocol +TLSv1 +TLSv1.2', 'review'],
    ['SSLProtocol SSLv2 SSLv3 TLSv1.2', 'SSLProtocol TLSv1.2', 'info'],
    ['SSLProxyProtocol -SSLv2 +SSLv3 +TLSv1.2', 'SSLProxyProtocol +TLSv1.2', 'review'],
  ])('%s → %s', (line, expected, severity) => {
    const result = transformText(line + '\n', [...sslv2, sslDropSslv3], {}, 'x.conf', 'fragment');
    expect(result.output).toBe(expected + '\n');
    expect(result.findings.filter((f) => f.transform === 'ssl-drop-sslv3').map((f) => [f.code, f.severity])).toEqual([['sslv3-protocol-removed', severity]]);
    const file = path.join(dir, 'both.conf');
    fs.writeFileSync(file, baseConfig(dir, 8, ['ssl', 'socache_shmcb']) + line + '\n');
    expect(configtest(file).ok).toBe(false);
    fs.writeFileSync(file, baseConfig(dir, 8, ['ssl', 'socache_shmcb']) + result.output);
    const r = configtest(file);
    expect(r.output).not.toMatch(WARNING);
    expect(r.ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// Started servers
function sClient(port: number, args: string[]): string {
  const r = spawnSync('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost', ...args], { input: '', encoding: 'utf8', timeout: 10000 });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

/** The protocol a handshake limited to `version` (tls1, tls1_1, tls1_2, tls1_3) agreed, or null when it failed. OpenSSL's client runs at security level 0 so only the server decides. */
function negotiated(port: number, version: string): string | null {
  const out = sClient(port, ['-brief', `-${version}`, '-cipher', 'DEFAULT:@SECLEVEL=0']);
  return /Protocol version: (\S+)/.exec(out)?.[1] ?? null;
}

function curl(port: number, header: string): string {
  const r = spawnSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', '-H', header, `http://127.0.0.1:${port}/index.html`], { encoding: 'utf8' });
  return r.stdout;
}

describe('started servers', () => {
  let root: string;
  let cert: string;
  let key: string;
  beforeAll(() => {
    root = tempDir('codemod-ssl-followups-run-');
    fs.chmodSync(root, 0o755); // the children run as www-data
    cert = path.join(root, 'server.crt');
    key = path.join(root, 'server.key');
    const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  function setup(name: string): string {
    const run = path.join(root, name);
    fs.mkdirSync(path.join(run, 'htdocs'), { recursive: true });
    fs.writeFileSync(path.join(run, 'htdocs', 'index.html'), 'ok\n');
    return run;
  }

  const tls = (run: string) =>
    [`DocumentRoot "${run}/htdocs"`, `<Directory "${run}/htdocs">`, '    Require all granted', '</Directory>', 'SSLEngine on', `SSLCertificateFile ${cert}`, `SSLCertificateKeyFile ${key}`, ''].join('\n');

  test('SSLSessionCache shm:: 2.2 line refused; migrated (planner loads socache_shmcb from the argument) resumes TLS sessions in a cache of the same size', async () => {
    const run = setup('scache');
    const [port] = await freePorts(1);
    const file = path.join(run, 'httpd.conf');
    const legacy = `${tls(run)}# the session cache\nSSLSessionCache shm:${run}/ssl_scache(262144)\nSSLSessionCacheTimeout 300\n`;
    const base = baseConfig(run, port, ['ssl']);
    fs.writeFileSync(file, base + legacy);
    const old = configtest(file);
    expect(old.ok).toBe(false); // negative control
    expect(old.output).toMatch(/'shm' session cache not supported/);
    await expect(startServerChecked(file, port, run)).rejects.toThrow(/'shm' session cache not supported/);

    // the rename alone; then the planner alone, which must find socache_shmcb in the argument by itself
    const renamed = transformText(base + legacy, [sslSessionCacheShm], {}, 'httpd.conf', 'main').output;
    expect(renamed).toContain(`SSLSessionCache shmcb:${run}/ssl_scache(262144)\n`);
    const planned = transformText(renamed, planner, { httpd: APACHE2 }, 'httpd.conf', 'main');
    expect(planned.output).toMatch(/^LoadModule socache_shmcb_module \/usr\/lib\/apache2\/modules\/mod_socache_shmcb\.so$/m);
    // and the registered pipeline order: the rename, then the planner
    const migrated = transformText(base + legacy, [sslSessionCacheShm, ...planner], { httpd: APACHE2 }, 'httpd.conf', 'main').output;
    expect(migrated).toBe(planned.output);

    fs.writeFileSync(file, migrated + 'LogLevel warn socache_shmcb:debug\n'); // to see the size of the cache
    expect(configtest(file).ok).toBe(true);
    const server = await startServerChecked(file, port, run);
    try {
      const sess = path.join(run, 'session.pem');
      const first = sClient(port, ['-tls1_2', '-no_ticket', '-sess_out', sess]);
      expect(first).toMatch(/^New, TLSv1\.2/m);
      const second = sClient(port, ['-tls1_2', '-no_ticket', '-sess_in', sess]);
      expect(second).toMatch(/^Reused, TLSv1\.2/m); // served from the shmcb session cache
    } finally {
      await server.stop();
    }
    const log = fs.readFileSync(path.join(run, 'error.log'), 'utf8');
    expect(log).toMatch(/AH00821: shmcb_init allocated 262144 bytes of shared memory/); // the size 2.2 was given
    expect(log).not.toMatch(/AH01873: Init: Session Cache is not configured/);
  });

  test('SSLProtocol: the 2.2 SSLv3 lines do not start; the migrated ones offer what remains', async () => {
    const run = setup('proto');
    const [port] = await freePorts(1);
    const file = path.join(run, 'httpd.conf');
    const serve = async (protocolLine: string, extra = '') => {
      fs.writeFileSync(file, baseConfig(run, port, ['ssl', 'socache_shmcb']) + tls(run) + `SSLSessionCache shmcb:${run}/scache(512000)\n` + extra + protocolLine + '\n');
      const server = await startServerChecked(file, port, run);
      try {
        const out: Record<string, string | null> = {};
        for (const v of ['tls1', 'tls1_1', 'tls1_2', 'tls1_3']) out[v] = negotiated(port, v);
        return out;
      } finally {
        await server.stop();
      }
    };
    const migrate = (line: string) => transformText(line + '\n', [sslDropSslv3], {}, 'x.conf', 'fragment');

    // 2.2: SSLv3 and TLSv1.2
    const legacy = 'SSLProtocol +SSLv3 +TLSv1.2';
    fs.writeFileSync(file, baseConfig(run, port, ['ssl', 'socache_shmcb']) + tls(run) + legacy + '\n');
    expect(configtest(file).output).toMatch(/SSLv3 not supported by this version of OpenSSL/); // negative control
    await expect(startServerChecked(file, port, run)).rejects.toThrow(/SSLv3 not supported/);
    const m1 = migrate(legacy);
    expect(m1.output).toBe('SSLProtocol +TLSv1.2\n');
    expect(m1.findings.map((f) => [f.code, f.severity])).toEqual([['sslv3-protocol-removed', 'review']]);
    expect(await serve(m1.output.trim())).toEqual({ tls1: null, tls1_1: null, tls1_2: 'TLSv1.2', tls1_3: null });

    // `all -SSLv3` is left: it offers what `all` offers
    expect(migrate('SSLProtocol all -SSLv3').output).toBe('SSLProtocol all -SSLv3\n');
    const all = await serve('SSLProtocol all');
    expect(await serve('SSLProtocol all -SSLv3')).toEqual(all);
    expect(all).toEqual({ tls1: null, tls1_1: null, tls1_2: 'TLSv1.2', tls1_3: 'TLSv1.3' }); // OpenSSL 3 refuses TLSv1.0/1.1 at level 1

    // 2.2 `SSLv3 TLSv1` meant TLSv1 only: what remains starts but serves nobody at the default security level …
    const m2 = migrate('SSLProtocol SSLv3 TLSv1');
    expect(m2.output).toBe('SSLProtocol TLSv1\n');
    expect(m2.findings.map((f) => [f.code, f.severity])).toEqual([['sslv3-protocol-removed', 'review']]);
    expect(m2.findings[0].message).toMatch(/serves no client/);
    expect(await serve('SSLProtocol TLSv1', 'LogLevel warn ssl:info\n')).toEqual({ tls1: null, tls1_1: null, tls1_2: null, tls1_3: null });
    expect(fs.readFileSync(path.join(run, 'error.log'), 'utf8')).toMatch(/no suitable signature algorithm/);
    // … and serves TLSv1 with the remedy the finding names
    expect(await serve('SSLProtocol TLSv1', 'SSLCipherSuite DEFAULT:@SECLEVEL=0\n')).toEqual({ tls1: 'TLSv1', tls1_1: null, tls1_2: null, tls1_3: null });
  });

  test('SSLProxyProtocol with SSLv3 is refused too, also in a <VirtualHost>', () => {
    const run = setup('proxyproto');
    const file = path.join(run, 'httpd.conf');
    const vhost = (line: string) => baseConfig(run, 8, ['ssl', 'socache_shmcb', 'proxy', 'proxy_http']) + `<VirtualHost 127.0.0.1:8>\n    SSLProxyEngine on\n    ${line}\n</VirtualHost>\n`;
    fs.writeFileSync(file, vhost('SSLProxyProtocol SSLv3 +TLSv1.2'));
    expect(configtest(file).output).toMatch(/SSLv3 not supported by this version of OpenSSL/);
    const migrated = transformText(vhost('SSLProxyProtocol SSLv3 +TLSv1.2'), [sslDropSslv3], {}, 'httpd.conf', 'main');
    expect(migrated.output).toContain('    SSLProxyProtocol +TLSv1.2\n');
    fs.writeFileSync(file, migrated.output);
    const r = configtest(file);
    expect(r.output).not.toMatch(WARNING);
    expect(r.ok).toBe(true);
  });

  async function dumpServer(name: string, body: (run: string, port: number) => string, transforms: readonly Transform[] | null) {
    const run = setup(name);
    const [port] = await freePorts(1);
    const file = path.join(run, 'httpd.conf');
    let text = baseConfig(run, port, ['dumpio']) + body(run, port);
    if (transforms) {
      const result = transformText(text, transforms, { httpd: APACHE2 }, 'httpd.conf', 'main');
      expect(result.errors).toEqual([]);
      text = result.output;
    }
    fs.writeFileSync(file, text);
    const t = configtest(file);
    expect(t.output).not.toMatch(WARNING);
    expect(t.ok).toBe(true);
    const server = await startServerChecked(file, port, run);
    try {
      expect(curl(port, 'X-Probe: marker-4711')).toBe('200');
    } finally {
      await server.stop();
    }
    const log = fs.readFileSync(path.join(run, 'error.log'), 'utf8');
    return { text, dumped: log.split('\n').filter((l) => l.includes('[dumpio:') && l.includes('marker-4711')).length, dumpioLines: log.split('\n').filter((l) => l.includes('[dumpio:')).length };
  }

  const docroot = (run: string) => [`DocumentRoot "${run}/htdocs"`, `<Directory "${run}/htdocs">`, '    Require all granted', '</Directory>', ''].join('\n');
  const pipeline = [dumpIoDefaultLevel, ...planner];

  test('DumpIO at the default level: the 2.2 lines log nothing on 2.4, the migrated ones dump the request', async () => {
    const body = (run: string) => `${docroot(run)}LogLevel debug\nDumpIOInput On\nDumpIOOutput On\n`;
    const before = await dumpServer('dump-old', body, null);
    expect(before.dumpioLines).toBe(0); // negative control: LogLevel debug no longer shows mod_dumpio
    const after = await dumpServer('dump-new', body, pipeline);
    expect(after.text).toContain('\nLogLevel debug dumpio:trace7\nDumpIOInput On\n');
    expect(after.dumped).toBeGreaterThan(0);
  });

  test('DumpIO in a <VirtualHost> that inherits LogLevel debug: a module-only LogLevel keeps the inherited level and dumps', async () => {
    const body = (run: string, port: number) => `LogLevel debug\n<VirtualHost 127.0.0.1:${port}>\n    ${docroot(run).replace(/\n(?!$)/g, '\n    ')}    DumpIOInput On\n</VirtualHost>\n`;
    const before = await dumpServer('dump-vhost-old', body, null);
    expect(before.dumpioLines).toBe(0);
    const after = await dumpServer('dump-vhost-new', body, pipeline);
    expect(after.text).toContain('    DumpIOInput On\n    LogLevel dumpio:trace7\n</VirtualHost>');
    expect(after.dumped).toBeGreaterThan(0);
  });

  test('DumpIO with LogLevel info: 2.2 printed nothing, the migrated server prints nothing', async () => {
    const body = (run: string) => `${docroot(run)}LogLevel info\nDumpIOInput On\n`;
    const after = await dumpServer('dump-info', body, pipeline);
    expect(after.text).not.toContain('dumpio:trace7');
    expect(after.dumpioLines).toBe(0);
  });
});
