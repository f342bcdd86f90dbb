/**
 * Whole-server tests on a real httpd 2.4: each example 2.2 tree (Apache's
 * upstream layout, Debian's /etc/apache2, RHEL/CentOS 6's /etc/httpd) is
 * copied, migrated in-process with --write, mapped into a run copy
 * (`support/whole-server.ts` lists every substitution), then:
 *   - `apache2 -t` passes and prints nothing but `Syntax OK` (no AH00548,
 *     AH00526, "deprecated"…); only the ServerName notice AH00558 is tolerated,
 *     which the 2.2 configs caused on 2.2 as well;
 *   - `-D DUMP_CONFIG` (mod_info) shows the intended 2.4 values;
 *   - the started server answers sample requests as the 2.2 config meant
 *     (allowed/denied paths from 127.0.0.1 and 127.0.0.2, Basic auth with good
 *     and bad credentials, rewrites), and a piped log that needed a shell still
 *     receives lines;
 *   - negative control: the unmigrated tree, mapped the same way, fails `-t`.
 * SSL (upstream: conf/extra/httpd-ssl.conf included; Debian: mods-enabled/ssl.*
 * and sites-enabled/default-ssl, with client certificates checked against a
 * CRL and a piped ErrorLog): DUMP_CONFIG shows `Mutex … ssl-cache` for
 * SSLMutex, SSLProtocol/SSLCipherSuite without SSLv2, SSLCARevocationCheck,
 * socache_shmcb loaded for `SSLSessionCache shmcb:`; the started server
 * answers HTTPS with the stubbed certificate, refuses a revoked client
 * certificate and accepts one whose CA publishes no CRL (as 2.2 did). Negative
 * controls undo one migrated change in the migrated tree and show that 2.4
 * then refuses the config, fails to start, or accepts the revoked client.
 */
import * as fs from 'fs';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { freePorts } from './support/httpd';
import {
  LAYOUTS,
  Layout,
  Migration,
  RunTree,
  configtestTree,
  copyTree,
  dumpConfig,
  httpd,
  httpsRequest,
  migrateInPlace,
  prepareRun,
  request,
  startTree,
  testPki,
  unexpectedOutput,
  waitForContent,
  workDir,
  writeRunFile,
} from './support/whole-server';

jest.setTimeout(120000);

interface Prepared {
  readonly work: string;
  readonly layout: Layout;
  /** The migrated tree (before the run substitutions). */
  readonly migrated: string;
  readonly migration: Migration;
  readonly run: RunTree;
  readonly original: RunTree;
}

async function prepare(layout: Layout): Promise<Prepared> {
  const work = workDir(`codemod-whole-${layout.name}-`);
  try {
    const migrated = path.join(work, 'migrated');
    copyTree(layout.source, migrated);
    const migration = await migrateInPlace(migrated);
    const [http, https, http2, https2] = await freePorts(4);
    const run = prepareRun(migrated, layout, path.join(work, 'run'), { ports: { http, https } });
    const original = prepareRun(layout.source, layout, path.join(work, 'original'), { ports: { http: http2, https: https2 } });
    return { work, layout, migrated, migration, run, original };
  } catch (e) {
    fs.rmSync(work, { recursive: true, force: true });
    throw e;
  }
}

/** Replaces `from` (which must occur exactly once) by `to` in a file of a tree. */
function editOnce(tree: string, rel: string, from: string | RegExp, to: string): void {
  const file = path.join(tree, rel);
  const text = fs.readFileSync(file, 'latin1');
  const count = typeof from === 'string' ? text.split(from).length - 1 : (text.match(new RegExp(from.source, from.flags.includes('g') ? from.flags : from.flags + 'g')) ?? []).length;
  if (count !== 1) throw new Error(`${rel}: expected one ${String(from)}, found ${count}`);
  fs.writeFileSync(file, Buffer.from(text.replace(from, to), 'latin1'));
}

/**
 * Negative control for one migrated change: a copy of the migrated tree with that change undone
 * (`undo` edits the copy), mapped into its own run copy.
 */
async function undoOne(p: Prepared, name: string, undo: (tree: string) => void): Promise<RunTree> {
  const tree = path.join(p.work, `undo-${name}`);
  copyTree(p.migrated, tree);
  undo(tree);
  const [http, https] = await freePorts(2);
  return prepareRun(tree, p.layout, path.join(p.work, `undo-${name}-run`), { ports: { http, https } });
}

/** Every file under `dir` whose name matches, with its text. */
function filesMatching(dir: string, re: RegExp): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && re.test(e.name)) out.push({ file: p, text: fs.readFileSync(p, 'latin1') });
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return out;
}

/** Waits until some file under `dir` whose name matches `name` holds `re`; returns the texts seen. */
async function waitForLog(dir: string, name: RegExp, re: RegExp, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = filesMatching(dir, name).map((f) => f.text).join('');
    if (re.test(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  return text;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function describeLayout(layout: Layout, body: (get: () => Prepared) => void): void {
  describe(`${layout.name} layout (${path.relative(path.join(__dirname, '..'), layout.source)})`, () => {
    let prepared: Prepared | null = null;
    beforeAll(async () => {
      prepared = await prepare(layout);
    });
    afterAll(() => {
      if (prepared) fs.rmSync(prepared.work, { recursive: true, force: true });
    });
    const get = () => {
      if (!prepared) throw new Error('setup failed');
      return prepared;
    };

    test('the migration writes without errors', () => {
      const { migration } = get();
      expect(migration.errors).toEqual([]);
      expect(migration.changed.length).toBeGreaterThan(0);
    });

    test('apache2 -t passes with no warnings on the migrated tree', () => {
      const result = configtestTree(get().run);
      expect(unexpectedOutput(result)).toEqual([]);
      expect(result.ok).toBe(true);
    });

    body(get);
  });
}

const HTML = (title: string) => `<html><body>${title}</body></html>\n`;
/** A CGI that prints the client certificate's subject and issuer DN as mod_ssl exports them. */
const DN_CGI = '#!/bin/sh\necho "Content-Type: text/plain"\necho\necho "SSL_CLIENT_S_DN=$SSL_CLIENT_S_DN"\necho "SSL_CLIENT_I_DN=$SSL_CLIENT_I_DN"\n';

/** Files the process `pid` holds open (`/proc/<pid>/fd`); lock files are unlinked once opened, so they show as `… (deleted)`. */
function openFiles(pid: number): string[] {
  const dir = `/proc/${pid}/fd`;
  const out: string[] = [];
  for (const fd of fs.readdirSync(dir)) {
    try {
      out.push(fs.readlinkSync(path.join(dir, fd)));
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

/** `apache2 -M`: the modules the run copy loads. */
function loadedModules(run: RunTree): string[] {
  const r = httpd(run, ['-M']);
  if (!r.ok) throw new Error(`apache2 -M failed: ${r.stderr}`);
  return [...r.stdout.matchAll(/^\s*(\w+_module) \((?:static|shared)\)$/gm)].map((m) => m[1]);
}

/**
 * mod_ssl warnings and errors of an error log, without this machine's noise: AH01882 (mod_ssl built
 * against a newer OpenSSL than the one loaded) and AH01909 (the throw-away certificate is for
 * localhost, not for the vhost's ServerName).
 */
function sslComplaints(log: string): string[] {
  return log.split('\n').filter((l) => /\[ssl:(warn|error|crit|alert|emerg)\]/.test(l) && !/AH01882|AH01909/.test(l));
}

function pidOf(file: string): number {
  return Number(fs.readFileSync(file, 'latin1').trim());
}

describeLayout(LAYOUTS.upstream, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    // 2.2's mod_authn_default is gone in 2.4 (the first LoadModule httpd cannot do)
    expect(result.stderr).toMatch(/Cannot load .*mod_authn_default\.so/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, a Mutex for LockFile, a loaded MPM', () => {
    const dump = dumpConfig(get().run);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+150\s*$/m);
    expect(dump).not.toMatch(/^\s*MaxClients\b/m);
    expect(dump).toMatch(/^\s*MaxConnectionsPerChild\s+0\s*$/m);
    // LockFile "logs/accept.lock": the lock directory becomes a Mutex path (a directory, not a file)
    expect(dump).toMatch(/^\s*Mutex\s+(default|file|fcntl|flock):\S*logs\/?(\s|$)/m);
    expect(dump).not.toMatch(/^\s*(LockFile|DefaultType|NameVirtualHost)\b/m);
    expect(dump).toMatch(/^\s*CustomLog\s+"\|\$\s*cat >> \S+\/report_log"/m);
  });

  test('the server answers as 2.2 meant, and the shell-piped log receives lines', async () => {
    const { run } = get();
    // httpd-vhosts.conf is switched on: its first vhost (dummy-host) answers every request, and its
    // DocumentRoot lies under <Directory /> (Deny from all); /cgi-bin/ (Allow from all) is shared.
    writeRunFile(run, '/usr/local/apache2/docs/dummy-host.example.com/index.html', HTML('dummy host'));
    writeRunFile(run, '/usr/local/apache2/cgi-bin/hello', '#!/bin/sh\necho "Content-Type: text/plain"\necho\necho "hello from cgi"\n', 0o755);
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const cgi = await request(port, '/cgi-bin/hello');
      expect(cgi.status).toBe(200);
      expect(cgi.body).toContain('hello from cgi');
      expect((await request(port, '/cgi-bin/hello', { from: '127.0.0.2' })).status).toBe(200);
      // <Directory /> Order deny,allow + Deny from all covers the vhost's DocumentRoot
      expect((await request(port, '/', { host: 'dummy-host.example.com' })).status).toBe(403);
      // /server-status: Allow from .example.com only (127.0.0.x resolves to localhost)
      expect((await request(port, '/server-status')).status).toBe(403);
      expect((await request(port, '/server-status', { from: '127.0.0.2' })).status).toBe(403);

      await request(port, '/cgi-bin/hello?piped-log-probe');
      const piped = await waitForContent(run.map('/usr/local/apache2/logs/report_log'), /piped-log-probe/);
      expect(piped).toMatch(/^127\.0\.0\.1 .*"GET \/cgi-bin\/hello\?piped-log-probe HTTP\/1\.1" 200 /m);
    } finally {
      await server.stop();
    }
  });

  test('SSL: DUMP_CONFIG shows Mutex ssl-cache, SSLProtocol without SSLv2, SSLCARevocationCheck, socache_shmcb loaded', () => {
    const { run, migration } = get();
    const dump = dumpConfig(run);
    // SSLMutex "file:/usr/local/apache2/logs/ssl_mutex": the lock file's directory
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+"?file:${esc(run.map('/usr/local/apache2/logs'))}"?\\s+ssl-cache\\s*$`, 'm'));
    expect(loadedModules(run)).toEqual(expect.arrayContaining(['ssl_module', 'socache_shmcb_module']));
    expect(dump).toMatch(/^\s*SSLSessionCache\s+"shmcb:\S+\/logs\/ssl_scache\(512000\)"\s*$/m);
    expect(dump).toMatch(/^\s*SSLProtocol\s+all\s+-SSLv3\s*$/m);
    expect(dump).toMatch(/^\s*SSLProxyProtocol\s+all\s+-SSLv3\s*$/m);
    expect(dump).toMatch(/^\s*SSLCARevocationPath\s+"\S+\/conf\/ssl\.crl"\s*$/m);
    expect(dump).toMatch(/^\s*SSLCARevocationCheck\s+chain\s+no_crl_for_cert_ok\s*$/m);
    expect(dump).not.toMatch(/^\s*SSLMutex\b/m);
    expect(dump).not.toMatch(/SSLv2/i);
    const ssl = migration.findings.filter((f) => f.file.endsWith('httpd-ssl.conf')).map((f) => `${f.code}:${f.line}`);
    expect(ssl).toEqual(expect.arrayContaining(['sslv2-protocol-removed:86', 'sslv2-protocol-removed:87', 'mutex-replaced:105', 'revocation-check-added:174']));
    expect(migration.findings.some((f) => f.code === 'module-loaded' && /socache_shmcb/.test(f.message))).toBe(true);
  });

  test('SSL: the started server answers HTTPS on the SSL vhost with the migrated httpd-ssl.conf', async () => {
    const { run } = get();
    writeRunFile(run, '/usr/local/apache2/htdocs/index.html', HTML('upstream ssl index'));
    const server = await startTree(run);
    try {
      const answer = await httpsRequest(run.ports.https, '/');
      expect(answer.error).toBe('');
      expect(answer.status).toBe(200);
      expect(answer.body).toContain('upstream ssl index');
      expect(answer.serverCN).toBe('localhost');
      expect(answer.protocol).toMatch(/^TLSv1\.[23]$/);
      // plain HTTP still goes to the name-based vhosts (dummy-host's DocumentRoot lies under <Directory /> Deny from all)
      expect((await request(run.ports.http, '/', { host: 'dummy-host.example.com' })).status).toBe(403);
      // the SSL vhost's CustomLog (a continuation line) records protocol and cipher
      const log = await waitForContent(run.map('/usr/local/apache2/logs/ssl_request_log'), /"GET \/ HTTP\/1\.1"/);
      expect(log).toMatch(new RegExp(`127\\.0\\.0\\.1 ${esc(answer.protocol)} \\S+ "GET / HTTP/1\\.1" \\d+`));
      // the ssl-cache mutex's lock file sits in the directory SSLMutex named (unlinked once opened)
      const files = openFiles(pidOf(run.map('/usr/local/apache2/logs/httpd.pid')));
      expect(files.some((f) => f.startsWith(`${run.map('/usr/local/apache2/logs')}/ssl-cache`))).toBe(true);
      // mod_ssl is content: no AH01902 "CRL checking (SSLCARevocationCheck) is not enabled" and the like
      expect(sslComplaints(filesMatching(run.map('/usr/local/apache2/logs'), /error/).map((f) => f.text).join(''))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test('SSL negative controls: SSLMutex put back, or the socache_shmcb LoadModule left out, and 2.4 refuses the migrated tree', async () => {
    const p = get();
    const mutex = await undoOne(p, 'ssl-mutex', (t) =>
      editOnce(t, 'conf/extra/httpd-ssl.conf', /^Mutex file:\/usr\/local\/apache2\/logs ssl-cache$/m, 'SSLMutex  "file:/usr/local/apache2/logs/ssl_mutex"'),
    );
    const withMutex = configtestTree(mutex);
    expect(withMutex.ok).toBe(false);
    expect(withMutex.stderr).toMatch(/Invalid command 'SSLMutex'/);
    const shmcb = await undoOne(p, 'socache', (t) => editOnce(t, 'conf/httpd.conf', /^<IfModule !socache_shmcb_module>\r?\n[^\n]*\r?\n<\/IfModule>\r?\n/m, ''));
    const withoutShmcb = configtestTree(shmcb);
    expect(withoutShmcb.ok).toBe(false);
    expect(withoutShmcb.stderr).toMatch(/SSLSessionCache: 'shmcb' session cache not supported/);
  });
});

describeLayout(LAYOUTS.debian, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/LockFile|mod_authz_default\.so|mod_disk_cache\.so|No MPM loaded/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, Mutex, rewrite:trace2, CacheRoot inside the renamed IfModule', () => {
    const { run } = get();
    const dump = dumpConfig(run);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+150\s*$/m);
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+(default|file|fcntl|flock):${run.map('/var/lock/apache2')}/?(\\s|$)`, 'm'));
    expect(dump).toMatch(/^\s*LogLevel\b.*\brewrite:trace2\b/m);
    // disk_cache.conf's <IfModule mod_disk_cache.c> is false on 2.4 unless renamed to mod_cache_disk.c
    expect(dump).toMatch(new RegExp(`^\\s*CacheRoot\\s+${run.map('/var/cache/apache2/mod_disk_cache')}\\s*$`, 'm'));
    expect(dump).toMatch(/^\s*CacheDirLevels\s+2\s*$/m);
    expect(dump).not.toMatch(/^\s*(LockFile|RewriteLog|RewriteLogLevel|NameVirtualHost)\b/m);
  });

  test('the server answers as 2.2 meant: status from 127.0.0.1 only, rewrites logged at trace2', async () => {
    const { run } = get();
    writeRunFile(run, '/var/www/index.html', HTML('debian index'));
    writeRunFile(run, '/var/www/.htsecret', 'secret\n');
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const index = await request(port, '/');
      expect(index.status).toBe(200);
      expect(index.body).toContain('debian index');
      expect((await request(port, '/.htsecret')).status).toBe(403);
      // status.conf: Deny from all, Allow from 127.0.0.1 ::1
      expect((await request(port, '/server-status?auto')).status).toBe(200);
      expect((await request(port, '/server-status?auto', { from: '127.0.0.2' })).status).toBe(403);
      // RewriteRule ^/old/(.*)$ /$1 [R=301,L]
      const moved = await request(port, '/old/index.html');
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toMatch(/\/index\.html$/);
      const log = await waitForContent(run.map('/var/log/apache2/error.log'), /\[rewrite:trace2\]/);
      expect(log).toMatch(/\[rewrite:trace2\].*\/old\/index\.html/);
    } finally {
      await server.stop();
    }
  });

  test('SSL: DUMP_CONFIG shows Mutex ssl-cache, SSLProtocol all, the cipher suite without !SSLv2, SSLCARevocationCheck, the |$ piped ErrorLog', () => {
    const { run, migration } = get();
    const dump = dumpConfig(run);
    // SSLMutex file:${APACHE_RUN_DIR}/ssl_mutex
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+file:${esc(run.map('/var/run/apache2'))}\\s+ssl-cache\\s*$`, 'm'));
    expect(loadedModules(run)).toEqual(expect.arrayContaining(['ssl_module', 'socache_shmcb_module']));
    expect(dump).toMatch(/^\s*SSLSessionCache\s+shmcb:\S+\/ssl_scache\(512000\)\s*$/m);
    expect(dump).toMatch(/^\s*SSLProtocol\s+all\s*$/m);
    expect(dump).toMatch(/^\s*SSLCipherSuite\s+HIGH:MEDIUM:!aNULL:!MD5\s*$/m);
    expect(dump).toMatch(/^\s*SSLCipherSuite\s+ALL:!ADH:!EXPORT:RC4\+RSA:\+HIGH:\+MEDIUM:\+LOW\s*$/m);
    expect(dump).toMatch(/^\s*SSLCARevocationFile\s+\S+\/ssl\.crl\/ca-bundle\.crl\s*$/m);
    expect(dump).toMatch(/^\s*SSLCARevocationCheck\s+chain\s+no_crl_for_cert_ok\s*$/m);
    expect(dump).toMatch(/^\s*ErrorLog\s+"\|\$rotatelogs \S+\/ssl_error\.log\.%Y-%m-%d 86400"\s*$/m);
    expect(dump).not.toMatch(/^\s*SSLMutex\b/m);
    expect(dump).not.toMatch(/SSLv2/i);
    const codes = migration.findings.filter((f) => /ssl/.test(f.file)).map((f) => f.code);
    expect(codes).toEqual(
      expect.arrayContaining(['mutex-replaced', 'sslv2-protocol-removed', 'sslv2-ciphers-removed', 'revocation-check-added', 'piped-log-shell']),
    );
    // the SSLv2 words selected nothing: OpenSSL gives the same cipher list without them
    const ciphers = (spec: string) => spawnSync('openssl', ['ciphers', spec], { encoding: 'latin1' }).stdout;
    expect(ciphers('ALL:!ADH:!EXPORT:RC4+RSA:+HIGH:+MEDIUM:+LOW')).toBe(ciphers('ALL:!ADH:!EXPORT:!SSLv2:RC4+RSA:+HIGH:+MEDIUM:+LOW'));
  });

  test('SSL: default-ssl checks client certificates against the CRL as 2.2 did, and logs through the |$ piped ErrorLog', async () => {
    const { run } = get();
    const { clients } = testPki();
    writeRunFile(run, '/var/www/index.html', HTML('debian index'));
    writeRunFile(run, '/var/www/.htsecret', 'secret\n');
    writeRunFile(run, '/usr/lib/cgi-bin/dn', DN_CGI, 0o755);
    const server = await startTree(run);
    try {
      const port = run.ports.https;
      const good = await httpsRequest(port, '/', { client: clients.good });
      expect(good.error).toBe('');
      expect(good.status).toBe(200);
      expect(good.body).toContain('debian index');
      expect(good.serverCN).toBe('localhost');
      expect(good.protocol).toMatch(/^TLSv1\.[23]$/);
      // 2.2 checked a CRL only where it had one: a client of a CA without a CRL is still accepted
      expect((await httpsRequest(port, '/', { client: clients.nocrl })).status).toBe(200);
      // the CRL is in force: the revoked client is refused (2.4 would ignore the CRL without SSLCARevocationCheck)
      expect((await httpsRequest(port, '/', { client: clients.revoked })).status).toBe('tls-error');
      // SSLVerifyClient require
      expect((await httpsRequest(port, '/')).status).toBe('tls-error');
      expect((await httpsRequest(port, '/.htsecret', { client: clients.good })).status).toBe(403);
      // SSLOptions +StdEnvVars +LegacyDNStringFormat: CGIs still see 2.2's DN format
      const dn = await httpsRequest(port, '/cgi-bin/dn', { client: clients.good });
      expect(dn.status).toBe(200);
      expect(dn.body).toContain('SSL_CLIENT_S_DN=/CN=client-good\n');
      expect(dn.body).toContain('SSL_CLIENT_I_DN=/CN=test-ca\n');
      // the vhost's ErrorLog "|$rotatelogs …": rotatelogs (found through PATH by /bin/sh) writes the lines
      const log = await waitForLog(run.map('/var/log/apache2'), /^ssl_error\.log\.\d{4}-\d\d-\d\d$/, /^(?=[\s\S]*AH01630)(?=[\s\S]*AH02039)/);
      expect(log).toMatch(/AH02039: Certificate Verification: Error \(23\): certificate revoked/);
      expect(log).toMatch(/AH01630: client denied by server configuration: \S*\/var\/www\/\.htsecret/);
      // the ssl-cache mutex's lock file sits in ${APACHE_RUN_DIR} (unlinked once opened)
      const files = openFiles(pidOf(run.env.APACHE_PID_FILE as string));
      expect(files.some((f) => f.startsWith(`${run.map('/var/run/apache2')}/ssl-cache`))).toBe(true);
      // mod_ssl is content: no AH01902 "CRL checking (SSLCARevocationCheck) is not enabled" (see the negative control)
      const errors = filesMatching(run.map('/var/log/apache2'), /error/).map((f) => f.text).join('');
      expect(sslComplaints(errors).filter((l) => !/AH02039/.test(l))).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  test('SSL negative controls: without SSLCARevocationCheck 2.4 lets the revoked client in, without LegacyDNStringFormat CGIs get RFC 2253 DNs, without |$ the piped ErrorLog stops 2.4 at startup', async () => {
    const p = get();
    const { clients } = testPki();
    // two independent changes undone in one tree (one server start)
    const undone = await undoOne(p, 'revocation-check-dn-format', (t) => {
      editOnce(t, 'sites-available/default-ssl', /^\tSSLCARevocationCheck chain no_crl_for_cert_ok\r?\n/m, '');
      const file = path.join(t, 'sites-available/default-ssl');
      fs.writeFileSync(file, fs.readFileSync(file, 'latin1').split(' +LegacyDNStringFormat').join(''), 'latin1');
    });
    writeRunFile(undone, '/var/www/index.html', HTML('debian index'));
    writeRunFile(undone, '/usr/lib/cgi-bin/dn', DN_CGI, 0o755);
    const server = await startTree(undone);
    try {
      expect((await httpsRequest(undone.ports.https, '/', { client: clients.revoked })).status).toBe(200);
      const logs = await waitForLog(undone.map('/var/log/apache2'), /error\.log/, /AH01902/);
      expect(logs).toMatch(/AH01902: .*CRL checking \(SSLCARevocationCheck\) is not enabled/);
      const dn = await httpsRequest(undone.ports.https, '/cgi-bin/dn', { client: clients.good });
      expect(dn.status).toBe(200);
      expect(dn.body).toContain('SSL_CLIENT_S_DN=CN=client-good\n');
    } finally {
      await server.stop();
    }

    const noShell = await undoOne(p, 'piped-shell', (t) => editOnce(t, 'sites-available/default-ssl', '"|$rotatelogs ', '"|rotatelogs '));
    expect(configtestTree(noShell).ok).toBe(true); // -t does not run the pipe
    await expect(startTree(noShell)).rejects.toThrow(/AH00089: Couldn't start ErrorLog process 'rotatelogs [^']*ssl_error\.log\.%Y-%m-%d 86400'[\s\S]*AH00015: Unable to open logs/);
  });
});

describeLayout(LAYOUTS.rhel, (get) => {
  test('negative control: the unmigrated tree fails apache2 -t', () => {
    const result = configtestTree(get().original);
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/Cannot load .*mod_authn_alias\.so/);
  });

  test('DUMP_CONFIG shows MaxRequestWorkers, the accept Mutex, rewrite:trace3', () => {
    const { run } = get();
    const dump = dumpConfig(run);
    expect(dump).toMatch(/^\s*ServerLimit\s+256\s*$/m);
    expect(dump).toMatch(/^\s*MaxRequestWorkers\s+256\s*$/m);
    expect(dump).toMatch(/^\s*MaxConnectionsPerChild\s+4000\s*$/m);
    // AcceptMutex fcntl + LockFile /var/run/httpd/accept.lock
    expect(dump).toMatch(new RegExp(`^\\s*Mutex\\s+fcntl:${run.map('/var/run/httpd')}/?\\s+(mpm-accept|default)\\s*$`, 'm'));
    expect(dump).toMatch(/^\s*LogLevel\b.*\brewrite:trace3\b/m);
    expect(dump).not.toMatch(/^\s*(AcceptMutex|LockFile|RewriteLog|RewriteLogLevel|NameVirtualHost|DefaultType)\b/m);
  });

  test('the server answers as 2.2 meant: vhosts, office network or login, both for the reports', async () => {
    const { run } = get();
    writeRunFile(run, '/var/www/html/index.html', HTML('rhel main index'));
    writeRunFile(run, '/var/www/intranet/index.html', HTML('intranet index'));
    writeRunFile(run, '/var/www/intranet/reports/index.html', HTML('reports index'));
    const server = await startTree(run);
    try {
      const port = run.ports.http;
      const www = await request(port, '/', { host: 'www.example.com' });
      expect(www.status).toBe(200);
      expect(www.body).toContain('rhel main index');
      expect((await request(port, '/favicon.ico', { host: 'www.example.com' })).status).toBe(404);
      // the status board (AuthMerging And): a login, joined with the document root's and <Files ~ "^\.ht">'s rules
      writeRunFile(run, '/var/www/html/board/index.html', HTML('board'));
      writeRunFile(run, '/var/www/html/board/.htnotes', 'private\n');
      expect((await request(port, '/board/', { host: 'www.example.com' })).status).toBe(401);
      expect((await request(port, '/board/', { host: 'www.example.com', user: 'alice', password: 'wonderland' })).status).toBe(200);
      expect((await request(port, '/board/.htnotes', { host: 'www.example.com', user: 'alice', password: 'wonderland' })).status).toBe(403);

      const intranet = 'intranet.example.com';
      const office = await request(port, '/', { host: intranet });
      expect(office.status).toBe(200);
      expect(office.body).toContain('intranet index');
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2' })).status).toBe(401);
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2', user: 'alice', password: 'wonderland' })).status).toBe(200);
      expect((await request(port, '/', { host: intranet, from: '127.0.0.2', user: 'alice', password: 'wrong' })).status).toBe(401);
      // reports: Satisfy All — office network AND a valid user
      expect((await request(port, '/reports/', { host: intranet })).status).toBe(401);
      expect((await request(port, '/reports/', { host: intranet, user: 'bob', password: 'builder' })).status).toBe(200);
      expect((await request(port, '/reports/', { host: intranet, from: '127.0.0.2', user: 'bob', password: 'builder' })).status).toBe(403);
      const moved = await request(port, '/wiki/Printers', { host: intranet, user: 'bob', password: 'builder' });
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toMatch(/\/kb\/Printers$/);
      const log = await waitForContent(path.join(run.root, 'logs', 'intranet-error_log'), /\[rewrite:trace3\]/);
      expect(log).toMatch(/\[rewrite:trace3\]/);
    } finally {
      await server.stop();
    }
  });
});
