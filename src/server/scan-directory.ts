/**
 * Walks a directory for configuration files. Symlinked directories are not
 * descended (a2enmod-style trees link files, not directories, and a link to
 * `/` must not take the scan with it); symlinked files are followed.
 *
 * The walk is one readdir (with file types) per directory and nothing else for
 * plain files: a server tree of 3,000 document roots is 6,000 directories, and
 * fast-glob (used before) spent as long matching its ignore patterns against
 * every entry as the system spent reading the directories. It leaves out what
 * fast-glob's ignore patterns left out (node_modules, .git and stage directories
 * at any depth; see isIgnored).
 */
import * as fs from 'fs';
import * as path from 'path';
import { comparePaths } from './display-path';
import { classifyScannedFile } from './file-names';
import { RealPaths } from './real-paths';

export interface ScanResult {
  /** Absolute paths of files whose names mark them as configuration. */
  readonly configFiles: string[];
  /** Absolute paths of other regular files (kept in case an Include reaches them). */
  readonly otherFiles: string[];
  /** Files passed over on purpose, with the reason. */
  readonly skipped: { readonly path: string; readonly reason: string }[];
}

/**
 * Entries the walk leaves out, with all below them: dependency and version-control trees, whatever
 * their type, and the stage directories of an interrupted --write (src/run/stage-directory.ts),
 * which hold temporary copies, not configuration.
 */
function isIgnored(entry: fs.Dirent): boolean {
  return entry.name === 'node_modules' || entry.name === '.git' || (entry.name.startsWith('.codemod-stage-') && entry.isDirectory());
}

interface Entry {
  readonly abs: string;
  readonly symlink: boolean;
  readonly file: boolean;
}

/** Every entry below `dir` that is not a directory (directories are descended unless ignored; unreadable ones are passed over). */
function walk(dir: string, out: Entry[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (isIgnored(entry)) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(abs, out);
    else out.push({ abs, symlink: entry.isSymbolicLink(), file: entry.isFile() });
  }
}

/** `realPaths`, when given, is told which entries are not symbolic links (it then need not ask the disk). */
export function scanDirectory(dir: string, realPaths?: RealPaths): ScanResult {
  const result: ScanResult = { configFiles: [], otherFiles: [], skipped: [] };
  const paths: Entry[] = [];
  walk(dir, paths);
  if (realPaths) for (const entry of paths) if (!entry.symlink) realPaths.listed(entry.abs);
  paths.sort((a, b) => comparePaths(a.abs, b.abs));

  for (const entry of paths) {
    if (entry.symlink) {
      const target = statOrNull(entry.abs);
      if (!target) {
        result.skipped.push({ path: entry.abs, reason: 'broken symbolic link' });
        continue;
      }
      if (target.isDirectory()) {
        result.skipped.push({ path: entry.abs, reason: 'symbolic link to a directory (not followed)' });
        continue;
      }
      if (!target.isFile()) continue;
    } else if (!entry.file) {
      continue; // sockets, fifos, devices
    }
    const kind = classifyScannedFile(entry.abs);
    if (kind === 'config') result.configFiles.push(entry.abs);
    else if (kind === 'backup') result.skipped.push({ path: entry.abs, reason: 'editor backup' });
    else result.otherFiles.push(entry.abs);
  }
  return result;
}

function statOrNull(absPath: string): fs.Stats | null {
  try {
    return fs.statSync(absPath);
  } catch {
    return null;
  }
}
