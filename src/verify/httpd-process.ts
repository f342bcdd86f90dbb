/**
 * An httpd started in the foreground in its own process group (prefork signals its whole group
 * when it stops), and stopped by its group: SIGTERM, then SIGKILL after a grace period. A stop is
 * also sent, by group, when this process exits normally with the server still running.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';

export interface HttpdProcess {
  /** What httpd wrote to stderr so far. */
  stderr(): string;
  /** Whether httpd has exited (or could not be spawned). */
  gone(): boolean;
  /** `code N` or `signal S`, once gone. */
  exitStatus(): string;
  /** SIGTERM to the group, SIGKILL to the group after `graceMs`; resolves when httpd has exited. */
  stop(graceMs?: number): Promise<void>;
}

function safeKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}

const running = new Set<number>();
let exitHook = false;

const TIMEOUT = ['/usr/bin/timeout', '/bin/timeout'].find((p) => fs.existsSync(p)) ?? null;

/**
 * Spawns `BINARY ARGS -D FOREGROUND` detached (its own process group), stderr captured as latin1.
 * With `maxLifetimeSec`, coreutils' `timeout` leads the group and ends it (TERM, KILL 5 s later)
 * after that long whatever happens to this process: a server cannot outlive a killed run for long.
 */
export function spawnHttpd(binary: string, args: readonly string[], env?: NodeJS.ProcessEnv, maxLifetimeSec?: number): HttpdProcess {
  const command = [binary, ...args, '-D', 'FOREGROUND'];
  const argv = maxLifetimeSec && TIMEOUT ? [TIMEOUT, '--kill-after=5', String(maxLifetimeSec), ...command] : command;
  const child = spawn(argv[0], argv.slice(1), { detached: true, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let gone = false;
  const pid = child.pid;
  if (pid) running.add(pid);
  if (!exitHook) {
    exitHook = true;
    process.on('exit', () => {
      for (const p of running) safeKill(-p, 'SIGKILL');
    });
  }
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('latin1')));
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      gone = true;
      if (pid) running.delete(pid);
      resolve();
    });
    child.on('error', (e) => {
      stderr += String(e);
      gone = true;
      if (pid) running.delete(pid);
      resolve();
    });
  });
  const stop = async (graceMs = 5000) => {
    if (!pid || gone) return;
    safeKill(-pid, 'SIGTERM');
    let forced = false;
    const timer = setTimeout(() => {
      forced = true;
      safeKill(-pid, 'SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
    // the parent was killed hard: its children may still be in the group
    if (forced) safeKill(-pid, 'SIGKILL');
  };
  return {
    stderr: () => stderr,
    gone: () => gone,
    exitStatus: () => (child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`),
    stop,
  };
}

/** Whether something accepts connections on 127.0.0.1:port. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * Picks `count` distinct free TCP ports on 127.0.0.1 (all held open at once while picking, so no
 * port is handed out twice).
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
