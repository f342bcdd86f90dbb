/**
 * Shared by the report tests (SARIF, GitHub annotations, --report-dir, progress, the browser):
 * the built `codemod` bin run as a user would, and a small fleet whose servers reach every
 * status and whose findings have every severity, file-level ones and awkward file names.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const ROOT = path.join(__dirname, '..', '..');
export const BIN = path.join(ROOT, 'dist', 'src', 'cli.js');

export interface Run {
  readonly status: number | null;
  /** Standard output as bytes (latin1, one character per byte). */
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built bin in `cwd` with CI set (no progress) unless `env` says otherwise. */
export function codemod(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'latin1', maxBuffer: 1 << 28, env: { ...process.env, CI: 'true', ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function writeFile(root: string, rel: string, text: string): string {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, Buffer.from(text, 'latin1'));
  return p;
}

/** The main config of `fleet/web1`: a manual finding (line 3), review (line 6), info (line 5), file-level findings. */
export const WEB1 =
  'ServerRoot "/etc/httpd"\n' +
  'Listen 80\n' +
  'LoadModule php5_module modules/libphp5.so\n' +
  'LoadModule authz_host_module modules/mod_authz_host.so\n' +
  'MaxClients 150\n' +
  'DefaultType text/plain\n' +
  '<Directory "/var/www">\n' +
  '    Order allow,deny\n' +
  '    Allow from all\n' +
  '</Directory>\n';

/**
 * Under `root`/fleet: web1 (manual), web2 (review), loose/max.conf (migrated), loose/listen.conf
 * (unchanged), loose/broken.conf (error: a section never closed); with `oddName`, also a fragment
 * whose name holds a space, a comma, a colon and a percent sign.
 */
export function buildReportFleet(root: string, options: { oddName?: boolean } = {}): string {
  writeFile(root, 'fleet/web1/httpd.conf', WEB1);
  writeFile(root, 'fleet/web2/httpd.conf', 'ServerRoot "/etc/httpd"\nListen 80\nMaxRequestsPerChild 100\nNameVirtualHost *:80\n');
  writeFile(root, 'fleet/loose/max.conf', 'MaxClients 5\n');
  writeFile(root, 'fleet/loose/listen.conf', '# nothing to do\nListen 8080\n');
  writeFile(root, 'fleet/loose/broken.conf', '<Directory /srv/y>\nMaxClients 5\n');
  if (options.oddName) writeFile(root, 'fleet/loose/odd, name: 100%.conf', 'KeepAlive 0\n');
  return path.join(root, 'fleet');
}

/** Every file under dir → its bytes (latin1). */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p).toString('latin1');
    }
  };
  walk(dir);
  return out;
}
