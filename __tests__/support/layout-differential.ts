/**
 * Differential harness for whole layouts (issue 8): two (or more) complete server trees started by
 * a real httpd 2.4, asked the same requests, their statuses compared.
 *
 * - The request matrix is access-differential's (source addresses 127.0.0.1, 127.0.0.5,
 *   127.0.1.9, 127.1.2.3; no / alice / bob / bad-password Basic credentials, users alice:secret
 *   and bob:secret from `htpasswdText()`; GET and POST), for probes that name a Host header
 *   (name-based virtual hosts) and a path; no X-Trigger variants (the layouts set no env rules).
 * - A tree is served either through `prepareRun` (whole-server.ts: the tree mapped into a fake
 *   filesystem root, Listen and `<VirtualHost *:80>` on a free port, Debian's envvars) or, for
 *   small hand-written trees, through a wrapper config outside the tree (`writeWrapper`) that
 *   sets only what every test server needs (runtime directory, pid file, Listen) and includes
 *   the tree's main config, so the tree itself is exactly what the tool read and wrote.
 * - Every server started here is tracked and stopped by `stopLayoutServers()` (afterAll).
 *
 * Helpers for the baselines: `copyDebianApache2` (Debian's installed 2.4 /etc/apache2, checked
 * against the package's conffile checksums), `requireLinesTo22` (a stock 2.4 access line written
 * as the 2.2 lines that mean the same), `treeSnapshot` (bytes and link targets, for "untouched"
 * checks), `oldAccessLines` (Order/Allow/Deny/Satisfy left in a tree).
 */
import { createHash } from 'crypto';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CREDENTIALS, CredentialName, METHODS, Observation, RequestSpec, Result, SOURCE_ADDRESSES, describeRequest, formatResult, htpasswdText, isGranted, pool, send } from './access-differential';
import { RunningServer, builtinModules, loadModuleLine, startServerChecked } from './httpd';
import { Layout, RunTree, Started, prepareRun, startTree } from './whole-server';

export { htpasswdText };

/** One URL of a layout: the Host header (a ServerName of the layout) and the path. */
export interface Probe {
  readonly host?: string;
  readonly path: string;
}

export interface MatrixOptions {
  readonly addresses?: readonly string[];
  readonly credentials?: readonly CredentialName[];
  readonly methods?: readonly (typeof METHODS)[number][];
}

/** probes × addresses × credentials × methods (GET, POST). */
export function layoutRequests(probes: readonly Probe[], options: MatrixOptions = {}): RequestSpec[] {
  const out: RequestSpec[] = [];
  const credentials = options.credentials ?? (Object.keys(CREDENTIALS) as CredentialName[]);
  for (const p of probes)
    for (const address of options.addresses ?? SOURCE_ADDRESSES)
      for (const credential of credentials)
        for (const method of options.methods ?? METHODS) out.push({ path: p.path, ...(p.host ? { host: p.host } : {}), address, credential, method, trigger: false });
  return out;
}

/**
 * Sends every request to both servers and compares the statuses: a request whose statuses
 * differ, or that got no HTTP status on either side, is a mismatch; a mismatch where the
 * migrated side granted (2xx/3xx) and the baseline did not is widened.
 */
export async function compareServers(name: string, baselinePort: number, migratedPort: number, requests: readonly RequestSpec[], options: { timeoutMs?: number; concurrency?: number } = {}): Promise<Result> {
  // hostname rules (Allow from .example.com) make httpd ask the resolver, which may take one 5 s retry
  const timeoutMs = options.timeoutMs ?? 15000;
  const tasks = requests.flatMap((spec) => [() => send(baselinePort, spec, timeoutMs), () => send(migratedPort, spec, timeoutMs)]);
  const statuses = await pool(tasks, options.concurrency ?? 12);
  const result: Result = { name, mismatches: [], widened: [], requests: requests.length, observations: [] };
  requests.forEach((spec, k) => {
    const o: Observation = { request: describeRequest(spec), baseline: statuses[2 * k], migrated: statuses[2 * k + 1] };
    result.observations.push(o);
    if (o.baseline !== o.migrated || typeof o.baseline !== 'number' || typeof o.migrated !== 'number') {
      result.mismatches.push(o);
      if (isGranted(o.migrated) && !isGranted(o.baseline)) result.widened.push(o);
    }
  });
  return result;
}

/** The status one side gave to a request (by its description), for spot checks. */
export function statusOf(result: Result, request: string, side: 'baseline' | 'migrated' = 'baseline'): Observation['baseline'] | undefined {
  return result.observations.find((o) => o.request === request)?.[side];
}

/**
 * Asserts the migrated side answered every one of `requests` requests like the baseline: no error,
 * nothing widened, no mismatch (the message lists them with both statuses and the error logs).
 */
export function expectNoDifference(r: Result, requests: number): void {
  if (r.error) throw new Error(`${r.name}: ${r.error}`);
  expect(r.widened).toEqual([]);
  if (r.mismatches.length > 0) throw new Error(formatResult(r, 40));
  expect(r.requests).toBe(requests);
}

/** One side's status for each of the given requests (by description): one toEqual against a table of expected answers. */
export function answersOf(result: Result, expected: Readonly<Record<string, Observation['baseline']>>, side: 'baseline' | 'migrated' = 'baseline'): Record<string, Observation['baseline'] | undefined> {
  return Object.fromEntries(Object.keys(expected).map((request) => [request, statusOf(result, request, side)]));
}

/** How many requests of a result each side granted, refused with 401, 403, or answered otherwise. */
export function tally(result: Result, side: 'baseline' | 'migrated'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const o of result.observations) {
    const s = o[side];
    const key = isGranted(s) ? '2xx/3xx' : String(s);
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

// ---------------------------------------------------------------- files

/** Writes `files` (relative path → text) below `root`, world-readable (httpd's children run as another user). */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, Buffer.from(text, 'latin1'), { mode: 0o644 });
  }
}

/** Replaces every `{{KEY}}` of `text` by `vars.KEY`; an unknown key is an error (a template typo). */
export function fill(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (m, key: string) => {
    if (!(key in vars)) throw new Error(`no value for ${m}`);
    return vars[key];
  });
}

/** chmod a+rX below `dir` (directories 0755, files 0644; links left alone) and `dir` itself. */
export function makeReadable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isSymbolicLink()) continue;
    if (e.isDirectory()) makeReadable(p);
    else fs.chmodSync(p, 0o644);
  }
}

/** Every regular file and link below `dir`: relative path → `file <sha256>` or `link <target>`. */
export function treeSnapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isSymbolicLink()) out.set(rel, `link ${fs.readlinkSync(p)}`);
      else if (e.isDirectory()) visit(p);
      else if (e.isFile()) out.set(rel, `file ${createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`);
    }
  };
  visit(dir);
  return out;
}

/** Relative paths whose entry differs between two snapshots (changed, added or removed). */
export function snapshotChanges(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

const OLD_ACCESS = /^\s*(order|allow|deny|satisfy)\b/i;

/** `rel:line: text` of every Order/Allow/Deny/Satisfy line left in the config files below `dir` (comments skipped, links followed once). */
export function oldAccessLines(dir: string, files?: readonly string[]): string[] {
  const out: string[] = [];
  const list = files ?? [...treeSnapshot(dir).keys()];
  for (const rel of list) {
    const p = path.join(dir, rel);
    if (!fs.existsSync(p) || fs.lstatSync(p).isSymbolicLink()) continue;
    const text = fs.readFileSync(p, 'latin1');
    if (text.includes('\0')) continue;
    text.split(/\r?\n/).forEach((line, i) => {
      if (OLD_ACCESS.test(line) && !/^\s*#/.test(line)) out.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return out;
}

/** Whether any config file below `dir` loads mod_access_compat (outside comments). */
export function loadsAccessCompat(dir: string): string[] {
  const out: string[] = [];
  for (const [rel, entry] of treeSnapshot(dir)) {
    const p = path.join(dir, rel);
    if (entry.startsWith('link') || !fs.existsSync(p)) continue;
    const text = fs.readFileSync(p, 'latin1');
    text.split(/\r?\n/).forEach((line, i) => {
      if (/^\s*LoadModule\s+access_compat_module\b/i.test(line)) out.push(`${rel}:${i + 1}`);
    });
  }
  return out;
}

// ---------------------------------------------------------------- 2.2 forms of stock 2.4 lines

/**
 * The 2.2 lines that mean what a stock 2.4 access line means, with its indentation:
 * `Require all granted` → Order allow,deny / Allow from all; `Require all denied` → Order
 * deny,allow / Deny from all; `Require local` → Order deny,allow / Deny from all / Allow from
 * 127.0.0.0/8 ::1 (loopback, which is what `local` is for a loopback server address). Other lines
 * are returned unchanged.
 */
export function requireLineTo22(line: string): string {
  const m = /^(\s*)Require\s+(all\s+granted|all\s+denied|local)\s*$/i.exec(line);
  if (!m) return line;
  const [, indent, what] = m;
  const rule = what.toLowerCase().replace(/\s+/g, ' ');
  const lines =
    rule === 'all granted' ? ['Order allow,deny', 'Allow from all'] : rule === 'all denied' ? ['Order deny,allow', 'Deny from all'] : ['Order deny,allow', 'Deny from all', 'Allow from 127.0.0.0/8 ::1'];
  return lines.map((l) => indent + l).join('\n');
}

/** requireLineTo22 on every line of a text (line endings kept). */
export function requireLinesTo22(text: string): string {
  return text
    .split(/(?<=\n)/)
    .map((l) => {
      const eol = /\r?\n$/.exec(l)?.[0] ?? '';
      return requireLineTo22(l.slice(0, l.length - eol.length)).split('\n').join(eol || '\n') + eol;
    })
    .join('');
}

/** requireLinesTo22 on every regular file below `dir` (links are left: their targets are converted where they lie in `dir`). Returns the files changed. */
export function treeTo22(dir: string): string[] {
  const changed: string[] = [];
  for (const [rel, entry] of treeSnapshot(dir)) {
    if (!entry.startsWith('file')) continue;
    const p = path.join(dir, rel);
    const text = fs.readFileSync(p, 'latin1');
    if (text.includes('\0')) continue;
    const out = requireLinesTo22(text);
    if (out !== text) {
      fs.writeFileSync(p, Buffer.from(out, 'latin1'));
      changed.push(rel);
    }
  }
  return changed;
}

/** `rel:line: text` of the 2.4 access lines (Require …, <Require…>) below `dir` that requireLinesTo22 did not turn into 2.2. */
export function newAccessLines(dir: string, files: readonly string[]): string[] {
  const out: string[] = [];
  for (const rel of files) {
    const p = path.join(dir, rel);
    if (!fs.existsSync(p)) continue;
    fs.readFileSync(p, 'latin1')
      .split(/\r?\n/)
      .forEach((line, i) => {
        if (/^\s*(<\/?Require|Require\s+(all|local|ip|host|env|method|expr|not)\b)/i.test(line)) out.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}

// ---------------------------------------------------------------- Debian's installed tree

export const DEBIAN_ETC = '/etc/apache2';

/**
 * Copies Debian's installed /etc/apache2 (links kept as links) into `dest` and checks that each of
 * the package's conffiles present there has the checksum dpkg recorded for it: the copy is the
 * stock 2.4 package's, not a hand-edited one. Returns the conffiles checked (relative to dest).
 */
export function copyDebianApache2(dest: string): string[] {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.cpSync(DEBIAN_ETC, dest, { recursive: true, verbatimSymlinks: true });
  const listed = execFileSync('dpkg-query', ['-W', '-f=${Conffiles}\\n', 'apache2'], { encoding: 'utf8' });
  const checked: string[] = [];
  const edited: string[] = [];
  for (const line of listed.split('\n')) {
    const m = /^\s*(\/etc\/apache2\/\S+)\s+([0-9a-f]{32})(\s+obsolete)?\s*$/.exec(line);
    if (!m || m[3]) continue;
    const rel = path.relative(DEBIAN_ETC, m[1]);
    const copy = path.join(dest, rel);
    if (!fs.existsSync(copy)) continue;
    checked.push(rel);
    if (createHash('md5').update(fs.readFileSync(copy)).digest('hex') !== m[2]) edited.push(rel);
  }
  if (edited.length > 0) throw new Error(`${DEBIAN_ETC} is not the package's: ${edited.join(', ')} differ from the conffile checksums dpkg recorded`);
  return checked;
}

/** The files a Debian tree's server reads: apache2.conf, ports.conf and what the *-enabled entries are (links followed when read). */
export function debianEnabledFiles(tree: string): string[] {
  const out = ['apache2.conf', 'ports.conf'];
  for (const d of ['conf-enabled', 'mods-enabled', 'sites-enabled']) for (const f of fs.readdirSync(path.join(tree, d)).sort()) out.push(`${d}/${f}`);
  return out;
}

export const DEBIAN_LAYOUT: Pick<Layout, 'serverRoot' | 'mainRel' | 'envvars'> = { serverRoot: '/etc/apache2', mainRel: 'apache2.conf', envvars: true };
export const UPSTREAM_LAYOUT: Pick<Layout, 'serverRoot' | 'mainRel' | 'envvars'> = { serverRoot: '/usr/local/apache2', mainRel: 'conf/httpd.conf', envvars: false };

// ---------------------------------------------------------------- servers

const started = new Set<{ stop(): Promise<void> }>();

function track<T extends { stop(): Promise<void> }>(server: T): T {
  const stop = server.stop.bind(server);
  const tracked = {
    ...server,
    stop: async () => {
      started.delete(tracked);
      await stop();
    },
  } as T;
  started.add(tracked);
  return tracked;
}

/** Stops every server this module started and that is still running. */
export async function stopLayoutServers(): Promise<void> {
  await Promise.all([...started].map((s) => s.stop()));
}

export interface ServedTree {
  readonly run: RunTree;
  readonly port: number;
  stop(): Promise<void>;
}

/** prepareRun (whole-server.ts) of `tree` into `work`, then started; `edit` may change the run copy first (a run substitution). */
export async function serveMapped(tree: string, layout: Pick<Layout, 'serverRoot' | 'mainRel' | 'envvars'>, work: string, ports: { http: number; https: number }, edit?: (root: string) => void): Promise<ServedTree> {
  const run = prepareRun(tree, layout, work, { ports });
  edit?.(run.root);
  const server: Started = await startTree(run);
  return track({ run, port: ports.http, stop: server.stop });
}

/**
 * A wrapper config for a small tree: runtime directory, pid file and error log inside `root`,
 * `Listen 127.0.0.1:port`, the given modules (those this httpd compiles in are skipped), then
 * `Include` of each config. The tree's own files are what the tool read; the wrapper is not.
 */
export function writeWrapper(root: string, port: number, includes: readonly string[], modules: readonly string[] = []): string {
  const builtin = builtinModules();
  const run = path.join(root, 'run');
  fs.mkdirSync(run, { recursive: true, mode: 0o755 });
  const lines = [
    '# test wrapper: what every test server needs, outside the tree the tool migrated',
    `DefaultRuntimeDir "${run}"`,
    `PidFile "${run}/httpd.pid"`,
    `Mutex file:${run} default`,
    `ErrorLog "${root}/error.log"`,
    `Listen 127.0.0.1:${port}`,
    ...modules.filter((m) => !builtin.has(`mod_${m}.c`)).map(loadModuleLine),
    ...includes.map((f) => `Include "${f}"`),
    '',
  ];
  const file = path.join(root, 'wrapper.conf');
  fs.writeFileSync(file, lines.join('\n'));
  return file;
}

/** Starts httpd on a wrapper config (see writeWrapper); rejects with httpd's output when it does not start. */
export async function serveWrapped(wrapper: string, port: number, root: string): Promise<RunningServer> {
  return track(await startServerChecked(wrapper, port, root, 15000));
}
