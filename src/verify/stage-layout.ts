/**
 * The temporary directory one server is staged in. Nothing of it is read by the user's httpd
 * and nothing outside it is written:
 *
 *   root/   the staged ServerRoot: the migrated config files at their places, every other entry
 *           of the original ServerRoot's directories as a symlink to the original (read-only use)
 *   fs/     config files outside ServerRoot, at their absolute path below it
 *   run/    PidFile, Mutex and lock directories, DefaultRuntimeDir, caches, sockets
 *   logs/   every log file
 *   docs/   (--verify=requests) empty skeletons of DocumentRoot, Alias and <Directory> paths,
 *           holding only the migrated per-directory files
 *   auth/   (--verify=requests) the throw-away password and group files
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface StageLayout {
  readonly dir: string;
  readonly root: string;
  readonly outside: string;
  readonly run: string;
  readonly logs: string;
  readonly docs: string;
  readonly auth: string;
}

/**
 * Creates the stage. When httpd will run as root it switches to its User for the children,
 * which must reach docs/, auth/ and run/: those are world-traversable; root/ (copies of the
 * config, which may hold secrets) stays private.
 */
export function createStage(): StageLayout {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-verify-'));
  const layout: StageLayout = {
    dir,
    root: path.join(dir, 'root'),
    outside: path.join(dir, 'fs'),
    run: path.join(dir, 'run'),
    logs: path.join(dir, 'logs'),
    docs: path.join(dir, 'docs'),
    auth: path.join(dir, 'auth'),
  };
  fs.chmodSync(dir, 0o711);
  for (const d of [layout.root, layout.outside]) fs.mkdirSync(d, { mode: 0o700 });
  for (const d of [layout.run, layout.logs, layout.docs, layout.auth]) {
    fs.mkdirSync(d);
    fs.chmodSync(d, 0o755);
  }
  return layout;
}

export function removeStage(layout: StageLayout): void {
  fs.rmSync(layout.dir, { recursive: true, force: true });
}

/** mkdir -p with every directory it creates world-traversable (children running as httpd's User walk them). */
export function makeDirs(dir: string): void {
  if (fs.existsSync(dir)) return;
  makeDirs(path.dirname(dir));
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o755);
}
