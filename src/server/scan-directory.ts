/**
 * Walks a directory for configuration files. Symlinked directories are not
 * descended (a2enmod-style trees link files, not directories, and a link to
 * `/` must not take the scan with it); symlinked files are followed.
 *
 * The walk is fast-glob's. Its ignore patterns (IGNORE) name the node_modules
 * and .git entries themselves rather than everything below them: fast-glob then
 * does not read those directories at all, instead of matching every entry below them against the patterns,
 * which on a server tree of 3,000 document roots (6,000 directories) took as long
 * as reading the directories. Left out, with all below them: dependency and
 * version-control trees, whatever their type, and the stage directories of an
 * interrupted --write (src/run/stage-directory.ts), which hold temporary copies,
 * not configuration (a file so named is kept).
 */
import fg from 'fast-glob';
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

const IGNORE = ['**/node_modules', '**/.git', '**/.codemod-stage-*/**'];

/** `realPaths`, when given, is told which entries are not symbolic links (it then need not ask the disk). */
export function scanDirectory(dir: string, realPaths?: RealPaths): ScanResult {
  const result: ScanResult = { configFiles: [], otherFiles: [], skipped: [] };
  const paths = fg
    .sync('**/*', {
      cwd: dir,
      dot: true,
      onlyFiles: false,
      followSymbolicLinks: false,
      objectMode: true,
      ignore: IGNORE,
      suppressErrors: true,
    })
    .filter((e) => !e.dirent.isDirectory())
    .map((e) => ({ abs: path.join(dir, e.path), symlink: e.dirent.isSymbolicLink(), file: e.dirent.isFile() }));
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
