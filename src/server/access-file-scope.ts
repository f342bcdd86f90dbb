/**
 * Which files a server reads as per-directory configuration: the names its
 * AccessFileName lines give (`.htaccess` when none is set), in the
 * directories it serves.
 *
 * Measured on httpd 2.4.71 (__tests__/server-access-file-name.test.ts):
 * AccessFileName is allowed in the server config and in <VirtualHost> (not in
 * <Directory>); it takes several names and httpd reads each of them; a later
 * line replaces an earlier one, and a <VirtualHost>'s line replaces the main
 * server's for that host; names are literal (quotes decoded, no wildcards,
 * case-sensitive, `sub/.acl` works); `AccessFileName` with no name turns
 * per-directory files off.
 *
 * Discovery cannot tell which <IfModule>/<IfDefine> branch holds or which
 * host serves which directory, so a server's names are every name any of its
 * AccessFileName lines gives, over-approximating a later line replacing an
 * earlier one. Its directories are those it could serve from: its ServerRoot
 * (mapped into the scanned tree), the main config's directory, and every
 * DocumentRoot, <Directory> (up to its first wildcard) and Alias target,
 * except `/` itself (the `<Directory />` nearly every config has would
 * otherwise claim every file).
 */
import * as path from 'path';
import { expandIncludeVariables } from './envvars';
import { hasWildcard } from './expand-include-pattern';
import { FileFacts } from './file-facts';
import { DEFAULT_ACCESS_FILE_NAME, accessFileDirectory } from './file-names';
import { IncludeContext } from './resolve-includes';
import { RealPaths } from './real-paths';

/** Where a server's directories are on this machine, and the path the config names each by. */
interface ScopeDirectories {
  /** Absolute directories the server may read per-directory files in (on this machine: mapped into a copied tree). */
  readonly directories: readonly string[];
  /** The same directories as the config names them (`/usr/local/apache2/htdocs` for a copy's `htdocs`), by disk path. */
  readonly logical: ReadonlyMap<string, string>;
}

export class AccessFileScope {
  private withRealPaths: ScopeDirectories | null = null;

  constructor(
    /** AccessFileName values, literal; may hold `/`. */
    readonly names: readonly string[],
    /** The directories as the config gives them (mapped into the tree). */
    readonly named: ScopeDirectories,
    private readonly realPaths: RealPaths,
  ) {}

  /**
   * The named directories and, beside each, its real path: a scan may meet a directory under a
   * symlinked path or under its real one. Resolved when a per-directory file is first looked up,
   * so a server without any costs no look at the disk.
   */
  get resolved(): ScopeDirectories {
    if (this.withRealPaths) return this.withRealPaths;
    const dirs = new Set(this.named.directories);
    const logical = new Map(this.named.logical);
    for (const d of this.named.directories) {
      const real = this.realPaths.orSelf(d);
      dirs.add(real);
      const named = logical.get(d);
      if (named !== undefined && !logical.has(real)) logical.set(real, named);
    }
    return (this.withRealPaths = { directories: [...dirs], logical });
  }

  /** The real path of a directory on this machine, or the path itself when it does not resolve. */
  realPath(absPath: string): string {
    return this.realPaths.orSelf(absPath);
  }
}

/**
 * The directory as httpd sees it (the path <Directory> sections name) of a directory on this
 * machine inside the scope: the longest scope directory holding it, with the rest appended.
 */
export function logicalDirectory(scope: AccessFileScope, diskDir: string): string {
  let best: { disk: string; logical: string } | null = null;
  const real = scope.realPath(diskDir);
  for (const [disk, logical] of scope.resolved.logical) {
    for (const candidate of [diskDir, real]) {
      if (isWithin(disk, candidate) && (!best || disk.length > best.disk.length)) {
        const rel = path.relative(disk, candidate);
        best = { disk, logical: rel === '' ? logical : path.posix.join(logical, rel.split(path.sep).join('/')) };
      }
    }
  }
  return best ? best.logical : diskDir;
}

/** A component that normalizing changes (empty, `.`, `..`), or a trailing separator. */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|.\/$/;

/** path.resolve(value) of an absolute path, without its work when the path is normal already (as most written paths are). */
function resolveAbsolute(value: string): string {
  return path.sep === '/' && !NOT_NORMAL.test(value) ? value : path.resolve(value);
}

/** A character a wildcard needs (`*`, `?`, or `[` of a `[...]` class): a path without one is fixed as a whole. */
const WILDCARD_CHARACTER = /[*?[]/;

export function accessFileScope(
  mainPath: string,
  files: readonly FileFacts[],
  ctx: IncludeContext,
  realPaths: RealPaths,
  options: { fragment?: boolean } = {},
): AccessFileScope {
  const names: string[] = [];
  let set = false;
  // a fragment serves only the directories it names, not the directory it was found in
  const dirs = new Set<string>(options.fragment ? [] : [ctx.serverRoot.root, path.dirname(mainPath)]);
  const logical = new Map<string, string>(options.fragment ? [] : [[ctx.serverRoot.root, ctx.serverRoot.logical]]);
  const fixedPart = (abs: string): string | null => {
    // a normalized path (no empty component) without a wildcard character is fixed as a whole (the root takes the long way: null)
    if (!WILDCARD_CHARACTER.test(abs) && !abs.endsWith(path.sep)) return abs;
    const root = path.parse(abs).root;
    const fixed: string[] = [];
    for (const component of abs.slice(root.length).split(path.sep)) {
      if (component === '' || hasWildcard(component)) break;
      fixed.push(component);
    }
    return fixed.length > 0 ? path.join(root, ...fixed) : null;
  };
  const addDir = (raw: string): void => {
    const value = expandIncludeVariables(raw, ctx.variables);
    if (value === null || value === '') return;
    if (options.fragment && !path.isAbsolute(value)) return;
    const absolute = path.isAbsolute(value);
    const named = absolute ? resolveAbsolute(value) : path.resolve(ctx.serverRoot.logical, value);
    const abs = absolute ? ctx.serverRoot.map(named) : path.resolve(ctx.serverRoot.root, value);
    const disk = fixedPart(abs);
    const logicalDir = fixedPart(named);
    if (disk === null) return;
    dirs.add(disk);
    if (logicalDir !== null && !logical.has(disk)) logical.set(disk, logicalDir);
  };

  for (const facts of files) {
    for (const d of facts.get('AccessFileName')) {
      set = true;
      for (const raw of d.values) {
        const name = expandIncludeVariables(raw, ctx.variables);
        if (name !== null && name !== '' && !names.includes(name)) names.push(name);
      }
    }
    for (const d of facts.get('DocumentRoot')) if (d.values.length > 0) addDir(d.values[0]);
    for (const d of facts.get('Alias', 'ScriptAlias')) if (d.values.length > 1) addDir(d.values[1]);
    for (const s of facts.get('<Directory')) {
      if (s.values.length > 0 && s.values[0] !== '~') addDir(s.values[0]);
    }
  }
  if (!set) names.push(DEFAULT_ACCESS_FILE_NAME);
  return new AccessFileScope(names, { directories: [...dirs], logical }, realPaths);
}

/**
 * Which server reads a per-directory file, over many servers' scopes at once, for every file of a
 * scan: a path is looked up by its last component among the names the scopes give (httpd opens
 * `<dir>/<name>` literally), and its directory by each of its ancestors among the scopes'
 * directories, so a fleet's per-directory files are not each checked against every server's
 * directories (that was quadratic in the fleet's size).
 */
export class AccessFileIndex {
  /** Per last component: the names that end with it (each name once). */
  private readonly byLastComponent = new Map<string, string[]>();
  /** Per name, the scopes that read it, in the order given. */
  private readonly scopesByName = new Map<string, AccessFileScope[]>();
  /** Per name, built on first use: each scope directory (named and real) with the first scope that serves it. */
  private readonly directoriesByName = new Map<string, Map<string, { readonly rank: number; readonly scope: AccessFileScope }>>();
  private readonly rank = new Map<AccessFileScope, number>();

  constructor(order: readonly AccessFileScope[]) {
    order.forEach((scope, i) => this.rank.set(scope, i));
    for (const scope of order) {
      for (const name of scope.names) {
        const last = name.split('/').filter((c) => c !== '').pop();
        if (last === undefined) continue;
        const scopes = this.scopesByName.get(name);
        if (scopes) {
          if (!scopes.includes(scope)) scopes.push(scope);
          continue;
        }
        this.scopesByName.set(name, [scope]);
        const names = this.byLastComponent.get(last);
        if (names) names.push(name);
        else this.byLastComponent.set(last, [name]);
      }
    }
  }

  matches(absPath: string): boolean {
    return this.owner(absPath) !== null;
  }

  /** The first scope (in the order given) that reads `absPath` as a per-directory file, and the directory it is read for (on disk). */
  owner(absPath: string): { readonly scope: AccessFileScope; readonly dir: string } | null {
    const names = this.byLastComponent.get(path.basename(absPath));
    if (!names) return null;
    let best: { rank: number; nameAt: number; scope: AccessFileScope; dir: string } | null = null;
    for (const name of names) {
      const dir = accessFileDirectory(absPath, name);
      if (dir === null) continue;
      const directories = this.directoriesOf(name);
      const scopes = this.scopesByName.get(name) as AccessFileScope[];
      // a scope reads it when one of its directories is the file's directory (as scanned, or its real path) or above it
      for (const start of new Set([dir, scopes[0].realPath(dir)])) {
        for (let d = start; ; d = path.dirname(d)) {
          const hit = directories.get(d);
          if (hit) {
            // the first scope in order; within one scope, the first of its names that reads the file
            const nameAt = hit.scope.names.indexOf(name);
            if (!best || hit.rank < best.rank || (hit.rank === best.rank && nameAt < best.nameAt)) best = { rank: hit.rank, nameAt, scope: hit.scope, dir };
          }
          if (path.dirname(d) === d) break;
        }
      }
    }
    return best ? { scope: best.scope, dir: best.dir } : null;
  }

  private directoriesOf(name: string): Map<string, { readonly rank: number; readonly scope: AccessFileScope }> {
    let directories = this.directoriesByName.get(name);
    if (directories) return directories;
    directories = new Map();
    for (const scope of this.scopesByName.get(name) ?? []) {
      const rank = this.rank.get(scope) as number;
      for (const d of scope.resolved.directories) {
        // a directory as isWithin compares it: without a trailing separator (the root keeps its own)
        const key = d.length > 1 && d.endsWith(path.sep) ? d.slice(0, -1) : d;
        if (!directories.has(key)) directories.set(key, { rank, scope });
      }
    }
    this.directoriesByName.set(name, directories);
    return directories;
  }
}

/** `target` is `dir` or below it (both absolute and normalized, as discovery makes them). */
function isWithin(dir: string, target: string): boolean {
  if (target === dir) return true;
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return target.startsWith(prefix);
}
