/**
 * The last mappers: mod_vhost_alias (VirtualDocumentRoot / VirtualScriptAlias, interpolated from the host
 * name or address: read as the literal part before the first `%`), core's ServerPath (a virtual host's
 * URL-path prefix, stripped before the DocumentRoot is prepended) and core's DocumentRoot (the virtual
 * host's, else the main server's; relative to ServerRoot). An unset DocumentRoot is httpd's compiled-in
 * default, which the model does not know.
 */
import { candidates, Candidates } from './candidates';
import { depthOf, fsSetOf } from './fs-sets';
import { ContextFacts, Entry } from './read-config';
import { addRule, cause, Outcome, prefixOutcome, Rule, serverRootRelative, Single, single, unknownOutcome } from './rule';
import { Cause } from './types';
import { EVERY_URL, prefixSet, UrlSet } from './url-sets';

function literalBeforePercent(path: string): string {
  const i = path.indexOf('%');
  return i < 0 ? path : path.slice(0, i);
}

function vhostAliasRule(e: Entry, match: UrlSet, serverRoot: string | null): Rule {
  const head = serverRootRelative(literalBeforePercent(e.d.values[0] ?? ''), serverRoot);
  const widened = [cause(e.file, e.d, 'the path is interpolated from the host name or address')];
  const set = head === null ? null : fsSetOf(head, 'str', depthOf(head));
  const outcome = (): Outcome => (set ? single({ kind: 'fs', set, excl: [], point: false, widened }) : unknownOutcome(widened));
  return { match, matchExact: true, takes: [], capture: 'all', outcome };
}

/** Last line wins: the uncertain later lines are tried before the line that surely applies. */
function latestFirst(c: Candidates): Entry[] {
  return [...c.entries].reverse();
}

const isVirtualScriptAlias = (e: Entry): boolean => e.d.is('VirtualScriptAlias', 'VirtualScriptAliasIP');
const isVirtualDocumentRoot = (e: Entry): boolean => e.d.is('VirtualDocumentRoot', 'VirtualDocumentRootIP');
const isDocumentRoot = (e: Entry): boolean => e.d.is('DocumentRoot') && e.d.values.length > 0;
const isServerPath = (e: Entry): boolean => e.d.is('ServerPath') && e.d.values.length > 0;

const CGI_BIN: UrlSet = { kind: 'str', p: '/cgi-bin/' };

export function vhostAliasRules(main: ContextFacts, vhost: ContextFacts | null, serverRoot: string | null): Rule[] {
  const script = candidates(main, vhost, isVirtualScriptAlias);
  const doc = candidates(main, vhost, isVirtualDocumentRoot);
  const out: Rule[] = [];
  for (const e of latestFirst(script)) addRule(out, vhostAliasRule(e, CGI_BIN, serverRoot), e);
  for (const e of latestFirst(doc)) addRule(out, vhostAliasRule(e, EVERY_URL, serverRoot), e);
  return out;
}

/** Where the DocumentRoot sends URLs matching `match` (everything, or ServerPath's prefix), minus the URLs already taken. */
function docrootOutcome(roots: readonly Entry[], unset: Cause | null, choice: readonly Cause[], match: UrlSet, serverRoot: string | null) {
  return (x: UrlSet, excl: readonly UrlSet[]): Outcome => {
    const alternatives: Single[] = roots.map((e) => {
      const root = serverRootRelative(e.d.values[0] ?? '', serverRoot);
      const out = root === null ? null : prefixOutcome(x, excl, match, `${root}/`);
      return out ?? { kind: 'unknown', causes: [cause(e.file, e.d, 'relative to a ServerRoot that is not set')] };
    });
    if (unset) alternatives.push({ kind: 'unknown', causes: [unset] });
    return alternatives.length === 1 ? single(alternatives[0], choice) : { alternatives, choice };
  };
}

export function docrootRules(main: ContextFacts, vhost: ContextFacts | null, serverRoot: string | null): Rule[] {
  const c = candidates(main, vhost, isDocumentRoot);
  const unset: Cause | null = c.mayBeUnset
    ? { file: main.file, line: 0, why: "DocumentRoot is not set: httpd's compiled-in default applies, which the model does not know" }
    : null;
  // ServerPath is a virtual host's own (not inherited)
  const serverPath = vhost ? candidates({ ...vhost, directives: [] }, vhost, isServerPath) : null;
  const stripped: Rule[] = [];
  for (const e of serverPath ? latestFirst(serverPath) : []) {
    const match = prefixSet(e.d.values[0]);
    addRule(stripped, { match, matchExact: true, takes: [], capture: 'all', outcome: docrootOutcome(c.entries, unset, c.choice, match, serverRoot) }, e);
  }
  return [...stripped, { match: EVERY_URL, matchExact: true, takes: [], capture: 'all', outcome: docrootOutcome(c.entries, unset, c.choice, EVERY_URL, serverRoot) }];
}
