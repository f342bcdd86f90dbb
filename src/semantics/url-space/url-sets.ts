/**
 * Sets of URL-paths (slashes merged, as 2.4 and 2.2's location walk compare them) that the model
 * reasons with. Every set it builds is one of:
 * - `none`;
 * - `str p`: every URL-path starting with the string `p` (`str /` is every URL-path);
 * - `seg p`: `p` itself and everything below `p/` (`p` has no trailing slash) — `<Location /foo>`,
 *   `Alias /foo …`, as httpd's segment-aware prefix match reads them.
 * Any two such sets are nested or disjoint, so intersections are one of the two sets.
 */
import { hasWildcard, literalHead } from './glob';
import { regexShape } from './regex-shape';

export type UrlSet = { readonly kind: 'none' } | { readonly kind: 'str'; readonly p: string } | { readonly kind: 'seg'; readonly p: string };

export const NO_URL: UrlSet = { kind: 'none' };
export const EVERY_URL: UrlSet = { kind: 'str', p: '/' };

export function collapseSlashes(p: string): string {
  return p.replace(/\/{2,}/g, '/');
}

/**
 * The URL-paths a mod_alias/mod_proxy prefix (`alias_matches`) or core's DocumentRoot matches: any run of
 * `/` matches any run; a prefix not ending in `/` must end at a segment boundary. A prefix not starting
 * with `/` matches nothing.
 */
export function prefixSet(prefix: string): UrlSet {
  if (!prefix.startsWith('/')) return NO_URL;
  const p = collapseSlashes(prefix);
  return p.endsWith('/') ? { kind: 'str', p } : { kind: 'seg', p };
}

/** `a ⊇ b`. */
export function contains(a: UrlSet, b: UrlSet): boolean {
  if (b.kind === 'none') return true;
  if (a.kind === 'none') return false;
  if (a.kind === 'str') return b.p.startsWith(a.p);
  if (b.kind === 'seg') return b.p === a.p || b.p.startsWith(a.p + '/');
  return b.p.startsWith(a.p + '/');
}

/** `a ∩ b` (one of the two, or none: the sets are nested or disjoint). */
export function intersect(a: UrlSet, b: UrlSet): UrlSet {
  if (contains(a, b)) return b;
  if (contains(b, a)) return a;
  return NO_URL;
}

export function isEmpty(a: UrlSet): boolean {
  return a.kind === 'none';
}

/** A URL set and whether it is exactly the pattern's set or a superset of it. */
export interface ReadSet {
  readonly set: UrlSet;
  readonly exact: boolean;
}

/**
 * The URL-paths a regex can match, as a superset: `str literal` when anchored, every URL-path otherwise.
 * Exact when what follows the literal accepts anything (`^/a`, `^/a(.*)`, `^/a(/.*)?`).
 */
export function regexUrlSet(source: string): ReadSet {
  const shape = regexShape(source);
  if (!shape.anchored) {
    const universal = ['', '^', '.*', '^.*', '/', '^/'].includes(source);
    return { set: EVERY_URL, exact: universal };
  }
  const literal = collapseSlashes(shape.literal);
  if (literal === '' || literal === '/') return { set: EVERY_URL, exact: shape.tail === 'any' };
  if (!literal.startsWith('/')) return { set: NO_URL, exact: true };
  if (shape.tail === 'seg') return { set: { kind: 'seg', p: literal }, exact: true };
  return { set: { kind: 'str', p: literal }, exact: shape.tail === 'any' };
}

/**
 * The URL-paths a `<Location>` matches. A literal path is a segment-aware prefix compared with merged
 * slashes (the configured path is not merged: `<Location //x>` never matches); a wildcard path must match the
 * whole URL-path, read as the superset `str <literal head>`.
 */
export function locationUrlSet(pattern: { kind: 'prefix'; path: string } | { kind: 'regex'; source: string }): ReadSet {
  if (pattern.kind === 'regex') return regexUrlSet(pattern.source);
  const path = pattern.path;
  if (!path.startsWith('/') || /\/\//.test(path)) return { set: NO_URL, exact: true };
  if (hasWildcard(path)) {
    const head = literalHead(path);
    return { set: head === '/' || head === '' ? EVERY_URL : { kind: 'str', p: head }, exact: false };
  }
  return { set: prefixSet(path), exact: true };
}

/** Text for messages. */
export function describe(a: UrlSet): string {
  if (a.kind === 'none') return 'no URL';
  if (a.kind === 'str') return a.p === '/' ? 'every URL' : `URLs starting with ${a.p}`;
  return `${a.p} and below`;
}
