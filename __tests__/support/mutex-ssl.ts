/**
 * Helpers for httpd-mutex-ssl.test.ts: a throw-away PKI (CA with a CRL, a good and a revoked
 * client, a second CA without any CRL), client requests with curl, and `materialize`, which
 * points the absolute paths of a fixture into a temporary tree and creates what `apache2 -t`
 * checks (files named by *File directives, directories of *Path / Mutex / Define).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { directives, parse } from '../../src/cst';
import { APACHE2, MODULES_DIR, baseConfig, builtinModules } from './httpd';

export interface Pki {
  readonly dir: string;
  readonly caCert: string;
  /** Both CAs, for SSLCACertificateFile. */
  readonly caBundle: string;
  readonly crl: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** name → [cert, key]: `good`, `revoked` (both from the CA with a CRL), `nocrl` (from the CA without one). */
  readonly clients: Record<'good' | 'revoked' | 'nocrl', [string, string]>;
}

function openssl(cwd: string, args: string[]): void {
  const r = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${r.stderr}`);
}

export function makePki(dir: string): Pki {
  fs.mkdirSync(path.join(dir, 'newcerts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '1000\n');
  fs.writeFileSync(path.join(dir, 'crlnumber'), '1000\n');
  fs.writeFileSync(
    path.join(dir, 'ca.cnf'),
    [
      '[ca]',
      'default_ca = CA_default',
      '[CA_default]',
      'dir = .',
      'database = ./index.txt',
      'new_certs_dir = ./newcerts',
      'serial = ./serial',
      'crlnumber = ./crlnumber',
      'default_md = sha256',
      'default_days = 30',
      'default_crl_days = 30',
      'policy = pol',
      'copy_extensions = copy',
      'unique_subject = no',
      '[pol]',
      'commonName = supplied',
      '[req]',
      'distinguished_name = dn',
      '[dn]',
      '[v3_ca]',
      'basicConstraints = critical,CA:true',
      'keyUsage = keyCertSign, cRLSign',
      'subjectKeyIdentifier = hash',
      '',
    ].join('\n'),
  );
  const ca = ['-config', 'ca.cnf', '-cert', 'ca.crt', '-keyfile', 'ca.key'];
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '30', '-subj', '/CN=test-ca', '-config', 'ca.cnf', '-extensions', 'v3_ca']);
  const issue = (name: string, subj: string, san?: string) => {
    openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subj, ...(san ? ['-addext', `subjectAltName=${san}`] : [])]);
    openssl(dir, ['ca', '-batch', ...ca, '-in', `${name}.csr`, '-out', `${name}.crt`]);
  };
  issue('server', '/CN=localhost', 'DNS:localhost,IP:127.0.0.1');
  issue('good', '/CN=client-good');
  issue('revoked', '/CN=client-revoked');
  openssl(dir, ['ca', '-batch', ...ca, '-revoke', 'revoked.crt']);
  openssl(dir, ['ca', '-batch', ...ca, '-gencrl', '-out', 'ca.crl']);
  // a second CA that publishes no CRL, and a client of it
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca2.key', '-out', 'ca2.crt', '-days', '30', '-subj', '/CN=test-ca-2', '-config', 'ca.cnf', '-extensions', 'v3_ca']);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'nocrl.key', '-out', 'nocrl.csr', '-subj', '/CN=client-nocrl']);
  openssl(dir, ['x509', '-req', '-in', 'nocrl.csr', '-CA', 'ca2.crt', '-CAkey', 'ca2.key', '-CAcreateserial', '-out', 'nocrl.crt', '-days', '30']);
  fs.writeFileSync(path.join(dir, 'cas.crt'), fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8') + fs.readFileSync(path.join(dir, 'ca2.crt'), 'utf8'));
  const p = (f: string) => path.join(dir, f);
  return {
    dir,
    caCert: p('ca.crt'),
    caBundle: p('cas.crt'),
    crl: p('ca.crl'),
    serverCert: p('server.crt'),
    serverKey: p('server.key'),
    clients: { good: [p('good.crt'), p('good.key')], revoked: [p('revoked.crt'), p('revoked.key')], nocrl: [p('nocrl.crt'), p('nocrl.key')] },
  };
}

/** HTTPS GET with a client certificate: the HTTP status, or `tls-error` when the handshake was refused. */
export function httpsStatus(port: number, pki: Pki, client: [string, string], urlPath = '/index.html'): string {
  const r = spawnSync(
    'curl',
    ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '10', '--cacert', pki.caCert, '--cert', client[0], '--key', client[1], `https://localhost:${port}${urlPath}`],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? r.stdout : 'tls-error';
}

/** `LoadModule` lines for every module in the module directory (providers of symbols first), for `apache2 -L`. */
export function allModuleLines(mpm = 'prefork'): string {
  const first = ['cache', 'dav', 'proxy', 'session', 'ldap'];
  const builtin = builtinModules();
  const ids = fs
    .readdirSync(MODULES_DIR)
    .filter((f) => /^mod_.*\.so$/.test(f))
    .map((f) => f.slice(4, -3))
    .filter((id) => !id.startsWith('mpm_') && !first.includes(id) && !builtin.has(`mod_${id}.c`));
  return [`mpm_${mpm}`, ...first, ...ids].map((id) => `LoadModule ${id}_module ${MODULES_DIR}/mod_${id}.so\n`).join('');
}

/** `apache2 -L` (directives of all loaded modules) for a config file. */
export function listDirectives(configFile: string): string[] {
  const out = execFileSync(APACHE2, ['-f', configFile, '-L'], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => /^\S/.test(l))
    .map((l) => l.split(' ')[0]);
}

const ABSOLUTE = /(^|[\s"':])(\/(?:etc|var|srv|tmp|usr\/local)\/[^\s"']*)/gm;
const DIR_DIRECTIVES = /path$|^mutex$/i;

/**
 * Rewrites a fixture's absolute paths (/etc, /var, /srv, /tmp, /usr/local) to live under `root`, and
 * creates the files and directories httpd checks while reading the config: the last argument of a
 * `…File` directive becomes a (placeholder) file, the directory of a `…Path` or `Mutex mech:dir` line a
 * directory, `${APACHE_RUN_DIR}` and `${APACHE_LOCK_DIR}` are defined, relative mutex dirs exist.
 */
export function materialize(text: string, root: string): string {
  const moved = text.replace(ABSOLUTE, (_, lead: string, p: string) => `${lead}${root}${p}`);
  const defines = ['APACHE_RUN_DIR', 'APACHE_LOCK_DIR'].map((v) => {
    fs.mkdirSync(path.join(root, v.toLowerCase()), { recursive: true });
    return `Define ${v} ${path.join(root, v.toLowerCase())}\n`;
  });
  const expand = (s: string) => s.replace(/\$\{(APACHE_\w+)\}/g, (_, v: string) => path.join(root, v.toLowerCase()));
  for (const d of directives(parse(moved))) {
    const last = d.values[d.values.length - 1];
    if (!last) continue;
    if (d.is('Mutex')) {
      const arg = expand(d.values[0] ?? '');
      const colon = arg.indexOf(':');
      if (colon !== -1) fs.mkdirSync(path.resolve(root, arg.slice(colon + 1)), { recursive: true });
    } else if (DIR_DIRECTIVES.test(d.name) && last.startsWith(root)) {
      fs.mkdirSync(last, { recursive: true });
    } else if (/file$/i.test(d.name) && last.startsWith(root)) {
      fs.mkdirSync(path.dirname(last), { recursive: true });
      if (!fs.existsSync(last)) fs.writeFileSync(last, 'placeholder\n'); // httpd refuses empty certificate files
    }
  }
  return defines.join('') + moved;
}

/**
 * Writes `dir/NAME.conf`: a main config (baseConfig with `modules` and the MPM) around a fixture
 * text, the fixture's own ServerRoot/LoadModule lines dropped, its paths materialized under `dir`;
 * with `htaccess`, the text goes inside `<Directory dir/htdocs>`. Returns the file's path.
 */
export function fixtureServer(
  dir: string,
  body: string,
  name: string,
  options: { modules: readonly string[]; mpm?: 'prefork' | 'worker' | 'event'; htaccess?: boolean },
): string {
  const mpm = options.mpm ?? 'prefork';
  const base = baseConfig(dir, 8, options.modules).replace(/LoadModule mpm_prefork_module (\S+)mod_mpm_prefork\.so/, `LoadModule mpm_${mpm}_module $1mod_mpm_${mpm}.so`);
  let text = body.replace(/^[ \t]*(ServerRoot|LoadModule)\b[^\r\n]*/gim, '# (dropped for the test)');
  if (!text.endsWith('\n')) text += '\n';
  if (options.htaccess) text = `<Directory "${dir}/htdocs">\n${text}</Directory>\n`;
  const file = path.join(dir, `${name}.conf`);
  fs.writeFileSync(file, Buffer.from(base + materialize(text, dir), 'latin1'));
  return file;
}
