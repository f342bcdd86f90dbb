/**
 * Where a main config's relative Include paths resolve.
 *
 * The tree being migrated is often a copy of /etc/apache2 or
 * /usr/local/apache2 kept elsewhere, so the configured ServerRoot is used only
 * when it exists and holds the main config. Otherwise ServerRoot is mapped into
 * the scanned tree: the main config's directory (Debian: apache2.conf sits in
 * ServerRoot) or its parent (upstream: conf/httpd.conf), whichever makes the
 * config's Include patterns match files. Absolute paths under the configured
 * root are mapped the same way, so a copy never reaches into the live system.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FileFacts } from './file-facts';

/** Roots httpd is built with on common systems, used for mapping when no ServerRoot is written. */
export const DEFAULT_ROOTS: readonly string[] = ['/etc/apache2', '/etc/httpd', '/usr/local/apache2'];

export interface ServerRoot {
  /** Directory that relative paths resolve against. */
  readonly root: string;
  /**
   * ServerRoot as the config itself names it (the configured value, or the built-in root a copy is
   * mapped from when that is certain); equal to `root` on the live tree or when unknown.
   */
  readonly logical: string;
  /** Maps an absolute path under the configured root into `root`; other paths come back unchanged. */
  map(absPath: string): string;
}

export interface ServerRootInput {
  /** Absolute path of the main config as found. */
  readonly mainPath: string;
  /** The main config's facts (its ServerRoot lines). */
  readonly facts: FileFacts;
  /** options.serverRoot, absolute: overrides everything. */
  readonly override: string | null;
  /** Whether the main config's Include patterns match any file with this root. */
  readonly includesMatch: (candidate: ServerRoot) => boolean;
}

/** The last ServerRoot directive's value (relative values taken from the config's directory), or null. */
export function configuredServerRoot(facts: FileFacts, mainPath: string): string | null {
  let value: string | null = null;
  for (const d of facts.get('ServerRoot')) {
    if (d.values.length > 0) value = d.values[0];
  }
  return value === null ? null : path.resolve(path.dirname(mainPath), value);
}

export function resolveServerRoot(input: ServerRootInput): ServerRoot {
  const configured = configuredServerRoot(input.facts, input.mainPath);
  const mapFrom = configured !== null ? [configured] : DEFAULT_ROOTS;
  const logical = configured ?? null;
  if (input.override !== null) return mapped(input.override, mapFrom, logical);
  if (configured !== null && contains(configured, input.mainPath)) return mapped(configured, [], configured);
  // no ServerRoot written, and the config lives in a built-in root: this is the live tree
  const builtIn = configured === null ? DEFAULT_ROOTS.find((d) => contains(d, input.mainPath)) : undefined;
  if (builtIn !== undefined) return mapped(builtIn, [], builtIn);

  const dir = path.dirname(input.mainPath);
  const candidates = [dir, path.dirname(dir)].map((root) => mapped(root, mapFrom, logical));
  const matching = candidates.find((c) => input.includesMatch(c));
  if (matching) return matching;
  // no Include to judge by: upstream keeps the config in ServerRoot/conf
  return path.basename(dir) === 'conf' ? candidates[1] : candidates[0];
}

/** Paths taken as written (a fragment's, which names live directories): relative ones resolve against `dir`. */
export function literalServerRoot(dir: string): ServerRoot {
  return mapped(dir, [], dir);
}

function mapped(root: string, from: readonly string[], logical: string | null): ServerRoot {
  return {
    root,
    logical: logical ?? root,
    map(absPath: string): string {
      for (const prefix of from) {
        if (prefix === root) continue;
        if (absPath === prefix) return root;
        if (absPath.startsWith(prefix.endsWith(path.sep) ? prefix : prefix + path.sep)) {
          return path.join(root, absPath.slice(prefix.length));
        }
      }
      return absPath;
    },
  };
}

/** Whether `dir` exists and holds `file` (symlinks resolved on both sides). */
function contains(dir: string, file: string): boolean {
  try {
    const realDir = fs.realpathSync.native(dir);
    const realFile = fs.realpathSync.native(file);
    const rel = path.relative(realDir, realFile);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  } catch {
    return false;
  }
}
