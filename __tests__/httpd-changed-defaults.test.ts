/**
 * Real httpd 2.4 checks for the changed-semantics transforms and pin-changed-defaults: each 2.2
 * snippet is migrated by the transform itself, served by a started apache2 on 127.0.0.1, and
 * compared with the unmigrated snippet (negative control: the 2.2 meaning is lost without the
 * migration).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import * as path from 'path';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { RunOptions } from '../src/model/run-options';
import { APACHE2, RunningServer, baseConfig, configtest, freePorts, startServerChecked, tempDir } from './support/httpd';

jest.setTimeout(60000);

function migrate(id: string, text: string, role: 'main' | 'fragment' = 'fragment', options: RunOptions = {}): string {
  const t = TRANSFORMS.filter((x) => x.id === id);
  const r = transformText(text, t, options, 'snippet.conf', role);
  expect(r.errors).toEqual([]);
  return r.output;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, urlPath: string, options: http.RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, ...options }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A server dir readable by www-data, with a document root. */
function serverDir(): { dir: string; docs: string } {
  const dir = tempDir('codemod-defaults-');
  made.push(dir);
  fs.chmodSync(dir, 0o755);
  const docs = path.join(dir, 'docs');
  fs.mkdirSync(docs);
  return { dir, docs };
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** Starts a server in its own directory below `dir` (pid file, error.log), returns it. */
async function serve(dir: string, port: number, modules: string[], body: string): Promise<RunningServer> {
  const own = path.join(dir, `server-${port}`);
  fs.mkdirSync(own);
  fs.chmodSync(own, 0o755);
  const file = path.join(own, 'httpd.conf');
  const types = modules.includes('mime') ? 'TypesConfig /etc/mime.types\n' : '';
  fs.writeFileSync(file, baseConfig(own, port, modules) + types + body);
  const t = configtest(file);
  expect(t.output).not.toMatch(/AH00526|Syntax error|\[\w+:warn\]/);
  const s = await startServerChecked(file, port, own);
  running.push(s);
  return s;
}

describe('pin-changed-defaults', () => {
  const main22 = 'ServerName 127.0.0.1\n';

  test('without pinning, 2.4 defaults apply (negative control); pinned, 2.2 behaviour comes back', async () => {
    const pinned = migrate('pin-changed-defaults', main22, 'main', { pinDefaults: true });
    expect(pinned).toContain('FileETag INode MTime Size');
    expect(migrate('pin-changed-defaults', pinned, 'main', { pinDefaults: true })).toBe(pinned);
    const { dir, docs } = serverDir();
    write(path.join(docs, 'e.txt'), 'hello\n');
    fs.mkdirSync(path.join(docs, 'noindex'));
    fs.chmodSync(docs, 0o755);
    const st = fs.statSync(path.join(docs, 'e.txt'));
    const [p1, p2] = await freePorts(2);
    const common = `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\n`;
    await serve(dir, p1, ['autoindex', 'dir'], common);
    await serve(dir, p2, ['autoindex', 'dir'], common + pinned.replace(/^ServerName.*\n/, ''));
    const inode = st.ino.toString(16);
    // FileETag: 2.4 default has no inode, pinned has it
    const e1 = await get(p1, '/e.txt');
    const e2 = await get(p2, '/e.txt');
    expect(e1.headers.etag).not.toContain(inode);
    expect(e2.headers.etag).toMatch(new RegExp(`^(W/)?"${inode}-6-`));
    // Options: 2.4 default forbids listings, pinned `Options All` lists
    expect((await get(p1, '/noindex/')).status).toBe(403);
    expect((await get(p2, '/noindex/')).status).toBe(200);
    // LimitRequestBody: 2.4 refuses a 2 GB body up front, pinned 0 waits for it
    const big = (port: number) =>
      new Promise<string>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => s.write('POST /e.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000000\r\n\r\nabc'));
        let got = '';
        s.on('data', (d) => {
          got += d.toString('latin1');
          if (got.includes('\r\n')) {
            s.destroy();
            resolve(got.split('\r\n')[0]);
          }
        });
        setTimeout(() => {
          s.destroy();
          resolve('no answer');
        }, 1500);
      });
    expect(await big(p1)).toMatch(/ 413 /);
    expect(await big(p2)).toBe('no answer');
  });

  const strace = ['/usr/bin/strace', '/bin/strace'].find((p) => fs.existsSync(p));
  (strace ? test : test.skip)('EnableSendfile: 2.4 default sends no sendfile(), pinned On does', async () => {
    const pinned = migrate('pin-changed-defaults', main22, 'main', { pinDefaults: true });
    const { dir, docs } = serverDir();
    write(path.join(docs, 'b.bin'), 'x'.repeat(200000));
    const [p1, p2] = await freePorts(2);
    const common = `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\n`;
    const count = async (port: number, body: string) => {
      // one process serves everything (-X), traced from its start
      const file = path.join(dir, `sf-${port}.conf`);
      fs.writeFileSync(file, baseConfig(dir, port, []) + body);
      const log = path.join(dir, `strace-${port}.log`);
      const child = require('child_process').spawn(strace!, ['-f', '-e', 'trace=sendfile', '-o', log, APACHE2, '-f', file, '-X'], {
        detached: true,
        stdio: 'ignore',
      });
      try {
        for (let i = 0; i < 100; i++) {
          try {
            await get(port, '/b.bin');
            break;
          } catch {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await get(port, '/b.bin');
      } finally {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* gone */
        }
        await new Promise((r) => child.on('exit', r));
      }
      return (fs.readFileSync(log, 'utf8').match(/sendfile\(/g) ?? []).length;
    };
    expect(await count(p1, common)).toBe(0);
    expect(await count(p2, common + pinned.replace(/^ServerName.*\n/, ''))).toBeGreaterThan(0);
  });

  test('Timeout and RequestReadTimeout pins pass apache2 -t; DUMP_CONFIG shows them', () => {
    const { dir } = serverDir();
    const text = migrate(
      'pin-changed-defaults',
      'LoadModule reqtimeout_module /usr/lib/apache2/modules/mod_reqtimeout.so\nServerName 127.0.0.1\n',
      'main',
      { pinDefaults: true },
    );
    const file = path.join(dir, 't.conf');
    fs.writeFileSync(file, baseConfig(dir, 1, ['info']) + text);
    const r = spawnSync(APACHE2, ['-t', '-f', file, '-D', 'DUMP_CONFIG'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/Timeout 300/);
    expect(out).toMatch(/RequestReadTimeout header=0 body=0/);
    expect(out).not.toMatch(/warn/);
  });
});

describe('ssi-legacy-expr-parser', () => {
  test('2.2 #if expr pages fail on 2.4 without it (negative control) and work with the migrated config', async () => {
    const { dir, docs } = serverDir();
    for (const sub of ['old', 'new']) {
      write(path.join(docs, sub, 't.shtml'), '<!--#set var="a" value="x" -->A:<!--#if expr="$a = x" -->YES<!--#else -->NO<!--#endif -->\n');
    }
    const snippet = (sub: string) => `<Directory "${docs}/${sub}">\n    Options +Includes\n    AddOutputFilter INCLUDES .shtml\n</Directory>\n`;
    const migrated = migrate('ssi-legacy-expr-parser', snippet('new'));
    expect(migrated).toContain('SSILegacyExprParser on');
    const [port] = await freePorts(1);
    await serve(dir, port, ['mime', 'include'], `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\n${snippet('old')}${migrated}`);
    expect((await get(port, '/old/t.shtml')).body).toContain('[an error occurred while processing this directive]');
    expect((await get(port, '/new/t.shtml')).body).toBe('A:YES\n');
  });
});

describe('directory-match-subdirectories', () => {
  test('2.4.71 matches DirectoryMatch against the full path: no `$` → subdirectories too; `$` → only where the path ends', async () => {
    const { dir, docs } = serverDir();
    write(path.join(docs, 'private', 'f.txt'), 'f\n');
    write(path.join(docs, 'private', 'sub', 'f.txt'), 'f\n');
    const conf =
      `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\n` +
      `<DirectoryMatch "^${docs}/private">\n    Header always set X-Prefix yes\n</DirectoryMatch>\n` +
      `<DirectoryMatch "^${docs}/private/$">\n    Header always set X-Dollar yes\n</DirectoryMatch>\n`;
    const findings = transformText(conf, TRANSFORMS.filter((t) => t.id === 'directory-match-subdirectories'), {}, 'x.conf', 'fragment').findings;
    expect(findings.map((f) => [f.code, f.line])).toEqual([['directory-match-end-anchor', 8]]);
    const [port] = await freePorts(1);
    await serve(dir, port, ['headers', 'dir', 'autoindex'], conf);
    const file = await get(port, '/private/f.txt');
    const deep = await get(port, '/private/sub/f.txt');
    const dirItself = await get(port, '/private/');
    expect([file.headers['x-prefix'], deep.headers['x-prefix']]).toEqual(['yes', 'yes']);
    // the `$` section applies on 2.4 (so it is no longer dead as in 2.2), but only to the directory itself
    expect(dirItself.headers['x-dollar']).toBe('yes');
    expect(file.headers['x-dollar']).toBeUndefined();
    expect(deep.headers['x-dollar']).toBeUndefined();
  });
});

describe('proxy-scgi-pathinfo', () => {
  test('an SCGI backend gets PATH_INFO only with the migrated config', async () => {
    const [port, backendPort] = await freePorts(2);
    const backend = net.createServer((sock) => {
      let buf = Buffer.alloc(0);
      sock.on('data', (d) => {
        buf = Buffer.concat([buf, d]);
        const colon = buf.indexOf(':');
        if (colon < 0) return;
        const len = Number(buf.subarray(0, colon).toString());
        if (buf.length < colon + 1 + len + 1) return;
        const fields = buf.subarray(colon + 1, colon + 1 + len).toString('latin1').split('\0');
        const env = new Map<string, string>();
        for (let i = 0; i + 1 < fields.length; i += 2) env.set(fields[i], fields[i + 1]);
        sock.end(`Status: 200 OK\r\nContent-Type: text/plain\r\n\r\nPATH_INFO=${env.has('PATH_INFO') ? env.get('PATH_INFO') : '(unset)'}`);
      });
    });
    await new Promise<void>((r) => backend.listen(backendPort, '127.0.0.1', () => r()));
    try {
      const { dir } = serverDir();
      const snippet = (p: string) => `<Location /${p}>\n    ProxyPass scgi://127.0.0.1:${backendPort}/${p}\n</Location>\n`;
      const migrated = migrate('proxy-scgi-pathinfo', snippet('new'));
      expect(migrated).toContain('proxy-scgi-pathinfo');
      const top = migrate('proxy-scgi-pathinfo', `ProxyPass /top/ scgi://127.0.0.1:${backendPort}/top/\n`);
      const [port2] = await freePorts(1);
      await serve(dir, port, ['proxy', 'proxy_scgi', 'setenvif'], snippet('old') + migrated);
      // a server-level ProxyPass gets a server-level SetEnvIf (its own server: it would cover /old too)
      await serve(dir, port2, ['proxy', 'proxy_scgi', 'setenvif'], top);
      expect((await get(port, '/old/x/y')).body).toBe('PATH_INFO=(unset)');
      expect((await get(port, '/new/x/y')).body).toBe('PATH_INFO=/new/x/y');
      expect((await get(port2, '/top/a')).body).toBe('PATH_INFO=/top/a');
    } finally {
      backend.close();
    }
  });
});

describe('cache-enable-forward-proxy', () => {
  test('a forward proxy with `CacheEnable disk /` caches nothing on 2.4; the added http://*: line caches again', async () => {
    const [origin, oldProxy, newProxy] = await freePorts(3);
    const { dir, docs } = serverDir();
    write(path.join(docs, 'c.txt'), 'cacheable\n');
    const cacheRoot = path.join(dir, 'cache');
    fs.mkdirSync(cacheRoot);
    fs.chmodSync(cacheRoot, 0o777);
    await serve(dir, origin, ['headers'], `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\nHeader set Cache-Control "max-age=600"\n`);
    const snippet = 'ProxyRequests On\nCacheEnable disk /\n';
    const migrated = migrate('cache-enable-forward-proxy', snippet, 'main');
    expect(migrated).toBe('ProxyRequests On\nCacheEnable disk /\nCacheEnable disk http://*:\n');
    const proxyConf = (body: string) =>
      `${body}CacheRoot "${cacheRoot}"\nCacheHeader on\nCacheDefaultExpire 600\n<Proxy "*">\n    Require ip 127.0.0.1\n</Proxy>\n`;
    const mods = ['authz_host', 'proxy', 'proxy_http', 'cache', 'cache_disk'];
    await serve(dir, oldProxy, mods, proxyConf(snippet));
    await serve(dir, newProxy, mods, proxyConf(migrated));
    const via = async (proxyPort: number) => {
      const url = `http://127.0.0.1:${origin}/c.txt`;
      const first = await get(proxyPort, url);
      const second = await get(proxyPort, url);
      expect([first.status, second.status]).toEqual([200, 200]);
      return second.headers['x-cache'];
    };
    expect(await via(oldProxy)).toBeUndefined();
    expect(await via(newProxy)).toMatch(/^HIT/);
    // the documented `http://` would not do: it means port 80 only (the origin here is not on 80)
    const [portOnly] = await freePorts(1);
    await serve(dir, portOnly, mods, proxyConf('ProxyRequests On\nCacheEnable disk /\nCacheEnable disk http://\n'));
    expect(await via(portOnly)).toBeUndefined();
  });
});

describe('ldap-trusted-client-cert', () => {
  test('a server-level LDAPTrustedClientCert fails apache2 -t on 2.4 (why the finding is manual)', () => {
    const { dir } = serverDir();
    const file = path.join(dir, 'l.conf');
    fs.writeFileSync(file, baseConfig(dir, 1, ['ldap']) + 'LDAPTrustedClientCert CERT_BASE64 /etc/ssl/certs/ca-certificates.crt\n');
    const r = configtest(file);
    expect(r.ok).toBe(false);
    expect(r.output).toContain('LDAPTrustedClientCert not allowed here');
  });
});

describe('ssl-legacy-dn-format', () => {
  const openssl = ['/usr/bin/openssl'].find((p) => fs.existsSync(p));
  (openssl ? test : test.skip)('SSLRequire on a 2.2 DN: 403 on 2.4 unmigrated, 200 migrated; FakeBasicAuth keeps the old form', async () => {
    const { dir, docs } = serverDir();
    const pki = path.join(dir, 'pki');
    fs.mkdirSync(pki);
    const run = (...args: string[]) => execFileSync(openssl!, args, { cwd: pki, stdio: 'pipe' });
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=test-ca');
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.crt', '-days', '2', '-subj', '/CN=127.0.0.1');
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/C=DE/O=Acme/CN=Admin');
    run('x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', '2');
    for (const p of ['old', 'new', 'fake']) write(path.join(docs, p, 'i.txt'), `${p}\n`);
    write(path.join(dir, 'users'), '/C=DE/O=Acme/CN=Admin:xxj31ZMTZzkVA\n');
    const location = (p: string) => `<Location /${p}>\n    SSLRequire %{SSL_CLIENT_S_DN} eq "/C=DE/O=Acme/CN=Admin"\n</Location>\n`;
    const migrated = migrate('ssl-legacy-dn-format', `SSLEngine on\n${location('new')}`).replace('SSLEngine on\n', '');
    expect(migrated).toContain('SSLOptions +LegacyDNStringFormat');
    const [port] = await freePorts(1);
    await serve(
      dir,
      port,
      ['ssl', 'socache_shmcb', 'authn_core', 'authn_file', 'auth_basic', 'authz_user'],
      `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n</Directory>\n` +
        `SSLEngine on\nSSLCertificateFile "${pki}/server.crt"\nSSLCertificateKeyFile "${pki}/server.key"\n` +
        `SSLCACertificateFile "${pki}/ca.crt"\nSSLVerifyClient require\n` +
        location('old') +
        migrated +
        `<Location /fake>\n    SSLOptions +FakeBasicAuth\n    AuthType Basic\n    AuthName certs\n    AuthBasicProvider file\n` +
        `    AuthUserFile "${dir}/users"\n    Require valid-user\n</Location>\n`,
    );
    const status = (p: string) =>
      new Promise<number>((resolve, reject) => {
        const req = https.request(
          {
            host: '127.0.0.1',
            port,
            path: `/${p}/i.txt`,
            rejectUnauthorized: false,
            cert: fs.readFileSync(path.join(pki, 'client.crt')),
            key: fs.readFileSync(path.join(pki, 'client.key')),
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await status('old')).toBe(403);
    expect(await status('new')).toBe(200);
    // the htpasswd entry in 2.2's "/C=…/CN=…" form still matches: FakeBasicAuth needs no change
    expect(await status('fake')).toBe(200);
  });
});

describe('substitute-line-limit', () => {
  test('a line over 1 MB breaks a Substitute response on 2.4 unless SubstituteMaxLineLength is raised', async () => {
    const { dir, docs } = serverDir();
    const line = 'a'.repeat(1200000) + '\n';
    write(path.join(docs, 'long', 'l.txt'), line);
    write(path.join(docs, 'raised', 'l.txt'), line);
    const [port] = await freePorts(1);
    await serve(
      dir,
      port,
      ['substitute'],
      `DocumentRoot "${docs}"\n<Directory "${docs}">\n    Require all granted\n    SetOutputFilter SUBSTITUTE\n    Substitute s/a/b/\n</Directory>\n` +
        `<Directory "${docs}/raised">\n    SubstituteMaxLineLength 2m\n</Directory>\n`,
    );
    const long = await get(port, '/long/l.txt').catch(() => ({ status: 0, headers: {}, body: '' }) as Reply);
    const raised = await get(port, '/raised/l.txt');
    const expected = 'b'.repeat(1200000) + '\n';
    expect(raised.body === expected).toBe(true);
    expect(long.body === expected).toBe(false);
    expect(fs.readFileSync(path.join(dir, `server-${port}`, 'error.log'), 'utf8')).toMatch(/AH01328|Line too long/);
  });
});
