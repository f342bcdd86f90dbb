/**
 * The AllowOverride model both versions share: which override classes a line grants, the non-regex
 * <Directory> sections of a server with their AllowOverride / AllowOverrideList lines, and the
 * section whose AllowOverride governs a directory (the most specific covering one that sets it;
 * none: 2.2's default, All). Regex sections and <Location>/<Files> never count (AllowOverride is
 * ignored there).
 */
import { ConfigFile, Directive, Section, ancestors, directives, sections, walk } from '../cst';
import { ServerTree, SourceFile } from '../server/types';
import { ifVersionHolds, isTwoTwoOnly, sectionIsTwoTwoOnly } from './version-guards';
import { globMatch } from './url-space/glob';

const WILDCARD = /[*?[]/;

/** Override classes as AllowOverride names them (lower case). */
export type OverrideClass = 'authconfig' | 'fileinfo' | 'indexes' | 'limit' | 'options';
const CLASSES: readonly OverrideClass[] = ['authconfig', 'fileinfo', 'indexes', 'limit', 'options'];

/** The classes an AllowOverride line grants (`All` = every class, `None` = none; `Nonfatal=…` grants nothing). */
export function grantedClasses(d: Directive): Set<OverrideClass> {
  const out = new Set<OverrideClass>();
  for (const value of d.values) {
    const word = value.toLowerCase();
    if (word === 'all') CLASSES.forEach((c) => out.add(c));
    else if (word === 'none') out.clear();
    else {
      const base = word.split('=')[0] as OverrideClass;
      if (CLASSES.includes(base)) out.add(base);
    }
  }
  return out;
}

/** A non-regex <Directory> section with the path it names (unquoted, trailing slashes dropped, `/` kept). */
export interface DirectorySection {
  readonly file: SourceFile;
  readonly section: Section;
  readonly path: string;
  /** Inside a <VirtualHost>. */
  readonly inVhost: boolean;
  /** Inside <IfModule>/<IfDefine>/<IfVersion>/… (not 2.2-only ones, which are skipped). */
  readonly conditional: boolean;
  /** Position in the server's files (include order) then in the file. */
  readonly order: number;
  /** AllowOverride lines of the section itself (not of nested sections other than conditionals), last one wins. */
  readonly allowOverride: Directive[];
  /** AllowOverrideList lines, same rule. */
  readonly allowOverrideList: Directive[];
  /** An AllowOverride line directly in the section (not under a condition). */
  readonly setsUnconditionally: boolean;
}

export function normalizeDirPath(p: string): string {
  if (p === '') return p;
  const collapsed = p.replace(/\/{2,}/g, '/');
  const trimmed = collapsed.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Whether a <Directory> argument is a regex (`~ …`) or a wildcard pattern. */
export function isRegexSection(section: Section): boolean {
  return section.values[0] === '~' || section.lowerName.endsWith('match');
}

/** <IfModule>, <IfDefine>, … — but not an <IfVersion> that holds on the 2.4 target. */
function isConditional(section: Section): boolean {
  if (section.is('IfVersion')) return ifVersionHolds(section.values) !== true;
  return /^if/i.test(section.name);
}

/**
 * AllowOverride and AllowOverrideList lines of `section` that belong to it directly or through
 * conditional wrappers (not nested scopes), in file order, outside 2.2-only branches: one walk that
 * enters only `<If…>` wrappers that apply on 2.4. `section` itself is outside 2.2-only branches.
 */
function ownOverrideLines(section: Section): { allowOverride: Directive[]; allowOverrideList: Directive[] } {
  const allowOverride: Directive[] = [];
  const allowOverrideList: Directive[] = [];
  const visit = (container: Section): void => {
    for (const node of container.body) {
      if (node.kind === 'directive') {
        const name = node.lowerName;
        if (name === 'allowoverride') allowOverride.push(node);
        else if (name === 'allowoverridelist') allowOverrideList.push(node);
      } else if (node.kind === 'section' && /^if/i.test(node.name) && !sectionIsTwoTwoOnly(node)) {
        visit(node);
      }
    }
  };
  visit(section);
  return { allowOverride, allowOverrideList };
}

/** What directorySections found in one file: its <Directory> count and its entries, for one version of its tree. */
interface FileDirectories {
  readonly tree: ConfigFile;
  readonly version: number;
  /** The `order` of the file's first <Directory> minus one (the count in the files before it). */
  readonly base: number;
  /** Every <Directory> of the file, regex ones included (they count for `order`). */
  readonly count: number;
  readonly entries: readonly DirectorySection[];
}

/**
 * Per file, the entries of the last call. They are a function of the file's tree (its version counts
 * every edit and move, see ConfigFile.version) and of the number of <Directory> sections in the files
 * before it (`order`), so they are reused while the tree, its version and that count are the same:
 * transforms that ask for the server's sections one after the other (allow-override-default,
 * allow-override-for-htaccess) read each file once while it does not change.
 */
const byFile = new WeakMap<SourceFile, FileDirectories>();

function fileDirectories(file: SourceFile, base: number): FileDirectories {
  const tree = file.tree;
  const known = byFile.get(file);
  if (known !== undefined && known.tree === tree && known.version === tree.version) {
    if (known.base === base) return known;
    // a file before this one gained or lost a <Directory> (allow-override-default adds `<Directory />`): only `order` moves
    const moved: FileDirectories = { ...known, base, entries: known.entries.map((e) => ({ ...e, order: e.order - known.base + base })) };
    byFile.set(file, moved);
    return moved;
  }
  const entries: DirectorySection[] = [];
  const all = sections(tree, 'Directory');
  let order = base;
  for (const section of all) {
    order++;
    if (isRegexSection(section) || section.values.length !== 1) continue;
    if (isTwoTwoOnly(section)) continue;
    const outer = ancestors(section);
    const { allowOverride, allowOverrideList } = ownOverrideLines(section);
    entries.push({
      file,
      section,
      path: normalizeDirPath(section.values[0]),
      inVhost: outer.some((s) => s.is('VirtualHost')),
      conditional: outer.some(isConditional),
      order,
      allowOverride,
      allowOverrideList,
      setsUnconditionally: allowOverride.some((d) => d.parent === section),
    });
  }
  const found: FileDirectories = { tree, version: tree.version, base, count: all.length, entries };
  byFile.set(file, found);
  return found;
}

/** Every non-regex <Directory> section of the server, in config order. */
export function directorySections(files: readonly SourceFile[]): DirectorySection[] {
  const out: DirectorySection[] = [];
  let order = 0;
  for (const file of files) {
    if (file.role === 'htaccess') continue;
    const found = fileDirectories(file, order);
    order += found.count;
    for (const entry of found.entries) out.push(entry);
  }
  return out;
}

/** The AccessFileName names in force (every name the config mentions; `.htaccess` when none). */
export function accessFileNames(files: readonly SourceFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    if (file.role === 'htaccess') continue;
    for (const d of directives(file.tree, 'AccessFileName')) if (!isTwoTwoOnly(d)) d.values.forEach((v) => names.add(v));
  }
  return names.size > 0 ? [...names] : ['.htaccess'];
}

function components(p: string): string[] {
  return p === '/' ? [] : p.split('/').slice(1);
}

/** Whether a <Directory> path (possibly with fnmatch wildcards per component) applies to directory `dir`. */
function covers(sectionPath: string, dir: string): boolean {
  const want = components(sectionPath);
  const have = components(dir);
  if (want.length > have.length) return false;
  return want.every((w, i) => (WILDCARD.test(w) ? globMatch(w, have[i]) : w === have[i]));
}


/** The section whose AllowOverride is in force for `dir`: the most specific covering section that sets it (later wins a tie). */
export function governing(dirs: readonly DirectorySection[], dir: string): DirectorySection | null {
  let best: DirectorySection | null = null;
  for (const d of dirs) {
    if (d.allowOverride.length === 0 || !covers(d.path, dir)) continue;
    if (!best || components(d.path).length > components(best.path).length || (components(d.path).length === components(best.path).length && d.order > best.order)) best = d;
  }
  return best;
}

/**
 * Whether the run holds only part of the server's config (no main config, or one given with
 * --context): the run's own sections are then 2.2's, the ones above them are not (a stock 2.4 main
 * config is assumed, or the context is 2.4's). Across that boundary the nearer sections replace what
 * they inherit, AllowOverride included: where the run's sections set no AllowOverride above a
 * per-directory file, 2.2's default (All) applies to it, and allow-override-default writes it out.
 */
export function partialRun(server: ServerTree): boolean {
  return !server.main || server.main.role === 'context';
}

/** The section whose AllowOverride governs a directory, as the migration will leave it (see partialRun). */
export function governingAfterMigration(server: ServerTree, dirs: readonly DirectorySection[], dir: string): DirectorySection | 'default-all' | null {
  if (!partialRun(server)) return governing(dirs, dir);
  const own = dirs.filter((d) => d.file.role !== 'context');
  const g = governing(own, dir);
  if (g) return g;
  if (own.some((d) => !d.conditional && d.path.startsWith('/') && covers(d.path, dir))) return 'default-all';
  return governing(dirs, dir);
}

/** Order/Allow/Deny (the Limit class) outside 2.2-only branches. */
const LIMIT_WORD = /^(order|allow|deny)$/i;

/**
 * Per-directory files httpd reads but refuses on every request (500, "order not allowed here"):
 * they hold Order/Allow/Deny where the governing AllowOverride grants some classes but not Limit
 * (and no AllowOverrideList), each with the section that says so. 2.2 answered 500 for them;
 * migrated to Require under `AllowOverride AuthConfig` they would start to answer (measured E7).
 */
export function refusedPerDirectoryFiles(server: ServerTree): Map<SourceFile, DirectorySection> {
  return perDirectoryFilesWhere(server, (f, g) => {
    if (g.allowOverrideList.length > 0 || g.conditional) return false;
    const classes = grantedClasses(g.allowOverride[g.allowOverride.length - 1]);
    return classes.size > 0 && !classes.has('limit') && limitClassLine(f.tree) !== null;
  });
}

/** The server's per-directory files whose governing section (one that sets AllowOverride, after the migration) passes `test`, each with that section. */
function perDirectoryFilesWhere(server: ServerTree, test: (file: SourceFile, governing: DirectorySection) => boolean): Map<SourceFile, DirectorySection> {
  const out = new Map<SourceFile, DirectorySection>();
  const perDirectory = server.files.filter((f) => f.role === 'htaccess' && f.directory !== undefined);
  if (perDirectory.length === 0) return out;
  const dirs = directorySections(server.files);
  for (const f of perDirectory) {
    const g = governingAfterMigration(server, dirs, f.directory as string);
    if (g !== null && g !== 'default-all' && test(f, g)) out.set(f, g);
  }
  return out;
}

/** The first Order/Allow/Deny line of a file (outside 2.2-only branches), if any. */
export function limitClassLine(tree: ConfigFile): Directive | null {
  for (const node of walk(tree)) if (node.kind === 'directive' && !isTwoTwoOnly(node) && LIMIT_WORD.test(node.name)) return node;
  return null;
}

/** Per-directory files that `AllowOverride None` keeps httpd from opening, each with the section that says so. */
export function unreadPerDirectoryFiles(server: ServerTree): Map<SourceFile, DirectorySection> {
  return perDirectoryFilesWhere(server, (_f, g) => {
    const last = g.allowOverride[g.allowOverride.length - 1];
    return last !== undefined && grantedClasses(last).size === 0 && g.allowOverrideList.length === 0;
  });
}
