/**
 * One step of a host's URL translation, in httpd's hook order, and what it makes of the URLs it takes.
 */
import { Directive } from '../../cst';
import { SourceFile } from '../../server/types';
import { Certainty } from './conditions';
import { depthOf, FsSet, fsSetOf } from './fs-sets';
import { Cause } from './types';
import { UrlSet } from './url-sets';

/** Where the URLs a rule takes end up. */
export type Single =
  /** A filesystem path in `set` (minus `excl`); `point`: exactly the set's path; `widened`: the set is a superset because of these lines. */
  | { readonly kind: 'fs'; readonly set: FsSet; readonly excl: readonly FsSet[]; readonly point: boolean; readonly widened: readonly Cause[] }
  /** No directory walk: an external redirect, a refusal (403/410), a proxied request (measured: no `<Directory>`, not even `/`, applies). */
  | { readonly kind: 'nothing' }
  /** Anywhere (or nowhere): the model cannot know. */
  | { readonly kind: 'unknown'; readonly causes: readonly Cause[] }
  /** Some filesystem path the model cannot know (a user's home directory). */
  | { readonly kind: 'any-path'; readonly causes: readonly Cause[] };

/** One of several destinations; `choice` names the lines that decide which (empty when there is one). */
export interface Outcome {
  readonly alternatives: readonly Single[];
  readonly choice: readonly Cause[];
}

export interface Rule {
  /** The URLs the rule may take (merged slashes). */
  readonly match: UrlSet;
  /** `match` is exactly the set the rule takes (a prefix), not a widened reading of a regex. */
  readonly matchExact: boolean;
  /** Lines that make it uncertain whether the rule takes the URLs at all (conditions, RewriteCond, a widened regex). */
  readonly takes: readonly Cause[];
  /**
   * `all`: a URL it takes never reaches a later rule; `none`: some URLs it matches still reach later rules
   * (a regex rule on 2.2, which matched unmerged slashes: `//x` escapes `^/x`); `maybe`: it may take every
   * URL or none (its causes are in `takes`).
   */
  readonly capture: 'all' | 'none' | 'maybe';
  /** Why a `maybe` capture is uncertain, when not already in `takes`. */
  readonly captureWhy?: readonly Cause[];
  /** mod_proxy's list: a `!` entry ends the list for the URLs it matches. */
  readonly phase?: 'proxy' | 'proxy-exempt';
  /** The rule surely takes every URL of x although `match` is widened (UserDir for one valid user on 2.4). */
  readonly takesAll?: (x: UrlSet) => boolean;
  /** False when the rule surely declines every URL of x (UserDir for a disabled user). */
  readonly applies?: (x: UrlSet) => boolean;
  readonly outcome: (x: UrlSet, excl: readonly UrlSet[]) => Outcome;
}

export function single(s: Single, choice: readonly Cause[] = []): Outcome {
  return { alternatives: [s], choice };
}

export const NOTHING: Outcome = single({ kind: 'nothing' });

export function cause(file: SourceFile, d: Directive, why: string): Cause {
  return { file, line: d.line, why: `${d.name} ${d.values.join(' ')}: ${why}` };
}

export function unknownOutcome(causes: readonly Cause[]): Outcome {
  return single({ kind: 'unknown', causes });
}

/** Applies a line's certainty to a rule: an uncertain line may or may not take its URLs. */
export function underCertainty(rule: Rule, cert: Certainty): Rule | null {
  if (cert.kind === 'no') return null;
  if (cert.kind === 'yes') return rule;
  return { ...rule, takes: [...rule.takes, ...cert.causes], capture: rule.capture === 'none' ? 'none' : 'maybe' };
}

/**
 * Places a line's rule (null: the line makes none) under the line's certainty, at the end of `out`.
 * The rule families loop over their lines with module-level builders and this, rather than pass a
 * closure made per call to rulesOf: V8 keeps one optimized copy of a module-level function, while a
 * closure made per call loses its optimized code whenever a full collection finds none alive.
 */
export function addRule<E extends { readonly cert: Certainty }>(out: Rule[], rule: Rule | null, e: E): void {
  const placed = rule && underCertainty(rule, e.cert);
  if (placed) out.push(placed);
}

/** Builds a rule per line (null: the line is not one) and places each under its line's certainty. */
export function rulesOf<E extends { readonly cert: Certainty }>(entries: readonly E[], build: (e: E) => Rule | null): Rule[] {
  return entries.flatMap((e) => {
    const rule = build(e);
    const placed = rule && underCertainty(rule, e.cert);
    return placed ? [placed] : [];
  });
}

/**
 * Where a prefix mapping (`fake` → `target`, as mod_alias and core's DocumentRoot do it: the rest of the
 * URL-path after the prefix is appended to the target) sends the URLs `x ⊆ match`.
 */
export function mapPrefix(x: UrlSet, match: UrlSet, target: string): FsSet | null {
  if (x.kind === 'none' || match.kind === 'none') return null;
  const rest = x.p.slice(match.p.length);
  // the target exists (configured); a rest that continues its last name (`/t/d1` + `b`) leaves that name unknown
  const continues = rest !== '' && !rest.startsWith('/') && !target.endsWith('/');
  return fsSetOf(target + rest, x.kind, depthOf(target) - (continues ? 1 : 0));
}

/** A prefix mapping's outcome for x, with the URLs already taken by earlier rules left out. */
export function prefixOutcome(x: UrlSet, excl: readonly UrlSet[], match: UrlSet, target: string, widened: readonly Cause[] = []): Single | null {
  const set = mapPrefix(x, match, target);
  if (!set) return null;
  const out: FsSet[] = [];
  // a prefix match without a final slash whose rest may or may not start with `/` (AliasMatch ^/a(.*)), onto a
  // target ending in `/`, sends `/a/b` and `/ab` to the same path: then what earlier rules took says nothing
  const merges = match.kind === 'str' && !match.p.endsWith('/') && target.endsWith('/');
  for (const e of merges ? [] : excl) {
    // an excluded set must not grow: `str /al/` maps to the paths strictly below …/al, which the fs sets
    // can only widen to …/al itself (the target of URL `/al`, still reaching this rule): leave it out
    if (e.kind === 'str' && (target + e.p.slice(match.kind === 'none' ? 0 : match.p.length)).endsWith('/')) continue;
    const m = mapPrefix(e, match, target);
    if (m) out.push(m);
  }
  return { kind: 'fs', set, excl: out, point: false, widened };
}

/** httpd's ap_server_root_relative: absolute paths as they are, others under ServerRoot (null when unknown). */
export function serverRootRelative(path: string, serverRoot: string | null): string | null {
  if (path.startsWith('/')) return path;
  if (serverRoot === null) return null;
  return `${serverRoot.replace(/\/+$/, '')}/${path}`;
}
