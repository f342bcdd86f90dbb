/**
 * Shared harness for tests against a real httpd 2.4 (Debian's apache2).
 * `scripts/ensure-apache2.sh` (run by `npm test`) installs it on a fresh machine.
 * Servers listen on 127.0.0.1 only, run in their own process group (prefork
 * signals its whole group when it stops) and are stopped by the test that
 * started them.
 */
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';

export const APACHE2 = ['/usr/sbin/apache2', '/usr/local/apache2/bin/httpd', '/usr/sbin/httpd'].find((p) => fs.existsSync(p)) ?? 'apache2';
export const MODULES_DIR = '/usr/lib/apache2/modules';

/** Module source names compiled into the binary (`apache2 -l`): these must not be loaded again. */
export function builtinModules(): Set<string> {
  const out = execFileSync(APACHE2, ['-l'], { encoding: 'utf8' });
  return new Set(out.split('\n').map((l) => l.trim()).filter((l) => l.endsWith('.c')));
}

/** `LoadModule x_module /usr/lib/apache2/modules/mod_x.so` for each id not built in. */
export function loadModuleLines(ids: readonly string[]): string {
  const builtin = builtinModules();
  return ids
    .filter((id) => !builtin.has(`mod_${id}.c`))
    .map((id) => `LoadModule ${id}_module ${MODULES_DIR}/mod_${id}.so\n`)
    .join('');
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

/** Starts httpd in the foreground (-X is not used: prefork children serve as in production), in its own process group. */
export async function startServer(configFile: string, port: number, dir: string): Promise<RunningServer> {
  const child = spawn(APACHE2, ['-f', configFile, '-D', 'FOREGROUND'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const up = await waitForPort(port, Date.now() + 10000);
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => child.pid && safeKill(-child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  if (!up) {
    await stop();
    const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
    throw new Error(`httpd did not start on port ${port}: ${stderr}${log}`);
  }
  return { port, dir, stop };
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}

/**
 * Picks `count` distinct free TCP ports on 127.0.0.1 (all are held open at
 * once while picking, so no port is handed out twice).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => (s.listening ? s.close(() => resolve()) : resolve()))));
  }
}

/**
 * Like `startServer`, but rejects as soon as httpd exits (bad config, port
 * taken) instead of waiting out the timeout; the rejection carries httpd's
 * stderr and `dir/error.log`. The server runs in its own process group; `stop()`
 * sends SIGTERM to the group and SIGKILL (to the whole group) after 5 s.
 */
export async function startServerChecked(configFile: string, port: number, dir: string, timeoutMs = 10000): Promise<RunningServer> {
  const child = spawn(APACHE2, ['-f', configFile, '-D', 'FOREGROUND'], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let gone = false;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      gone = true;
      resolve();
    });
    child.on('error', (e) => {
      stderr += String(e);
      gone = true;
      resolve();
    });
  });
  const pid = child.pid;
  const stop = async () => {
    if (!pid) return;
    if (gone) return;
    safeKill(-pid, 'SIGTERM');
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      safeKill(-pid, 'SIGKILL');
    }, 5000);
    await exited;
    clearTimeout(timer);
    // The parent was killed hard: its children may still be in the group.
    if (forced) safeKill(-pid, 'SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  let up = false;
  while (!gone && !up && Date.now() < deadline) {
    up = await waitForPort(port, Math.min(deadline, Date.now() + 100));
  }
  if (!up || gone) {
    await stop();
    const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
    throw new Error(`httpd did not start on port ${port}${gone ? ` (exited, code ${child.exitCode ?? child.signalCode})` : ' (timeout)'}: ${stderr}${log}`);
  }
  return { port, dir, stop };
}
