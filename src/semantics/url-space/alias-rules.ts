/**
 * mod_alias at translate time (translate_alias_redir): first the redirects (a `<Location>`'s one-argument
 * Redirect, then the server's Redirect* list: the virtual host's entries, then the main server's), then the
 * aliases (a `<Location>`'s one-argument Alias, then Alias* entries, the virtual host's first). A redirected
 * URL meets no directory. Two-argument Redirect inside `<Location>`/`<Directory>`/.htaccess runs in the fixups
 * phase, after the walks, and changes nothing here.
 */
import { Version } from './conditions';
import { Entry, LocationEntry } from './read-config';
import { capturingGroups, groupStartsWithSlash, regexShape, substitutionHead } from './regex-shape';
import { addRule, cause, NOTHING, Outcome, prefixOutcome, Rule, serverRootRelative, single, Single, unknownOutcome } from './rule';
import { depthOf, fsSetOf } from './fs-sets';
import { collapseSlashes, prefixSet, regexUrlSet, UrlSet } from './url-sets';

const REDIRECTS = new Set(['redirect', 'redirectmatch', 'redirecttemp', 'redirectpermanent']);
const ALIASES = new Set(['alias', 'scriptalias', 'aliasmatch', 'scriptaliasmatch']);

/** How mod_alias reads Redirect's first argument (add_redirect_internal): 1 a 3xx status, -1 another status, 0 not a status. */
function statusWord(arg: string): number {
  const lower = arg.toLowerCase();
  if (lower === 'permanent' || lower === 'temp' || lower === 'seeother') return 1;
  if (lower === 'gone') return -1;
  if (/^[0-9]/.test(arg)) {
    const n = Number.parseInt(arg, 10);
    return n >= 300 && n < 400 ? 1 : -1;
  }
  return 0;
}

/** The URL-path (or regex) a server-level Redirect* line matches. */
function redirectPattern(e: Entry): string | null {
  const name = e.d.lowerName;
  const v = e.d.values;
  if (name === 'redirecttemp' || name === 'redirectpermanent') return v[0] ?? null;
  const grok = statusWord(v[0] ?? '');
  if (v.length >= 3) return grok !== 0 ? v[1] : null;
  if (v.length === 2) return grok === 0 ? v[0] : v[1];
  return null;
}

/**
 * Regex-based rules never capture on 2.2 (r->uri kept repeated slashes: `//x` escapes `^/x`, which the
 * segment-aware prefixes of `<Location>` and Alias still match); on 2.4 a pattern read exactly does, and one
 * read as its literal prefix may.
 */
export function regexCapture(source: string, version: Version): 'all' | 'none' | 'maybe' {
  const read = regexUrlSet(source);
  if (version === '2.4') return read.exact ? 'all' : 'maybe';
  // `^/…` with an open tail takes every URL-path there is, repeated slashes or not (2.2: no DOTALL, so no `$`)
  const shape = regexShape(source);
  return read.exact && read.set.kind === 'str' && read.set.p === '/' && !shape.dollar ? 'all' : 'none';
}

/** A rule inside a `<Location>` takes that Location's URLs; when the Location is a widened regex, perhaps only some. */
export function locationCapture(e: LocationEntry): Pick<Rule, 'capture' | 'captureWhy'> {
  if (e.loc.exact) return { capture: 'all' };
  return { capture: 'maybe', captureWhy: [cause(e.file, e.d, 'its <Location> pattern is read as its literal prefix')] };
}

/** A redirect meets no directory. */
const redirected = (): Outcome => NOTHING;

function serverRedirect(e: Entry, version: Version): Rule | null {
  const name = e.d.lowerName;
  const pattern = REDIRECTS.has(name) ? redirectPattern(e) : null;
  if (pattern === null) return null;
  if (name !== 'redirectmatch') return { match: prefixSet(pattern), matchExact: true, takes: [], capture: 'all', outcome: redirected };
  const read = regexUrlSet(pattern);
  const takes = read.exact ? [] : [cause(e.file, e.d, 'its pattern is read as its literal prefix')];
  return { match: read.set, matchExact: read.exact, takes, capture: regexCapture(pattern, version), outcome: redirected };
}

export function serverRedirects(entries: readonly Entry[], version: Version): Rule[] {
  const out: Rule[] = [];
  for (const e of entries) addRule(out, serverRedirect(e, version), e);
  return out;
}

/** AliasMatch's destination for URLs x: exact for `^/lit(.*)` + `/target$1` (a prefix mapping), widened otherwise. */
function aliasMatchOutcome(e: Entry, pattern: string, target: string, serverRoot: string | null): (x: UrlSet, excl: readonly UrlSet[]) => Outcome {
  const shape = regexShape(pattern);
  const sub = substitutionHead(target);
  const groups = capturingGroups(pattern);
  const head = serverRootRelative(sub.literal, serverRoot);
  const widened = [cause(e.file, e.d, 'its target is read as its literal prefix')];
  return (x, excl) => {
    if (head === null) return unknownOutcome([cause(e.file, e.d, 'relative target and no ServerRoot')]);
    if (sub.ref === null) {
      const set = fsSetOf(head, 'seg', depthOf(head));
      return set ? single({ kind: 'fs', set, excl: [], point: true, widened: [] }) : unknownOutcome(widened);
    }
    const group = sub.ref === 0 ? pattern : (groups[sub.ref - 1] ?? '');
    const prefixLike =
      shape.anchored && sub.ref === 1 && sub.rest === '' && groups.length >= 1 && (shape.rest === '(.*)' || shape.rest === '(.*)$' || (!shape.literal.endsWith('/') && (shape.rest === '(/.*)?' || shape.rest === '(/.*)?$')));
    if (prefixLike) {
      const literal = collapseSlashes(shape.literal);
      const match: UrlSet = shape.rest.startsWith('(.*)') ? { kind: 'str', p: literal } : { kind: 'seg', p: literal };
      const out = prefixOutcome(x, excl, match, head);
      if (out) return single(out);
    }
    const kind = groupStartsWithSlash(group) && !head.endsWith('/') ? 'seg' : 'str';
    const set = fsSetOf(head, kind, depthOf(head));
    return set ? single({ kind: 'fs', set, excl: [], point: false, widened }) : unknownOutcome(widened);
  };
}

function serverAlias(e: Entry, serverRoot: string | null, version: Version): Rule | null {
  const name = e.d.lowerName;
  if (!ALIASES.has(name) || e.d.values.length < 2) return null;
  const [fake, real] = e.d.values;
  if (name.endsWith('match')) {
    const read = regexUrlSet(fake);
    const takes = read.exact ? [] : [cause(e.file, e.d, 'its pattern is read as its literal prefix')];
    return { match: read.set, matchExact: read.exact, takes, capture: regexCapture(fake, version), outcome: aliasMatchOutcome(e, fake, real, serverRoot) };
  }
  const match = prefixSet(fake);
  const target = serverRootRelative(real, serverRoot);
  const outcome = (x: UrlSet, excl: readonly UrlSet[]): Outcome => {
    const out: Single | null = target === null ? null : prefixOutcome(x, excl, match, target);
    return out ? single(out) : unknownOutcome([cause(e.file, e.d, 'relative target and no ServerRoot')]);
  };
  return { match, matchExact: true, takes: [], capture: 'all', outcome };
}

export function serverAliases(entries: readonly Entry[], serverRoot: string | null, version: Version): Rule[] {
  const out: Rule[] = [];
  for (const e of entries) addRule(out, serverAlias(e, serverRoot, version), e);
  return out;
}

/**
 * One-argument Redirect / Alias inside a `<Location>` (2.4.13+: an expression, evaluated at translate time
 * with the Location's configuration). Two-argument Redirect there runs in fixups and is ignored.
 */
function locationRedirect(e: LocationEntry): Rule | null {
  const v = e.d.values;
  const grok = statusWord(v[0] ?? '');
  const oneArg = (grok > 0 && v.length === 2) || (grok <= 0 && v.length === 1);
  if (!e.d.is('Redirect') || !oneArg) return null;
  return { match: e.loc.set, matchExact: e.loc.exact, takes: [], ...locationCapture(e), outcome: redirected };
}

export function locationRedirects(entries: readonly LocationEntry[]): Rule[] {
  const out: Rule[] = [];
  for (const e of entries) addRule(out, locationRedirect(e), e);
  return out;
}

function locationAlias(e: LocationEntry): Rule | null {
  if (!e.d.is('Alias', 'ScriptAlias') || e.d.values.length !== 1) return null;
  const c = cause(e.file, e.d, 'an Alias expression inside <Location> decides the file name');
  return { match: e.loc.set, matchExact: e.loc.exact, takes: [c], capture: 'maybe', outcome: () => unknownOutcome([c]) };
}

export function locationAliases(entries: readonly LocationEntry[]): Rule[] {
  const out: Rule[] = [];
  for (const e of entries) addRule(out, locationAlias(e), e);
  return out;
}
