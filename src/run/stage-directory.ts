/**
 * Where a write transaction keeps its temporary files, so that a crash never leaves a file httpd
 * would load. Measured on httpd 2.4.71: `Include dir/` reads every file below `dir`, dotfiles and
 * hidden subdirectories included, recursively; a wildcard (`Include dir/*`, `*.conf`) skips names
 * that start with a dot. So temporary files go into a hidden directory (`.codemod-stage-…`, never
 * matched by a wildcard) that no directory Include can cover:
 *
 * - the directory of the server's main config, for files on its file system: including that
 *   directory (or one above it) as a directory would include the main config into itself;
 * - otherwise (fragments, per-directory files, another file system) the directory above the
 *   file's own directory (a fragment's `conf.d/` may be included as a directory, its parent
 *   holds the main config), else the file's own directory.
 *
 * A rename is atomic only within one file system, so the stage must be on the file's device.
 */
import * as fs from 'fs';
import * as path from 'path';

export const STAGE_PREFIX = '.codemod-stage-';

function deviceOf(p: string): number | null {
  try {
    return fs.statSync(p).dev;
  } catch {
    return null;
  }
}

/** Candidate directories for the stage of `realPath`, best first. */
export function stageCandidates(realPath: string, mainRealPath: string | null): string[] {
  const own = path.dirname(realPath);
  const dev = deviceOf(realPath);
  const out: string[] = [];
  if (mainRealPath !== null) out.push(path.dirname(mainRealPath));
  if (path.dirname(own) !== own) out.push(path.dirname(own));
  out.push(own);
  return [...new Set(out)].filter((d) => dev !== null && deviceOf(d) === dev);
}

/** Every directory a stage for one of these files may have been made in (for finding leftovers). */
export function stageLocations(realPaths: readonly string[], mainRealPath: string | null): string[] {
  const out = new Set<string>();
  if (mainRealPath !== null) out.add(path.dirname(mainRealPath));
  for (const p of realPaths) {
    const own = path.dirname(p);
    out.add(own);
    out.add(path.dirname(own));
  }
  return [...out];
}
