/**
 * Differential harness for access-control migrations (Order/Allow/Deny/Satisfy
 * → Require). Every case is served twice by real httpd 2.4:
 *
 *  - baseline: 2.4 + mod_access_compat running the case's 2.2 text, with
 *    `AllowOverride All` on the case's docroot (2.2's default) and the case's
 *    optional `baselineExtra`;
 *  - migrated: the same modules WITHOUT mod_access_compat running the 2.4 text
 *    (nothing implicit: if .htaccess files need AllowOverride, the migrated text
 *    must say so, as 2.4's default differs).
 *
 * Layout: one httpd per side for the whole batch. Each case gets its own
 * `Listen 127.0.0.1:PORT` + `<VirtualHost 127.0.0.1:PORT>` and its own docroot
 * (`ROOT/SIDE/docs/cNNN`, `{{DOCROOT}}`), so its `<Directory>`/`<Location>`
 * sections (placed inside the vhost) cannot apply to another case. An extra
 * control vhost with no access configuration must answer 200 to every request
 * on both sides; if it does not, every result of the batch carries an error.
 *
 * Each case is requested from 127.0.0.1, 127.0.0.5, 127.0.1.9, 127.1.2.3
 * (`localAddress`), with no / alice / bob / bad-password Basic credentials,
 * GET and POST, with and without `X-Trigger: 1` (the server sets env `trigger`
 * from it), for each path. Statuses must be equal on both sides; a transport
 * failure (timeout, reset) on either side always counts as a mismatch.
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { baseConfig, configtest, ConfigTest, freePorts, RunningServer, startServerChecked, tempDir } from './httpd';

export interface AccessCase {
  name: string;
  /** 2.2 access config, placed inside the case's vhost; may use {{DOCROOT}}, {{HTPASSWD}}, {{GROUPS}}. */
  original: string;
  /** Expected 2.4 text for the same place. */
  migrated: string;
  /** Directory relative to the docroot ('' or '.' = docroot) → .htaccess content per side. */
  htaccess?: Record<string, { original: string; migrated: string }>;
  /** URL paths to request; default ['/', '/sub/']. */
  paths?: string[];
  /** Extra directives for the baseline only, appended after `original` inside the vhost. */
  baselineExtra?: string;
}

/** An HTTP status, or a description of a transport failure ('timeout', 'error: ...'). */
export type Status = number | string;

export interface Observation {
  request: string;
  baseline: Status;
  migrated: Status;
}

export interface Result {
  name: string;
  /** Requests whose statuses differ (or where either side gave no HTTP status). */
  mismatches: Observation[];
  /** Mismatches where the migrated side granted (2xx/3xx) and the baseline did not. */
  widened: Observation[];
  /** Number of distinct requests sent (each to both servers). */
  requests: number;
  /** Every request with both statuses, in request order. */
  observations: Observation[];
  /** Set when the case could not be run (config rejected, server did not start, isolation broken). */
  error?: string;
  /** Tail of the case's vhost error logs, when there were mismatches. */
  logs?: { baseline: string; migrated: string };
}

export interface DifferentialOptions {
  /** Per-request timeout in ms (default 2000). */
  timeoutMs?: number;
  /** Concurrent requests across both servers (default 16). */
  concurrency?: number;
  /** Keep the temporary ServerRoot (for debugging); its path is printed. */
  keep?: boolean;
  /** Modules both servers load besides ACCESS_MODULES (e.g. authn_dbm, authz_dbm). */
  extraModules?: readonly string[];
  /** Modules only the migrated server loads (e.g. access_compat, when a migration keeps some old rules). */
  migratedModules?: readonly string[];
}

// Case text builders: `{{DOCROOT}}`, `{{HTPASSWD}}` and `{{GROUPS}}` are filled in per case.

/** The authentication lines for the harness's users and groups. */
export const AUTH = ['AuthType Basic', 'AuthName "restricted"', 'AuthUserFile {{HTPASSWD}}', 'AuthGroupFile {{GROUPS}}'];

/** `<open>`, the lines indented one level, and the closing tag. */
export function section(open: string, lines: readonly string[]): string {
  const name = open.split(' ')[0];
  return [`<${open}>`, ...lines.map((l) => `    ${l}`), `</${name}>`].join('\n');
}
export const dir = (...lines: string[]): string => section('Directory {{DOCROOT}}', lines);
export const sub = (...lines: string[]): string => section('Directory {{DOCROOT}}/sub', lines);
export const loc = (path: string, ...lines: string[]): string => section(`Location ${path}`, lines);

export const SOURCE_ADDRESSES = ['127.0.0.1', '127.0.0.5', '127.0.1.9', '127.1.2.3'] as const;
export const CREDENTIALS = {
  none: null,
  alice: { user: 'alice', password: 'secret' },
  bob: { user: 'bob', password: 'secret' },
  'alice-bad': { user: 'alice', password: 'wrong' },
} as const;
export type CredentialName = keyof typeof CREDENTIALS;
export const METHODS = ['GET', 'POST'] as const;
export const DEFAULT_PATHS = ['/', '/sub/'];

/** Modules of both servers (mpm_prefork and authz_core come from baseConfig); the baseline adds access_compat. */
export const ACCESS_MODULES = [
  'authz_host',
  'authz_user',
  'authz_groupfile',
  'authn_core',
  'authn_file',
  'auth_basic',
  'setenvif',
  'alias',
  'mime',
  'dir',
  'env',
] as const;

type Side = 'baseline' | 'migrated';
const SIDES: readonly Side[] = ['baseline', 'migrated'];

export interface RequestSpec {
  path: string;
  /** Host header (name-based virtual hosts); default: none sent beyond Node's own (127.0.0.1:PORT). */
  host?: string;
  address: string;
  credential: CredentialName;
  /** GET and POST in the matrix; the access fuzzer also sends PUT and DELETE. */
  method: (typeof METHODS)[number] | 'PUT' | 'DELETE';
  trigger: boolean;
}

/** Stable text for a request, e.g. `POST /sub/ from 127.0.0.5 as alice-bad +X-Trigger`. */
export function describeRequest(r: RequestSpec): string {
  return `${r.method} ${r.host ? `//${r.host}` : ''}${r.path} from ${r.address} as ${r.credential}${r.trigger ? ' +X-Trigger' : ''}`;
}

export function requestMatrix(paths: readonly string[] = DEFAULT_PATHS): RequestSpec[] {
  const out: RequestSpec[] = [];
  for (const p of paths)
    for (const address of SOURCE_ADDRESSES)
      for (const credential of Object.keys(CREDENTIALS) as CredentialName[])
        for (const method of METHODS) for (const trigger of [false, true]) out.push({ path: p, address, credential, method, trigger });
  return out;
}

/** Whether a status let the request through (2xx or 3xx). */
export function isGranted(s: Status): boolean {
  return typeof s === 'number' && s >= 200 && s < 400;
}

// ---------------------------------------------------------------- files

let htpasswdCache: string | undefined;

/** alice:secret and bob:secret; bcrypt via `htpasswd -nbB` when apache2-utils is installed, else {SHA}. */
export function htpasswdText(): string {
  if (htpasswdCache !== undefined) return htpasswdCache;
  const line = (user: string, password: string): string => {
    try {
      const out = execFileSync('htpasswd', ['-nbB', '-C', '4', user, password], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (out.startsWith(`${user}:$2`)) return out;
    } catch {
      /* not installed */
    }
    return `${user}:{SHA}${createHash('sha1').update(password).digest('base64')}`;
  };
  htpasswdCache = `${line('alice', 'secret')}\n${line('bob', 'secret')}\n`;
  return htpasswdCache;
}

function writeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  fs.writeFileSync(file, text, { mode: 0o644 });
}

/** httpd's children run as www-data: everything under the ServerRoot must be world-readable. */
function makeReadable(root: string): void {
  fs.chmodSync(root, 0o755);
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, entry.name);
    if (entry.isDirectory()) makeReadable(p);
    else fs.chmodSync(p, 0o644);
  }
}

interface Placed {
  index: number;
  c: AccessCase;
  port: number;
}

interface SideLayout {
  root: string;
  htpasswd: string;
  groups: string;
  docroot(index: number): string;
  caseLog(index: number): string;
}

function layout(root: string): SideLayout {
  return {
    root,
    htpasswd: path.join(root, 'htpasswd'),
    groups: path.join(root, 'htgroups'),
    docroot: (i) => path.join(root, 'docs', `c${String(i).padStart(3, '0')}`),
    caseLog: (i) => path.join(root, 'logs', `c${String(i).padStart(3, '0')}.log`),
  };
}

function substitute(text: string, l: SideLayout, index: number): string {
  return text.split('{{DOCROOT}}').join(l.docroot(index)).split('{{HTPASSWD}}').join(l.htpasswd).split('{{GROUPS}}').join(l.groups);
}

function writeTree(l: SideLayout, side: Side, cases: readonly AccessCase[]): void {
  writeFile(l.htpasswd, htpasswdText());
  writeFile(l.groups, 'admins: alice\n');
  writeFile(path.join(l.root, 'control', 'index.html'), 'control\n');
  writeFile(path.join(l.root, 'control', 'sub', 'index.html'), 'control sub\n');
  fs.mkdirSync(path.join(l.root, 'logs'), { recursive: true });
  cases.forEach((c, i) => {
    const doc = l.docroot(i);
    for (const rel of ['index.html', 'file.html', 'sub/index.html', 'sub/file.html']) writeFile(path.join(doc, rel), `${c.name}: ${rel}\n`);
    for (const [rel, content] of Object.entries(c.htaccess ?? {})) {
      const dir = path.join(doc, rel);
      if (path.relative(doc, dir).startsWith('..')) throw new Error(`${c.name}: .htaccess dir ${rel} is outside the docroot`);
      if (!fs.existsSync(path.join(dir, 'index.html'))) writeFile(path.join(dir, 'index.html'), `${c.name}: ${rel}/index.html\n`);
      writeFile(path.join(dir, '.htaccess'), substitute(side === 'baseline' ? content.original : content.migrated, l, i));
    }
  });
  makeReadable(l.root);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() ? `    ${line}` : ''))
    .join('\n');
}

function renderConfig(l: SideLayout, side: Side, controlPort: number, placed: readonly Placed[], options: DifferentialOptions = {}): string {
  const extra = [...(options.extraModules ?? []), ...(side === 'migrated' ? options.migratedModules ?? [] : [])];
  const modules = side === 'baseline' ? [...ACCESS_MODULES, ...extra, 'access_compat'] : [...ACCESS_MODULES, ...extra.filter((m, i, all) => all.indexOf(m) === i)];
  const parts = [
    baseConfig(l.root, controlPort, modules),
    'LogLevel warn',
    'StartServers 6',
    'MinSpareServers 6',
    'MaxSpareServers 16',
    'ServerLimit 24',
    'MaxRequestWorkers 24',
    'KeepAlive Off',
    'Timeout 10',
    'HostnameLookups Off',
    'TypesConfig /dev/null',
    'DirectoryIndex index.html',
    'SetEnvIf X-Trigger "^1$" trigger',
    `DocumentRoot "${l.root}/control"`,
    ...placed.map((p) => `Listen 127.0.0.1:${p.port}`),
    '',
    `# isolation control: no access configuration at all`,
    `<VirtualHost 127.0.0.1:${controlPort}>`,
    `    DocumentRoot "${l.root}/control"`,
    `    ErrorLog "${l.root}/logs/control.log"`,
    '</VirtualHost>',
  ];
  for (const { index, c, port } of placed) {
    const doc = l.docroot(index);
    parts.push(
      '',
      `# case ${index}: ${c.name.replace(/\s+/g, ' ')}`,
      `<VirtualHost 127.0.0.1:${port}>`,
      `    DocumentRoot "${doc}"`,
      `    ErrorLog "${l.caseLog(index)}"`,
    );
    if (side === 'baseline') parts.push(`    # 2.2's default`, `    <Directory "${doc}">`, '        AllowOverride All', '    </Directory>');
    parts.push(indent(substitute(side === 'baseline' ? c.original : c.migrated, l, index)));
    if (side === 'baseline' && c.baselineExtra) parts.push(indent(substitute(c.baselineExtra, l, index)));
    parts.push('</VirtualHost>');
  }
  return parts.join('\n') + '\n';
}

// ---------------------------------------------------------------- configtest helper

/**
 * `apache2 -t` of one access body as the harness would serve it, WITHOUT
 * mod_access_compat unless `compat` is set (so a migrated text must be valid
 * 2.4 on its own). Placeholders are substituted; .htaccess files are not
 * parsed by `-t`.
 */
export function configtestAccessBody(body: string, options: { compat?: boolean; modules?: readonly string[] } = {}): ConfigTest {
  const root = tempDir('access-configtest-');
  try {
    const side: Side = options.compat ? 'baseline' : 'migrated';
    const l = layout(root);
    const c: AccessCase = { name: 'configtest', original: body, migrated: body };
    writeTree(l, side, [c]);
    const file = path.join(root, 'httpd.conf');
    fs.writeFileSync(file, renderConfig(l, side, 8, [{ index: 0, c, port: 9 }], { extraModules: options.modules }));
    const r = configtest(file);
    return { ok: r.ok, output: r.output.split(root).join('ROOT') };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** configtest of a case's migrated text on 2.4 without mod_access_compat. */
export function configtestMigrated(body: string): ConfigTest {
  return configtestAccessBody(body, { compat: false });
}

// ---------------------------------------------------------------- requests

/** One request of the matrix to 127.0.0.1:`port`, from the spec's source address; a transport failure is a string status. */
export function send(port: number, spec: RequestSpec, timeoutMs: number): Promise<Status> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Connection: 'close' };
    if (spec.host) headers.Host = spec.host;
    const cred = CREDENTIALS[spec.credential];
    if (cred) headers.Authorization = `Basic ${Buffer.from(`${cred.user}:${cred.password}`).toString('base64')}`;
    if (spec.trigger) headers['X-Trigger'] = '1';
    const body = spec.method === 'POST' || spec.method === 'PUT' ? 'a=b' : undefined;
    if (body !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    let settled = false;
    let status: number | undefined;
    const finish = (s: Status): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(s);
    };
    const req = http.request(
      { host: '127.0.0.1', port, path: spec.path, method: spec.method, headers, localAddress: spec.address, agent: false },
      (res) => {
        status = res.statusCode;
        res.on('error', (e) => finish(`error after ${status}: ${e.message}`));
        res.on('end', () => finish(status ?? 'no status'));
        res.resume();
      },
    );
    const timer = setTimeout(() => {
      finish(status === undefined ? 'timeout' : `timeout after ${status}`);
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish(`error: ${e.message}`));
    req.end(body);
  });
}

/** Runs the tasks, at most `limit` at once; results in task order. */
export async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const out: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, worker));
  return out;
}

// ---------------------------------------------------------------- servers

const running = new Set<RunningServer>();

/** Stops every server this module started and has not stopped yet (for afterAll, in case a run was abandoned). */
export async function stopAllDifferentialServers(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
  running.clear();
}

async function start(file: string, port: number, dir: string): Promise<RunningServer> {
  const server = await startServerChecked(file, port, dir, 15000);
  const tracked: RunningServer = {
    port: server.port,
    dir: server.dir,
    stop: async () => {
      running.delete(tracked);
      await server.stop();
    },
  };
  running.add(tracked);
  return tracked;
}

/** The last `lines` distinct messages of an error log (timestamp, pid and client port stripped). */
function tail(file: string, lines = 20): string {
  if (!fs.existsSync(file)) return '';
  const seen = new Set<string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = line
      .replace(/^\[[^\]]*\] /, '')
      .replace(/ \[pid [^\]]*\]/, '')
      .replace(/(\[client [^\]:]+):\d+\]/, '$1]')
      .trim();
    if (!m) continue;
    seen.delete(m);
    seen.add(m);
  }
  return [...seen].slice(-lines).join('\n');
}

function scrub(text: string, root: string): string {
  return text.split(root).join('ROOT');
}

/**
 * Runs all cases against one baseline and one migrated httpd. A case whose
 * text is rejected by `apache2 -t` (on either side) gets `error` with httpd's
 * output and is left out; the other cases still run.
 */
export async function runDifferential(cases: readonly AccessCase[], options: DifferentialOptions = {}): Promise<Result[]> {
  const timeoutMs = options.timeoutMs ?? 2000;
  const concurrency = options.concurrency ?? 16;
  const dir = tempDir('access-diff-');
  const layouts: Record<Side, SideLayout> = { baseline: layout(path.join(dir, 'baseline')), migrated: layout(path.join(dir, 'migrated')) };
  const errors = new Map<number, string>();
  const servers: RunningServer[] = [];
  const results: Result[] = cases.map((c) => ({ name: c.name, mismatches: [], widened: [], requests: 0, observations: [] }));
  try {
    fs.chmodSync(dir, 0o755);
    for (const side of SIDES) writeTree(layouts[side], side, cases);

    // 1. configtest: the whole batch, and each case alone when the batch fails.
    let active = cases.map((_, i) => i);
    const confFile = (side: Side, suffix = ''): string => path.join(layouts[side].root, `httpd${suffix}.conf`);
    const check = (side: Side, placed: Placed[], suffix = ''): ConfigTest => {
      fs.writeFileSync(confFile(side, suffix), renderConfig(layouts[side], side, 8, placed, options));
      return configtest(confFile(side, suffix));
    };
    const place = (indices: number[], ports?: number[]): Placed[] => indices.map((index, k) => ({ index, c: cases[index], port: ports ? ports[k] : 9 + k }));
    for (const side of SIDES) {
      const whole = check(side, place(active));
      if (whole.ok) continue;
      for (const i of active) {
        const alone = check(side, place([i]), `-c${i}`);
        if (!alone.ok) errors.set(i, `${side} config rejected by apache2 -t:\n${scrub(alone.output, dir)}`);
      }
      active = active.filter((i) => !errors.has(i));
      const again = check(side, place(active));
      if (!again.ok) {
        for (const i of active) errors.set(i, `${side} config of the batch rejected by apache2 -t:\n${scrub(again.output, dir)}`);
        active = [];
      }
    }

    // 2. start both servers (retry once with fresh ports if a port was taken meanwhile).
    let ports: Record<Side, { control: number; cases: number[] }> | undefined;
    if (active.length > 0) {
      for (let attempt = 1; ; attempt++) {
        const all = await freePorts(2 * (active.length + 1));
        const per = active.length + 1;
        ports = {
          baseline: { control: all[0], cases: all.slice(1, per) },
          migrated: { control: all[per], cases: all.slice(per + 1) },
        };
        try {
          for (const side of SIDES) {
            const l = layouts[side];
            fs.writeFileSync(confFile(side), renderConfig(l, side, ports[side].control, place(active, ports[side].cases), options));
            servers.push(await start(confFile(side), ports[side].control, l.root));
          }
          break;
        } catch (e) {
          await Promise.all(servers.splice(0).map((s) => s.stop()));
          const message = scrub(String(e instanceof Error ? e.message : e), dir);
          if (attempt < 2 && /Address already in use|could not bind/i.test(message)) continue;
          for (const i of active) errors.set(i, `server did not start:\n${message}`);
          active = [];
          ports = undefined;
          break;
        }
      }
    }

    // 3. requests: the control vhost and every active case, on both servers.
    if (ports && active.length > 0) {
      const p = ports;
      interface Job {
        target: number; // -1 = control
        spec: RequestSpec;
      }
      const jobs: Job[] = requestMatrix(DEFAULT_PATHS).map((spec) => ({ target: -1, spec }));
      active.forEach((index) => {
        for (const spec of requestMatrix(cases[index].paths ?? DEFAULT_PATHS)) jobs.push({ target: index, spec });
      });
      const tasks: Array<() => Promise<Status>> = [];
      for (const job of jobs) {
        for (const side of SIDES) {
          const port = job.target < 0 ? p[side].control : p[side].cases[active.indexOf(job.target)];
          tasks.push(() => send(port, job.spec, timeoutMs));
        }
      }
      const statuses = await pool(tasks, concurrency);

      const control: Observation[] = [];
      jobs.forEach((job, k) => {
        const o: Observation = { request: describeRequest(job.spec), baseline: statuses[2 * k], migrated: statuses[2 * k + 1] };
        if (job.target < 0) {
          control.push(o);
          return;
        }
        const r = results[job.target];
        r.requests++;
        r.observations.push(o);
        if (o.baseline !== o.migrated || typeof o.baseline !== 'number' || typeof o.migrated !== 'number') {
          r.mismatches.push(o);
          if (isGranted(o.migrated) && !isGranted(o.baseline)) r.widened.push(o);
        }
      });
      const badControl = control.filter((o) => o.baseline !== 200 || o.migrated !== 200);
      if (badControl.length > 0) {
        const sample = badControl.slice(0, 5).map((o) => `${o.request}: baseline ${o.baseline}, migrated ${o.migrated}`);
        for (const i of active) errors.set(i, `isolation control vhost did not answer 200 to everything (${badControl.length} requests), e.g.\n${sample.join('\n')}`);
      }
      for (const i of active) {
        if (results[i].mismatches.length > 0) {
          results[i].logs = {
            baseline: scrub(tail(layouts.baseline.caseLog(i)), dir),
            migrated: scrub(tail(layouts.migrated.caseLog(i)), dir),
          };
        }
      }
    }
    for (const [i, message] of errors) results[i].error = message;
    return results;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    if (options.keep) process.stderr.write(`access-differential: kept ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Human-readable summary of a result, for assertion messages. */
export function formatResult(r: Result, max = 12): string {
  const lines = [`${r.name}: ${r.requests} requests, ${r.mismatches.length} mismatches, ${r.widened.length} widened`];
  if (r.error) lines.push(`error: ${r.error}`);
  for (const o of r.mismatches.slice(0, max)) lines.push(`  ${o.request}: baseline ${o.baseline}, migrated ${o.migrated}${r.widened.includes(o) ? '  (WIDENED)' : ''}`);
  if (r.mismatches.length > max) lines.push(`  … ${r.mismatches.length - max} more`);
  if (r.logs) lines.push(`baseline log:\n${r.logs.baseline}`, `migrated log:\n${r.logs.migrated}`);
  return lines.join('\n');
}
