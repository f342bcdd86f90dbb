/**
 * Shared harness for tests against a real httpd 2.4 (Debian's apache2).
 * `scripts/ensure-apache2.sh` (run by `npm test`) installs it on a fresh machine.
 * Servers listen on 127.0.0.1 only, run in their own process group (prefork
 * signals its whole group when it stops) and are stopped by the test that
 * started them.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { HttpdProcess, freePorts, spawnHttpd as spawnProduct } from '../../src/verify/httpd-process';

export const APACHE2 = ['/usr/sbin/apache2', '/usr/local/apache2/bin/httpd', '/usr/sbin/httpd'].find((p) => fs.existsSync(p)) ?? 'apache2';
export const MODULES_DIR = '/usr/lib/apache2/modules';

/** Module source names compiled into the binary (`apache2 -l`): these must not be loaded again. */
export function builtinModules(): Set<string> {
  const out = execFileSync(APACHE2, ['-l'], { encoding: 'utf8' });
  return new Set(out.split('\n').map((l) => l.trim()).filter((l) => l.endsWith('.c')));
}

/** `LoadModule x_module /usr/lib/apache2/modules/mod_x.so` (no line ending). */
export function loadModuleLine(id: string): string {
  return `LoadModule ${id}_module ${MODULES_DIR}/mod_${id}.so`;
}

/** `LoadModule x_module /usr/lib/apache2/modules/mod_x.so` for each id not built in. */
export function loadModuleLines(ids: readonly string[]): string {
  const builtin = builtinModules();
  return ids
    .filter((id) => !builtin.has(`mod_${id}.c`))
    .map((id) => `${loadModuleLine(id)}\n`)
    .join('');
}

/**
 * The first lines of a generated 2.2 test server's main config ({{ROOT}} is filled in when the tree
 * is written): ServerRoot, these modules, user and group, ServerName 127.0.0.1, an empty mime.types
 * and the document root {{ROOT}}/htdocs.
 */
export function serverHead22(modules: readonly string[]): string[] {
  return [
    'ServerRoot "{{ROOT}}"',
    ...modules.map(loadModuleLine),
    'User www-data',
    'Group www-data',
    'ServerName 127.0.0.1',
    'TypesConfig conf/mime.types',
    'DocumentRoot "{{ROOT}}/htdocs"',
  ];
}

export function tempDir(prefix = 'codemod-httpd-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface ConfigTest {
  readonly ok: boolean;
  readonly output: string;
}

/** `apache2 -t -f FILE`: whether httpd accepts the config, and everything it printed. */
export function configtest(file: string, extraArgs: readonly string[] = []): ConfigTest {
  const r = spawnSync(APACHE2, ['-t', '-f', file, ...extraArgs], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** Picks a free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The lines every standalone test server needs: ServerRoot, pid, logs, the
 * MPM, and a Listen on 127.0.0.1. `User`/`Group` are set because httpd runs as root here.
 */
export function baseConfig(dir: string, port: number, modules: readonly string[] = []): string {
  return [
    `ServerRoot "${dir}"`,
    `PidFile "${dir}/httpd.pid"`,
    `ErrorLog "${dir}/error.log"`,
    `Mutex file:${dir} default`,
    `DefaultRuntimeDir "${dir}"`,
    loadModuleLines(['mpm_prefork', 'authz_core', ...modules]).trimEnd(),
    `User www-data`,
    `Group www-data`,
    `Listen 127.0.0.1:${port}`,
    `ServerName 127.0.0.1`,
    '',
  ].join('\n');
}

export interface RunningServer {
  readonly port: number;
  readonly dir: string;
  stop(): Promise<void>;
}

async function waitForPort(port: number, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** Picks `count` distinct free TCP ports on 127.0.0.1 (the product's helper, src/verify/httpd-process.ts). */
export { freePorts };

/**
 * Starts httpd with `configFile` (see spawnHttpd) and waits until it listens on
 * `port`; rejects as soon as httpd exits (bad config, port taken) instead of
 * waiting out the timeout, with httpd's stderr and `dir/error.log`.
 */
export async function startServerChecked(configFile: string, port: number, dir: string, timeoutMs = 10000): Promise<RunningServer> {
  const httpd = spawnHttpd(['-f', configFile]);
  const deadline = Date.now() + timeoutMs;
  let up = false;
  while (!httpd.gone() && !up && Date.now() < deadline) {
    up = await waitForPort(port, Math.min(deadline, Date.now() + 100));
  }
  // the listening socket opens before the post-config hooks run (a module that cannot find its
  // provider, a piped log that cannot start): up is only up once httpd says it serves (AH00163)
  // (a config that logs elsewhere gets a settling time instead)
  const logFile = path.join(dir, 'error.log');
  const readLog = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  const upAt = Date.now();
  const ready = () => /AH00163/.test(readLog()) || (!fs.existsSync(logFile) && Date.now() - upAt > 1000);
  while (up && !httpd.gone() && !ready() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!up || httpd.gone() || !ready()) {
    await httpd.stop();
    throw new Error(`httpd did not start on port ${port}${httpd.gone() ? ` (exited, ${httpd.exitStatus()})` : ' (timeout)'}: ${httpd.stderr()}${readLog()}`);
  }
  return { port, dir, stop: httpd.stop };
}

export type { HttpdProcess };

/** Spawns `apache2 ARGS -D FOREGROUND` in its own process group (src/verify/httpd-process.ts, which --verify=requests uses). */
export function spawnHttpd(args: readonly string[], env?: NodeJS.ProcessEnv): HttpdProcess {
  return spawnProduct(APACHE2, args, env);
}

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body as latin1 (one character per byte). */
  readonly body: string;
}

/** One request to 127.0.0.1:`port` on a connection of its own (no agent, `Connection: close`). */
export function localRequest(port: number, urlPath: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, agent: false, headers: { Connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.setTimeout(10000, () => req.destroy(new Error(`timeout: GET ${urlPath}`)));
    req.on('error', reject);
    req.end();
  });
}
