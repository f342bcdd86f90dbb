/** One replayed request: HTTP or HTTPS to 127.0.0.1 from a chosen loopback source address, on a connection of its own. */
import * as http from 'http';
import * as https from 'https';
import { PlannedRequest } from './request-set';

export type Status = number | string;

export function send(r: PlannedRequest, timeoutMs: number): Promise<Status> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Host: r.target.hostHeader, Connection: 'close', 'User-Agent': 'httpd-codemod-verify' };
    if (r.credential.user !== undefined) headers.Authorization = `Basic ${Buffer.from(`${r.credential.user}:${r.credential.password ?? ''}`).toString('base64')}`;
    const body = r.method === 'GET' ? undefined : 'a=b';
    if (body !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    let settled = false;
    const finish = (s: Status) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(s);
    };
    const options = { host: '127.0.0.1', port: r.target.port, path: r.uri, method: r.method, headers, localAddress: r.address, agent: false as const };
    const onResponse = (res: http.IncomingMessage) => {
      const status = res.statusCode ?? 0;
      res.on('error', () => finish(status));
      res.on('end', () => finish(status));
      res.resume();
    };
    const req = r.target.tls
      ? https.request({ ...options, servername: /^[\d.]+$/.test(r.target.hostHeader) ? undefined : r.target.hostHeader, rejectUnauthorized: false }, onResponse)
      : http.request(options, onResponse);
    const timer = setTimeout(() => {
      finish('timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish(`error: ${e.message}`));
    req.end(body);
  });
}
