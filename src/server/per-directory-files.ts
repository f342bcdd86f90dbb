/**
 * Per-directory files (.htaccess, or the names AccessFileName gives) below a <Directory>: those the
 * run placed in the server (discovery gives each the directory it is read for), and, for
 * directories whose files the run did not scan, those on disk (read, never written).
 *
 * Where a <Directory> path is on this machine: itself on the live tree (a main config whose
 * ServerRoot is where it lives, or a fragment naming absolute paths that exist here), mapped into
 * the copy otherwise (through the ServerRoot mapping). Paths that cannot be seen (outside a copy,
 * patterns) are said so, not guessed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FileFacts } from './file-facts';
import { configuredServerRoot } from './server-root';
import { ServerTree, SourceFile } from './types';

/** Roots httpd is built with (as in server-root.ts): a config without ServerRoot living there is the live tree. */
const DEFAULT_ROOTS = ['/etc/apache2', '/etc/httpd', '/usr/local/apache2'];
const WILDCARD = /[*?[]/;
/** Upper bound on directory entries looked at below one section. */
const MAX_ENTRIES = 50000;

export type Located = { readonly disk: string | null } | { readonly reason: string };

function sameDir(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

function under(prefix: string, p: string): string | null {
  if (p === prefix) return '';
  const withSep = prefix.endsWith('/') ? prefix : prefix + '/';
  return p.startsWith(withSep) ? p.slice(withSep.length) : null;
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Where a <Directory> path is on this machine. `disk: null` = a live path that does not exist (no
 * files there).
 */
export function locateDirectory(server: ServerTree, dirPath: string): Located {
  if (WILDCARD.test(dirPath)) return { reason: `${dirPath} is a wildcard pattern` };
  if (!path.isAbsolute(dirPath)) return { reason: `${dirPath} is not an absolute path` };
  const main = server.main;
  if (!main || server.serverRoot === null) {
    // a fragment names the live paths of the server it belongs to
    if (isDirectory(dirPath)) return { disk: dirPath };
    return { reason: `the main config is not part of this run and ${dirPath} does not exist on this machine` };
  }
  const root = server.serverRoot;
  const configured = configuredServerRoot(FileFacts.of(main.tree), main.realPath);
  const live = configured !== null ? sameDir(configured, root) : DEFAULT_ROOTS.includes(root);
  let disk: string;
  if (live) {
    disk = dirPath;
  } else {
    const from = configured !== null ? [configured] : DEFAULT_ROOTS;
    const prefix = from.find((p) => under(p, dirPath) !== null);
    if (prefix === undefined) {
      if (isDirectory(dirPath)) return { disk: dirPath };
      return { reason: `${dirPath} lies outside ServerRoot ${from.join(' / ')}, and this run holds a copy of the tree (${root}), not the live files` };
    }
    disk = path.join(root, under(prefix, dirPath) as string);
  }
  if (isDirectory(disk)) return { disk };
  return live ? { disk: null } : { reason: `${dirPath} is not in the copied tree (${disk} does not exist)` };
}

export interface PerDirectoryFile {
  /** Directory as httpd sees it (the config's paths). */
  readonly logicalDir: string;
  /** The file on this machine. */
  readonly disk: string;
  /** Path relative to the section's directory, for messages. */
  readonly rel: string;
  /** The server's own file, when the run placed it there (its tree is the migrated one). */
  readonly file: SourceFile | null;
}

/** Per-directory files on disk below `disk` (symlinked directories are not followed). */
function onDisk(disk: string, logical: string, names: readonly string[]): PerDirectoryFile[] {
  const out: PerDirectoryFile[] = [];
  let seen = 0;
  const visit = (dir: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile() && names.includes(e.name)) {
        out.push({ logicalDir: rel ? `${logical === '/' ? '' : logical}/${rel}` : logical, disk: path.join(dir, e.name), rel: childRel, file: null });
      } else if (e.isDirectory() && !e.isSymbolicLink()) {
        visit(path.join(dir, e.name), childRel);
      }
    }
  };
  visit(disk, '');
  return out;
}

function within(dir: string, p: string): string | null {
  const d = dir === '/' ? '' : dir.replace(/\/+$/, '');
  if (p === dir || p === d) return '';
  return p.startsWith(d + '/') ? p.slice(d.length + 1) : null;
}

/**
 * The per-directory files below a <Directory> path: the server's own (placed by discovery), and
 * those on disk that the run did not scan. `reason` when the path cannot be looked at and the run
 * holds none of its files.
 */
export function perDirectoryFiles(server: ServerTree, dirPath: string, names: readonly string[]): { files: PerDirectoryFile[] } | { reason: string } {
  const own: PerDirectoryFile[] = [];
  for (const f of server.files) {
    if (f.role !== 'htaccess' || f.directory === undefined) continue;
    const rel = within(dirPath, f.directory);
    if (rel === null) continue;
    const name = path.basename(f.realPath);
    own.push({ logicalDir: f.directory, disk: f.realPath, rel: rel ? `${rel}/${name}` : name, file: f });
  }
  const located = locateDirectory(server, dirPath);
  if ('reason' in located) return own.length > 0 ? { files: own } : located;
  if (located.disk === null) return { files: own };
  const known = new Set(own.map((f) => safeReal(f.disk)));
  const extra = onDisk(located.disk, dirPath, names).filter((f) => !known.has(safeReal(f.disk)));
  return { files: [...own, ...extra] };
}

function safeReal(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}
