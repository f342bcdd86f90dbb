/**
 * Walks a directory for configuration files. Symlinked directories are not
 * descended (a2enmod-style trees link files, not directories, and a link to
 * `/` must not take the scan with it); symlinked files are followed.
 */
import fg from 'fast-glob';
import * as fs from 'fs';
import * as path from 'path';
import { comparePaths } from './display-path';
import { classifyScannedFile } from './file-names';

export interface ScanResult {
  /** Absolute paths of files whose names mark them as configuration. */
  readonly configFiles: string[];
  /** Absolute paths of other regular files (kept in case an Include reaches them). */
  readonly otherFiles: string[];
  /** Files passed over on purpose, with the reason. */
  readonly skipped: { readonly path: string; readonly reason: string }[];
}

// stage directories of an interrupted --write hold temporary copies, not configuration (src/run/stage-directory.ts)
const IGNORE = ['**/node_modules/**', '**/.git/**', '**/.codemod-stage-*/**'];

export function scanDirectory(dir: string): ScanResult {
  const result: ScanResult = { configFiles: [], otherFiles: [], skipped: [] };
  const entries = fg.sync('**/*', {
    cwd: dir,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: IGNORE,
    suppressErrors: true,
  });
  const paths = entries
    .filter((e) => !e.dirent.isDirectory())
    .map((e) => ({ abs: path.join(dir, e.path), symlink: e.dirent.isSymbolicLink(), file: e.dirent.isFile() }))
    .sort((a, b) => comparePaths(a.abs, b.abs));

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
