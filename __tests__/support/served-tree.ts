/**
 * Small helpers for tests that serve a whole config tree (main config +
 * .htaccess files on disk) with a real httpd: write the files world-readable,
 * start/stop servers tracked for afterAll, and GET a path from a chosen
 * 127.x source address.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { RunningServer, startServerChecked } from './httpd';

export function writeTreeFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
  fs.writeFileSync(file, Buffer.from(text, 'latin1'), { mode: 0o644 });
}

/** httpd's children run as www-data: make everything below `root` readable (and `root`'s parents traversable). */
export function makeWorldReadable(root: string): void {
  const visit = (p: string) => {
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      fs.chmodSync(p, 0o755);
      for (const e of fs.readdirSync(p)) visit(path.join(p, e));
    } else fs.chmodSync(p, 0o644);
  };
  visit(root);
}

const running = new Set<RunningServer>();

export async function startTracked(configFile: string, port: number, dir: string): Promise<RunningServer> {
  const server = await startServerChecked(configFile, port, dir, 15000);
  const tracked: RunningServer = {
    port,
    dir,
    stop: async () => {
      running.delete(tracked);
      await server.stop();
    },
  };
  running.add(tracked);
  return tracked;
}

export async function stopTracked(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
}

export interface Answer {
  readonly status: number | string;
  readonly body: string;
}

/** GET (or another method) `urlPath` from `address`, no keep-alive; a transport failure is a string status. */
export function fetchFrom(port: number, urlPath: string, address: string, method = 'GET', timeoutMs = 3000): Promise<Answer> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: Answer) => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        resolve(a);
      }
    };
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, localAddress: address, agent: false, headers: { Connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => finish({ status: res.statusCode ?? 'no status', body }));
      res.on('error', (e) => finish({ status: `error: ${e.message}`, body }));
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: 'timeout', body: '' });
    }, timeoutMs);
    req.on('error', (e) => finish({ status: `error: ${e.message}`, body: '' }));
    req.end();
  });
}
