/**
 * Whole-server harness: copy a 2.2 server tree, migrate it in-process with
 * `--write` semantics, then make a *run copy* that a real httpd 2.4 can read
 * and start on this machine, without changing what is being tested.
 *
 * The migrated tree is never edited for the run; the run copy gets only these
 * substitutions (each listed in `RunTree.substitutions` when it happened):
 *
 * 1. Filesystem root: the tree is placed at `<fs>/<ServerRoot>` (e.g.
 *    `<fs>/etc/httpd`), and absolute paths under /etc, /var, /usr/local,
 *    /usr/share, /usr/lib/cgi-bin, /usr/lib/mailman, /home, /srv, /opt get the
 *    prefix `<fs>` (a textual chroot). Module paths (/usr/lib/apache2/modules)
 *    and programs (/bin, /usr/bin) stay real.
 * 2. `Listen [addr:]80` → `Listen 127.0.0.1:<free port>`; 443 → a second
 *    free port; `<VirtualHost *:80>` / `:443` get the same ports.
 * 3. `User`/`Group` naming an account this machine lacks (RHEL's `apache`)
 *    → `www-data` (httpd runs as root here and must switch to someone).
 * 4. Debian: the `APACHE_*` variables of `envvars` are passed in the
 *    environment (as apache2ctl does), `$SUFFIX` empty, paths mapped as in 1;
 *    `-d <fs>/etc/apache2` stands for the compiled-in ServerRoot.
 * 5. What lies outside the tree is stubbed: directories named by DocumentRoot,
 *    `<Directory>`, Alias/ScriptAlias, CacheRoot, `Mutex file:`; parent
 *    directories of log, pid, lock and DAV files; a `modules` link to
 *    /usr/lib/apache2/modules where LoadModule paths are relative (RHEL's
 *    /etc/httpd/modules is such a link); TypesConfig/MIMEMagicFile copied from
 *    this machine; AuthUserFile written with the test users below; SSL
 *    files from one throw-away PKI (`testPki()`): SSLCertificateFile/KeyFile
 *    → a server certificate for localhost/127.0.0.1 signed by the test CA,
 *    SSLCertificateChainFile → that CA, SSLCACertificateFile → the test CA and
 *    a second CA without a CRL, SSLCARevocationFile → the test CA's CRL (one
 *    client revoked), *Path directories created empty; and, only when asked
 *    (`stubIncludes`, for the corpus), missing Include targets.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/run/main';
import { Finding } from '../../src/model/finding';
import { RunOptions } from '../../src/model/run-options';
import { portOpen } from '../../src/verify/httpd-process';
import { APACHE2, MODULES_DIR, spawnHttpd } from './httpd';
import { makePki } from './mutex-ssl';

export const REPO = path.resolve(__dirname, '..', '..');

export interface Layout {
  readonly name: string;
  /** The 2.2 tree (directory that becomes ServerRoot). */
  readonly source: string;
  /** ServerRoot the tree was written for. */
  readonly serverRoot: string;
  /** Main config, relative to the tree. */
  readonly mainRel: string;
  /** Debian: APACHE_* variables come from `envvars`. */
  readonly envvars: boolean;
}

export const LAYOUTS: Record<'upstream' | 'debian' | 'rhel', Layout> = {
  upstream: { name: 'upstream', source: path.join(REPO, 'examples', 'upstream-2.2'), serverRoot: '/usr/local/apache2', mainRel: 'conf/httpd.conf', envvars: false },
  debian: { name: 'debian', source: path.join(REPO, 'examples', 'debian-2.2'), serverRoot: '/etc/apache2', mainRel: 'apache2.conf', envvars: true },
  rhel: { name: 'rhel', source: path.join(REPO, 'examples', 'rhel-2.2'), serverRoot: '/etc/httpd', mainRel: 'conf/httpd.conf', envvars: false },
};

/** Test users written into every AuthUserFile the run needs. */
export const USERS: Readonly<Record<string, string>> = { alice: 'wonderland', bob: 'builder' };

export function workDir(prefix = 'codemod-whole-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Copies a tree, keeping symlinks as links (Debian's mods-enabled). */
export function copyTree(src: string, dest: string): void {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.cpSync(src, dest, { recursive: true, verbatimSymlinks: true });
}

export interface Migration {
  readonly exit: number;
  readonly findings: Finding[];
  readonly errors: { path: string; line?: number; message: string }[];
  readonly changed: string[];
}

/** Runs the tool in-process on `dir` with mode 'write' (the tree is edited in place), optionally skipping transforms. */
export async function migrateInPlace(dir: string, runOptions: RunOptions = {}, skip: readonly string[] = []): Promise<Migration> {
  return runCodemod({ paths: [dir], cwd: dir, runOptions, skip });
}

export interface CodemodRun {
  readonly paths: readonly string[];
  /** Display paths are relative to it. */
  readonly cwd: string;
  /** Default 'write' (the files are edited in place). */
  readonly mode?: 'write' | 'diff';
  /** --context main configs (read, never written). */
  readonly context?: readonly string[];
  readonly runOptions?: RunOptions;
  readonly skip?: readonly string[];
  /** --jobs (default: main's, the machine's cores). */
  readonly jobs?: number;
}

/** Runs the tool (JSON report) and returns what it reported. */
export async function runCodemod(run: CodemodRun): Promise<Migration> {
  let stdout = '';
  let stderr = '';
  const exit = await main(
    { paths: run.paths, mode: run.mode ?? 'write', format: 'json', cwd: run.cwd, runOptions: run.runOptions ?? {}, skip: run.skip ?? [], context: run.context, jobs: run.jobs },
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
  );
  if (!stdout) throw new Error(`codemod printed no report (exit ${exit}): ${stderr}`);
  const report = JSON.parse(stdout) as { findings: Finding[]; errors: Migration['errors']; files: { path: string; status: string }[] };
  return { exit, findings: report.findings, errors: report.errors, changed: report.files.filter((f) => f.status === 'changed').map((f) => f.path) };
}

export interface RunTree {
  /** The fake filesystem root. */
  readonly fs: string;
  /** ServerRoot of the run copy (`<fs>/<serverRoot>`). */
  readonly root: string;
  readonly main: string;
  readonly env: NodeJS.ProcessEnv;
  /** `-d root -f main`. */
  readonly args: string[];
  readonly ports: { readonly http: number; readonly https: number };
  /** What was changed for the run, one line each. */
  readonly substitutions: string[];
  /** A 2.2 absolute path as seen by the run copy. */
  map(p: string): string;
}

export interface RunOptionsForTree {
  readonly ports: { http: number; https: number };
  /** Create missing Include targets (corpus only: files outside the corpus). */
  readonly stubIncludes?: boolean;
}

const MAPPED_PREFIXES = ['/etc', '/var', '/usr/local', '/usr/share', '/usr/lib/cgi-bin', '/usr/lib/mailman', '/home', '/srv', '/opt', '/www'];
const PATH_RE = new RegExp(`(^|[\\s"'=:|>(,])((?:${MAPPED_PREFIXES.map((p) => p.replace(/\//g, '\\/')).join('|')})(?=[/\\s"')>]|$)[^\\s"')>]*)`, 'g');
const NOT_CONFIG = /(^|\/)(magic|envvars|[^/]*\.htpasswd|[^/]*\.(so|gz|png|gif|jpe?g|ico))$/;

function userExists(name: string): boolean {
  return spawnSync('id', ['-u', name]).status === 0;
}

function walkFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walkFiles(p, out);
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

/** PEM texts of the throw-away PKI the run copies use (see the file header). */
export interface TestPki {
  /** The CA that signed the server certificate and publishes `crl`. */
  readonly ca: string;
  /** `ca` and a second CA that publishes no CRL (SSLCACertificateFile). */
  readonly caBundle: string;
  /** CRL of `ca`, revoking the `revoked` client. */
  readonly crl: string;
  /** CN=localhost, SAN DNS:localhost, IP:127.0.0.1, signed by `ca`. */
  readonly serverCert: string;
  readonly serverKey: string;
  /** Client certificates: `good` and `revoked` from `ca`, `nocrl` from the CA without a CRL. */
  readonly clients: Readonly<Record<'good' | 'revoked' | 'nocrl', { readonly cert: string; readonly key: string }>>;
}

let pki: TestPki | null = null;
/** The PKI (created once per process, kept in memory; its files are removed). */
export function testPki(): TestPki {
  if (pki) return pki;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-pki-'));
  try {
    const made = makePki(dir);
    const read = (f: string) => fs.readFileSync(f, 'latin1');
    const client = ([cert, key]: [string, string]) => ({ cert: read(cert), key: read(key) });
    pki = {
      ca: read(made.caCert),
      caBundle: read(made.caBundle),
      crl: read(made.crl),
      serverCert: read(made.serverCert),
      serverKey: read(made.serverKey),
      clients: { good: client(made.clients.good), revoked: client(made.clients.revoked), nocrl: client(made.clients.nocrl) },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return pki;
}

function htpasswd(): string {
  return Object.entries(USERS)
    .map(([user, pw]) => `${user}:{SHA}${crypto.createHash('sha1').update(pw).digest('base64')}\n`)
    .join('');
}

function unquote(s: string): string {
  return s.replace(/^(["'])(.*)\1$/, '$2');
}

/**
 * Builds the run copy of a (migrated) tree under `work/fs`. See the file header
 * for every substitution.
 */
export function prepareRun(tree: string, layout: Pick<Layout, 'serverRoot' | 'mainRel' | 'envvars'>, work: string, options: RunOptionsForTree): RunTree {
  const fsRoot = path.join(work, 'fs');
  const root = path.join(fsRoot, layout.serverRoot);
  copyTree(tree, root);
  const subs = new Set<string>();
  const map = (p: string): string => (MAPPED_PREFIXES.some((pre) => p === pre || p.startsWith(pre + '/')) ? fsRoot + p : p);
  const { http: httpPort, https: httpsPort } = options.ports;
  const portFor = (p: string) => (p === '443' ? String(httpsPort) : p === '80' ? String(httpPort) : p);

  const configFiles = walkFiles(root).filter((f) => !NOT_CONFIG.test(f));
  for (const file of configFiles) {
    const text = fs.readFileSync(file, 'latin1');
    if (text.includes('\0')) continue;
    const lines = text.split(/(?<=\n)/);
    const out = lines.map((line) => {
      if (/^\s*#/.test(line)) return line;
      let l = line.replace(PATH_RE, (_m, pre: string, p: string) => {
        subs.add(`absolute paths under ${MAPPED_PREFIXES.join(', ')} → ${fsRoot}/…`);
        return pre + fsRoot + p;
      });
      l = l.replace(/^(\s*)Listen(\s+)(?:\S+:)?(\d+)\b/i, (_m, ind: string, sp: string, port: string) => {
        subs.add(`Listen ${port} → Listen 127.0.0.1:${portFor(port)}`);
        return `${ind}Listen${sp}127.0.0.1:${portFor(port)}`;
      });
      l = l.replace(/^(\s*<VirtualHost\s[^>]*)/i, (m) => {
        const r = m.replace(/:(80|443)\b/g, (_x, p: string) => `:${portFor(p)}`);
        if (r !== m) subs.add(`<VirtualHost *:80|443> → the Listen ports`);
        return r;
      });
      l = l.replace(/^(\s*)(User|Group)(\s+)([^\s$#][^\s#]*)/i, (m, ind: string, name: string, sp: string, value: string) => {
        if (userExists(unquote(value)) || (name.toLowerCase() === 'group' && spawnSync('getent', ['group', unquote(value)]).status === 0)) return m;
        subs.add(`${name} ${value} → ${name} www-data (no such account here)`);
        return `${ind}${name}${sp}www-data`;
      });
      return l;
    });
    const result = out.join('');
    if (result !== text) fs.writeFileSync(file, Buffer.from(result, 'latin1'));
  }

  // Debian: envvars → environment
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (layout.envvars && fs.existsSync(path.join(root, 'envvars'))) {
    for (const line of fs.readFileSync(path.join(root, 'envvars'), 'latin1').split('\n')) {
      const m = /^\s*export\s+(APACHE_[A-Z_]+|LANG)=(.*?)\s*$/.exec(line);
      if (!m) continue;
      const value = unquote(m[2]).replace(/\$\{?SUFFIX\}?/g, '');
      env[m[1]] = m[1] === 'APACHE_RUN_USER' || m[1] === 'APACHE_RUN_GROUP' ? value : map(value);
    }
    env.APACHE_CONFDIR = root;
    subs.add('envvars: APACHE_* passed in the environment, $SUFFIX empty, paths mapped');
    for (const v of ['APACHE_RUN_DIR', 'APACHE_LOCK_DIR', 'APACHE_LOG_DIR']) if (env[v]) fs.mkdirSync(env[v] as string, { recursive: true });
    if (env.APACHE_PID_FILE) fs.mkdirSync(path.dirname(env.APACHE_PID_FILE), { recursive: true });
  }
  const expand = (s: string) => s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, v: string) => env[v] ?? m);
  const abs = (p: string) => {
    const e = expand(unquote(p));
    return path.isAbsolute(e) ? e : path.join(root, e);
  };
  const inRun = (p: string) => p.startsWith(work + '/');
  const mkdir = (d: string, why: string) => {
    if (!inRun(d) || /[*?[]/.test(d) || fs.existsSync(d)) return;
    fs.mkdirSync(d, { recursive: true });
    subs.add(`stub directory for ${why}`);
  };
  const stubFile = (f: string, content: string, why: string) => {
    if (!inRun(f) || /[*?[]/.test(f) || fs.existsSync(f)) return;
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, content);
    subs.add(`stub file for ${why}`);
  };

  let relativeModules = false;
  for (const file of walkFiles(root).filter((f) => !NOT_CONFIG.test(f))) {
    const text = fs.readFileSync(file, 'latin1');
    if (text.includes('\0')) continue;
    for (const raw of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const words = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
      const name = (words[0] ?? '').toLowerCase();
      const arg = (i: number) => words[i] ?? '';
      switch (name) {
        case 'documentroot':
        case 'cacheroot':
        case 'suexecusergroup':
          if (name !== 'suexecusergroup') mkdir(abs(arg(1)), name);
          break;
        case '<directory': {
          const d = arg(1).replace(/>$/, '');
          if (d && d !== '~' && !d.startsWith('~')) mkdir(abs(d), '<Directory>');
          break;
        }
        case 'alias':
        case 'scriptalias':
          if (arg(2)) mkdir(abs(arg(2)), name);
          break;
        case 'mutex': {
          const m = /^(?:file|flock|fcntl):(.+)$/.exec(unquote(arg(1)));
          if (m) mkdir(abs(m[1]), 'Mutex');
          break;
        }
        case 'errorlog':
        case 'customlog':
        case 'transferlog':
        case 'rewritelog':
        case 'scriptlog':
        case 'pidfile':
        case 'lockfile':
        case 'davlockdb':
        case 'scoreboardfile':
        case 'forensiclog': {
          const target = unquote(arg(1));
          if (target.startsWith('|')) {
            for (const m of target.matchAll(/\/\S+/g)) if (inRun(m[0])) mkdir(path.dirname(m[0]), `piped ${name} target`);
          } else if (!/^syslog/.test(target)) {
            mkdir(path.dirname(abs(target)), name);
          }
          break;
        }
        case 'sslsessioncache': {
          const m = /^(?:shmcb|dbm|shmht):([^(]+)/.exec(unquote(arg(1)));
          if (m) mkdir(path.dirname(abs(m[1])), name);
          break;
        }
        case 'authuserfile':
        case 'authdigestfile':
          stubFile(abs(arg(1)), htpasswd(), `${name} (users ${Object.keys(USERS).join(', ')})`);
          break;
        case 'authgroupfile':
          stubFile(abs(arg(1)), '', name);
          break;
        case 'typesconfig':
          stubFile(abs(arg(1)), fs.existsSync('/etc/mime.types') ? fs.readFileSync('/etc/mime.types', 'latin1') : '', 'TypesConfig (this machine\'s /etc/mime.types)');
          break;
        case 'mimemagicfile':
          stubFile(abs(arg(1)), fs.existsSync('/etc/apache2/magic') ? fs.readFileSync('/etc/apache2/magic', 'latin1') : '', 'MIMEMagicFile');
          break;
        case 'sslcertificatefile':
        case 'sslcertificatechainfile':
        case 'sslcacertificatefile':
        case 'sslproxycacertificatefile':
        case 'sslcertificatekeyfile':
        case 'sslcarevocationfile':
        case 'sslproxycarevocationfile':
        case 'sslcacertificatepath':
        case 'sslproxycacertificatepath':
        case 'sslcarevocationpath':
        case 'sslproxycarevocationpath': {
          const stub = sslStub(name);
          if (stub.kind === 'dir') mkdir(abs(arg(1)), name);
          else stubFile(abs(arg(1)), stub.content, `${name} (${stub.what})`);
          break;
        }
        case 'loadmodule':
          if (!path.isAbsolute(unquote(arg(2)))) relativeModules = true;
          break;
        case 'include':
        case 'includeoptional':
          if (options.stubIncludes && name === 'include') stubInclude(abs(arg(1)), stubFile, mkdir);
          break;
        default:
          break;
      }
    }
  }
  if (relativeModules && !fs.existsSync(path.join(root, 'modules'))) {
    fs.symlinkSync(MODULES_DIR, path.join(root, 'modules'));
    subs.add(`modules → ${MODULES_DIR} (link, as RHEL's /etc/httpd/modules)`);
  }
  makeReadable(work);
  const main = path.join(root, layout.mainRel);
  return {
    fs: fsRoot,
    root,
    main,
    env,
    args: ['-d', root, '-f', main],
    ports: options.ports,
    substitutions: [...subs],
    map,
  };
}

type SslStub = { kind: 'dir' } | { kind: 'file'; content: string; what: string };

/** What stands in for the file or directory an SSL directive (lower-case name) names. */
function sslStub(name: string): SslStub {
  switch (name) {
    case 'sslcertificatefile':
      return { kind: 'file', content: testPki().serverCert, what: 'throw-away server certificate' };
    case 'sslcertificatekeyfile':
      return { kind: 'file', content: testPki().serverKey, what: 'throw-away key' };
    case 'sslcertificatechainfile':
      return { kind: 'file', content: testPki().ca, what: 'throw-away CA' };
    case 'sslcacertificatefile':
    case 'sslproxycacertificatefile':
      return { kind: 'file', content: testPki().caBundle, what: 'throw-away CAs' };
    case 'sslcarevocationfile':
    case 'sslproxycarevocationfile':
      return { kind: 'file', content: testPki().crl, what: 'CRL of the throw-away CA' };
    default:
      return { kind: 'dir' };
  }
}

const SSL_FILE_DIRECTIVES = /^\s*(SSL(?:Proxy)?CA(?:Certificate|Revocation)(?:File|Path)|SSLCertificate(?:Key|Chain)?File)\s+("[^"]*"|\S+)/i;

/**
 * For trees mapped by other harnesses: creates what the SSL*File / SSL*Path lines of the config files
 * under `tree` name (the throw-away PKI of `testPki()`, empty directories), where it is missing and lies
 * inside `tree` (absolute paths must already point into the tree; relative ones are taken from
 * `serverRoot`, by default `tree`). Returns the paths created.
 */
export function stubSslFiles(tree: string, serverRoot = tree): string[] {
  const made: string[] = [];
  for (const file of walkFiles(tree).filter((f) => !NOT_CONFIG.test(f))) {
    const text = fs.readFileSync(file, 'latin1');
    if (text.includes('\0')) continue;
    for (const line of text.split(/\r?\n/)) {
      const m = SSL_FILE_DIRECTIVES.exec(line);
      if (!m) continue;
      const target = path.resolve(serverRoot, unquote(m[2]));
      if (!target.startsWith(tree + '/') || fs.existsSync(target)) continue;
      const stub = sslStub(m[1].toLowerCase());
      if (stub.kind === 'dir') fs.mkdirSync(target, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, stub.content);
      }
      made.push(target);
    }
  }
  return made;
}

function stubInclude(target: string, stubFile: (f: string, c: string, why: string) => void, mkdir: (d: string, why: string) => void): void {
  if (/[*?[]/.test(path.basename(target))) {
    const dir = path.dirname(target);
    if (/[*?[]/.test(dir)) return;
    if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) return;
    mkdir(dir, 'Include directory outside the corpus');
    const name = path.basename(target).replace(/\*/g, 'stub').replace(/\?/g, 'x').replace(/\[[^\]]*\]/g, 'x');
    stubFile(path.join(dir, name), '', 'Include target outside the corpus (empty file)');
  } else if (target.endsWith('/')) {
    mkdir(target, 'Include directory outside the corpus');
  } else if (!fs.existsSync(target)) {
    stubFile(target, '', 'Include target outside the corpus (empty file)');
  }
}

function makeReadable(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      fs.chmodSync(p, 0o755);
      makeReadable(p);
    } else fs.chmodSync(p, 0o644);
  }
}

export interface Httpd {
  readonly ok: boolean;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `apache2 -d root -f main <args>` with the tree's environment. */
export function httpd(run: RunTree, extra: readonly string[]): Httpd {
  const r = spawnSync(APACHE2, [...run.args, ...extra], { encoding: 'latin1', env: run.env, timeout: 30000 });
  return { ok: r.status === 0, status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export function configtestTree(run: RunTree): Httpd {
  return httpd(run, ['-t']);
}

/** Lines of `apache2 -t` output that are neither `Syntax OK` nor the ServerName notice (AH00558). */
export function unexpectedOutput(result: Httpd): string[] {
  return `${result.stdout}${result.stderr}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && l !== 'Syntax OK' && !/AH00558/.test(l));
}

/** `-t -D DUMP_CONFIG` with mod_info loaded first (`-C`): the effective directives, IfModule/IfDefine resolved. */
export function dumpConfig(run: RunTree): string {
  const r = httpd(run, ['-C', `LoadModule info_module ${MODULES_DIR}/mod_info.so`, '-t', '-D', 'DUMP_CONFIG']);
  if (!r.ok) throw new Error(`DUMP_CONFIG failed: ${r.stderr}`);
  return r.stdout;
}

export interface Started {
  stop(): Promise<void>;
  readonly stderr: () => string;
}

/** Starts httpd in the foreground in its own process group; rejects with stderr if it exits or does not listen. */
export async function startTree(run: RunTree, timeoutMs = 15000): Promise<Started> {
  const httpd = spawnHttpd(run.args, run.env);
  const deadline = Date.now() + timeoutMs;
  while (!httpd.gone() && Date.now() < deadline) {
    if (await portOpen(run.ports.http)) {
      // httpd binds its listeners before the post-config hooks, which may still fail
      await new Promise((r) => setTimeout(r, 500));
      if (!httpd.gone()) return { stop: httpd.stop, stderr: httpd.stderr };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await httpd.stop();
  throw new Error(`httpd did not start${httpd.gone() ? ` (exit ${httpd.exitStatus()})` : ' (timeout)'}: ${httpd.stderr()}${errorLogTails(run.fs)}`);
}

/** The last lines of every error log under the run's filesystem (startup failures are logged there, not on stderr). */
export function errorLogTails(dir: string): string {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile() && /error[._-]?log/i.test(e.name)) {
        const lines = fs.readFileSync(p, 'latin1').trimEnd().split('\n').slice(-8);
        if (lines.join('').trim()) out.push(`\n--- ${p}\n${lines.join('\n')}`);
      }
    }
  };
  visit(dir);
  return out.join('');
}

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** GET (by default) from a given 127.x source address, with an optional Host and Basic credentials. */
export function request(
  port: number,
  urlPath: string,
  opts: { from?: string; host?: string; user?: string; password?: string; method?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: opts.host ?? 'localhost', Connection: 'close' };
    if (opts.user !== undefined) headers.Authorization = 'Basic ' + Buffer.from(`${opts.user}:${opts.password ?? ''}`).toString('base64');
    const req = http.request(
      { host: '127.0.0.1', port, path: urlPath, method: opts.method ?? 'GET', localAddress: opts.from ?? '127.0.0.1', headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.setTimeout(10000, () => req.destroy(new Error(`timeout: GET ${urlPath}`)));
    req.on('error', reject);
    req.end();
  });
}

export interface TlsAnswer {
  /** HTTP status, or `tls-error` when the TLS handshake (or the first read after it) failed. */
  readonly status: number | 'tls-error';
  readonly error: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Negotiated protocol and cipher (`TLSv1.3`, `TLS_AES_256_GCM_SHA384`). */
  readonly protocol: string;
  readonly cipher: string;
  /** CN of the certificate the server presented. */
  readonly serverCN: string;
}

/**
 * HTTPS GET to 127.0.0.1, SNI `localhost`, verifying the server against the test CA
 * (`testPki().ca`, so the server must present the stubbed certificate), optionally with a
 * client certificate (`testPki().clients.*`).
 */
export function httpsRequest(
  port: number,
  urlPath: string,
  opts: { host?: string; client?: { cert: string; key: string } } = {},
): Promise<TlsAnswer> {
  return new Promise((resolve) => {
    let protocol = '';
    let cipher = '';
    let serverCN = '';
    const fail = (e: Error) => resolve({ status: 'tls-error', error: e.message, headers: {}, body: '', protocol, cipher, serverCN });
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: 'GET',
        servername: 'localhost',
        ca: testPki().ca,
        cert: opts.client?.cert,
        key: opts.client?.key,
        headers: { Host: opts.host ?? 'localhost', Connection: 'close' },
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('latin1');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, error: '', headers: res.headers, body, protocol, cipher, serverCN }));
        res.on('error', fail);
      },
    );
    req.on('socket', (socket) => {
      socket.on('secureConnect', () => {
        const tls = socket as import('tls').TLSSocket;
        protocol = tls.getProtocol() ?? '';
        cipher = tls.getCipher()?.standardName ?? '';
        const subject = tls.getPeerCertificate()?.subject as unknown as Record<string, string> | undefined;
        serverCN = subject?.CN ?? '';
      });
    });
    req.setTimeout(10000, () => req.destroy(new Error(`timeout: GET ${urlPath}`)));
    req.on('error', fail);
    req.end();
  });
}

/** Waits until `file` exists and matches `re` (piped loggers write asynchronously). */
export async function waitForContent(file: string, re: RegExp, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = fs.existsSync(file) ? fs.readFileSync(file, 'latin1') : '';
    if (re.test(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  return text;
}

/** Writes a file at a 2.2 absolute path of the run (docroot content), readable by the server's user. */
export function writeRunFile(run: RunTree, p22: string, content: string, mode = 0o644): void {
  const p = run.map(p22);
  fs.mkdirSync(path.dirname(p), { recursive: true, mode: 0o755 });
  fs.writeFileSync(p, content);
  fs.chmodSync(p, mode);
}
