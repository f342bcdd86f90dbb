/**
 * Sets of filesystem paths a group of URLs can map to, and whether a filesystem scope covers them.
 *
 * A set is a sequence of components, each a literal name or `any` (one unknown non-empty name, e.g. the
 * user of `UserDir /home/*\/www`), followed by either `seg` (the path itself and everything below it) or
 * `str` (the last component is only the beginning of a name: `/srv/x` + anything, which an Alias whose
 * URL-path ends in `/` and whose target does not produces).
 *
 * A `<Directory>` with components g1…gn covers a path whose first n components match g1…gn (fnmatch per
 * component) — httpd's directory walk merges it at depth n, if the walk gets there: it stops at the first
 * component that does not exist. The model assumes the configured paths exist (`<Directory>` paths,
 * DocumentRoots, Alias and UserDir targets) and are directories (a `<Directory>` naming a missing path never
 * applies; measured on 2.4.71: one naming a regular file does apply to that file when FollowSymLinks is on).
 * A set records how many of its leading components come from such a configured path (`known`): a wildcard
 * `<Directory>` or a `<DirectoryMatch>` is surely merged only where the component it matches is one of those
 * (measured: `<Directory /t/d1*>` is not merged for `/t/d12f.txt`, which does not exist).
 */
import { globMatch, globMatchesAllWithPrefix, globMatchesEveryName, globPrefixFeasible, hasWildcard } from './glob';
import { regexShape } from './regex-shape';

export type FsPart = { readonly lit: string } | { readonly any: true };

export interface FsSet {
  readonly parts: readonly FsPart[];
  readonly tail: 'seg' | 'str';
  /** Leading components known to exist as directories (they come from a configured path). */
  readonly known: number;
}

/** Lexical normalisation as apr_filepath_merge does it: merged slashes, `.` dropped, `..` pops. Null when not absolute. */
export function normalizePath(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const out: string[] = [];
  for (const c of path.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') out.pop();
    else out.push(c);
  }
  return out;
}

/**
 * The paths starting with `path` (`str`) or at/below `path` (`seg`). A `str` path ending in `/` is the
 * directory and everything below it. `known`: how many leading components of `path` are a configured
 * directory (all of them by default). Null when the path is not absolute.
 */
export function fsSetOf(path: string, kind: 'seg' | 'str', known = Infinity): FsSet | null {
  if (!path.startsWith('/')) return null;
  if (kind === 'str' && !path.endsWith('/')) {
    const cut = path.lastIndexOf('/');
    const head = normalizePath(path.slice(0, cut + 1));
    const last = path.slice(cut + 1);
    if (!head) return null;
    if (last === '' || last === '.' || last === '..') return fsSetOf(path + '/', 'seg', known);
    return { parts: [...head.map((lit) => ({ lit })), { lit: last }], tail: 'str', known: Math.min(known, head.length) };
  }
  const comps = normalizePath(path);
  return comps ? { parts: comps.map((lit) => ({ lit })), tail: 'seg', known: Math.min(known, comps.length) } : null;
}

/** How many components a configured directory path has (what a set built on it knows to exist). */
export function depthOf(path: string): number {
  return normalizePath(path)?.length ?? 0;
}

export function fsSetText(s: FsSet): string {
  const body = s.parts.map((p) => ('any' in p ? '<name>' : p.lit)).join('/');
  return `/${body}${s.tail === 'str' ? '*' : ''}`;
}

/** The filesystem scope a caller asks about, read once. */
export type Cover =
  | { readonly kind: 'glob'; readonly comps: readonly string[]; readonly wild: boolean }
  | { readonly kind: 'regex'; readonly anchored: boolean; readonly literal: string; readonly all: boolean }
  | { readonly kind: 'relative' };

export function coverOfDir(path: string): Cover {
  const comps = normalizePath(path);
  if (!comps) return { kind: 'relative' };
  return { kind: 'glob', comps, wild: comps.some(hasWildcard) };
}

export function coverOfRegex(source: string): Cover {
  const shape = regexShape(source);
  return {
    kind: 'regex',
    anchored: shape.anchored,
    literal: shape.literal,
    // `^/lit/` or `^/lit/.*` with no `$`: every file name starting with the literal matches, on 2.2 and 2.4
    all: shape.anchored && shape.tail === 'any' && !shape.dollar && shape.literal.endsWith('/'),
  };
}

/** A three-valued answer; `approx` when it rests on widening the caller's pattern. */
export interface Verdict {
  readonly value: boolean;
  readonly approx: boolean;
}

const yes: Verdict = { value: true, approx: false };
const no: Verdict = { value: false, approx: false };

function partMatchesSome(part: FsPart, glob: string, partial: boolean): boolean {
  if ('any' in part) return true;
  return partial ? globPrefixFeasible(glob, part.lit) : globMatch(glob, part.lit);
}

/** Every name the part stands for matches; `null` when only an approximate answer (false) is known. */
function partMatchesAll(part: FsPart, glob: string, partial: boolean): boolean | null {
  if ('any' in part) return globMatchesEveryName(glob) || (hasWildcard(glob) ? null : false);
  if (!partial) return globMatch(glob, part.lit);
  return globMatchesAllWithPrefix(glob, part.lit) || (hasWildcard(glob) ? null : false);
}

/** The literal text every path of the set starts with (up to its first `any`). */
function stringHead(s: FsSet): { head: string; complete: boolean } {
  let head = '';
  for (let i = 0; i < s.parts.length; i++) {
    const p = s.parts[i];
    if ('any' in p) return { head: head + '/', complete: false };
    head += '/' + p.lit;
  }
  return { head: head === '' ? '/' : head, complete: true };
}

/** `b ⊆ a` for literal sets (used for excluded sub-sets). */
function fsContains(a: FsSet, b: FsSet): boolean {
  if (a.parts.some((p) => 'any' in p) || b.parts.some((p) => 'any' in p)) return false;
  const ah = stringHead(a).head;
  const bh = stringHead(b).head;
  if (a.tail === 'str') return bh.startsWith(ah);
  if (ah === '/') return true;
  // `str …/a` also holds `…/ax`: inside `seg …/a` only when it starts strictly below it
  return (b.tail === 'seg' && bh === ah) || bh.startsWith(ah + '/');
}

/** Some path of `set` outside every `excluded` set is covered. */
export function hits(set: FsSet, excluded: readonly FsSet[], cover: Cover): Verdict {
  if (excluded.some((e) => fsContains(e, set))) return no;
  if (cover.kind === 'relative') return { value: true, approx: true };
  if (cover.kind === 'regex') {
    if (!cover.anchored) return { value: true, approx: true };
    const { head, complete } = stringHead(set);
    const lit = cover.literal;
    let some: boolean;
    if (lit.startsWith(head)) some = !complete || set.tail === 'str' || lit === head || lit.startsWith(head === '/' ? '/' : head + '/');
    else some = head.startsWith(lit);
    return some ? { value: true, approx: true } : no;
  }
  const n = Math.min(set.parts.length, cover.comps.length);
  for (let i = 0; i < n; i++) {
    const partial = set.tail === 'str' && i === set.parts.length - 1;
    if (!partMatchesSome(set.parts[i], cover.comps[i], partial)) return no;
  }
  if (excluded.length === 0) return yes;
  // a literal directory meets the set in one prefix set: excluded when an excluded set holds it
  if (!cover.wild && !set.parts.some((p) => 'any' in p)) {
    const deeper: FsSet = cover.comps.length >= set.parts.length ? { parts: cover.comps.map((lit) => ({ lit })), tail: 'seg', known: 0 } : set;
    return excluded.some((e) => fsContains(e, deeper)) ? no : yes;
  }
  return { value: true, approx: true };
}

/** Every path of `set` is covered. */
export function within(set: FsSet, cover: Cover): Verdict {
  if (cover.kind === 'relative') return { value: false, approx: true };
  if (cover.kind === 'regex') {
    const { head } = stringHead(set);
    // the file name httpd matches holds the existing components and the first missing one: it starts with
    // the literal when the literal's directories are known to exist and every path is below them
    const litDepth = cover.literal.split('/').filter((c) => c !== '').length;
    if (cover.all && head.startsWith(cover.literal) && litDepth <= set.known && set.parts.length > litDepth) return yes;
    // no path of the (non-empty) set can match: surely not all
    if (!hits(set, [], cover).value) return no;
    return { value: false, approx: true };
  }
  const k = set.parts.length;
  const n = cover.comps.length;
  if (k < n) return no;
  let approx = false;
  for (let i = 0; i < n; i++) {
    const partial = set.tail === 'str' && i === k - 1;
    const all = partMatchesAll(set.parts[i], cover.comps[i], partial);
    if (all === null) approx = true;
    else if (!all) return no;
    // a literal <Directory> exists (configured); a wildcard one is merged only where the walk finds the
    // component it matches, which is known only for the configured part of the set
    else if (hasWildcard(cover.comps[i]) && i >= set.known) approx = true;
  }
  return approx ? { value: false, approx: true } : yes;
}

/** The whole-root scope `<Directory />` (covers every path). */
export function coversEverything(cover: Cover): boolean {
  return cover.kind === 'glob' && cover.comps.length === 0;
}
