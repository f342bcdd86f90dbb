/**
 * mod_rewrite at translate time (hook_uri2file, first of all mappers) for server and virtual-host rules.
 * The engine state is the virtual host's `RewriteEngine`, else the main server's; a virtual host runs its
 * own rules, plus the main server's after them with `RewriteOptions Inherit` (before them with
 * InheritBefore; main's InheritDown / InheritDownBefore do the same unless the host says IgnoreInherit).
 *
 * Every rule whose pattern may match is uncertain (RewriteCond, chains, earlier rewrites): it may take the
 * URL or not. What it does with it: an external redirect ([R], or an absolute URL to another host), a
 * refusal ([F], [G]) or a proxy ([P]) meets no directory; anything else (a file path, a URL-path, [PT]) is
 * unknown. An absolute URL naming this host is reduced to a local path by mod_rewrite, so it is unknown too.
 * Rules in `<Directory>` / .htaccess act in the fixups phase, after the walks: an internal redirect they make
 * is a new request with its own walk (measured), so they change nothing here.
 */
import { both, Certainty, CERTAIN, NEVER, Version } from './conditions';
import { regexCapture } from './alias-rules';
import { ContextFacts, Entry } from './read-config';
import { cause, NOTHING, Outcome, Rule, underCertainty, unknownOutcome } from './rule';
import { EVERY_URL, regexUrlSet } from './url-sets';

interface Flags {
  readonly redirect: boolean;
  readonly forbidden: boolean;
  readonly gone: boolean;
  readonly proxy: boolean;
  readonly nocase: boolean;
}

function readFlags(arg: string | undefined): Flags {
  const words = (arg ?? '')
    .replace(/^\[|\]$/g, '')
    .split(',')
    .map((w) => w.trim().toLowerCase().split('=')[0]);
  const has = (...names: string[]) => words.some((w) => names.includes(w));
  return {
    redirect: has('r', 'redirect'),
    forbidden: has('f', 'forbidden'),
    gone: has('g', 'gone'),
    proxy: has('p', 'proxy'),
    nocase: has('nc', 'nocase'),
  };
}

/** The host of an absolute http(s) URL when it is spelled literally, else null. */
function literalHost(url: string): string | null {
  const m = /^https?:\/\/([^/:?#]*)/i.exec(url);
  if (!m) return null;
  return /[%$]/.test(m[1]) || m[1] === '' ? null : m[1].toLowerCase();
}

function ruleOutcome(e: Entry, hostNames: readonly string[]): Outcome | null {
  const [, substitution = '', flagsArg] = e.d.values;
  const flags = readFlags(flagsArg);
  if (flags.forbidden || flags.gone || flags.proxy || flags.redirect) return NOTHING;
  if (substitution === '-') return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(substitution)) {
    const host = literalHost(substitution);
    if (host !== null && !hostNames.includes(host)) return NOTHING;
    return unknownOutcome([cause(e.file, e.d, 'an absolute URL that may name this host is reduced to a local path')]);
  }
  return unknownOutcome([cause(e.file, e.d, 'rewrites these URLs to a path the model does not follow')]);
}

/**
 * `first`: the host's first rule, with no RewriteCond before it (nothing can skip, chain or stop it): when
 * it redirects, refuses or proxies, it surely takes the URLs its pattern surely matches.
 */
function ruleFor(e: Entry, hostNames: readonly string[], engine: Certainty, first: boolean, version: Version): Rule | null {
  const [pattern = ''] = e.d.values;
  const outcome = ruleOutcome(e, hostNames);
  if (!outcome) return null;
  const flags = readFlags(e.d.values[2]);
  const negated = pattern.startsWith('!');
  const source = flags.nocase ? `(?i)${pattern}` : pattern;
  const read = negated ? { set: EVERY_URL, exact: false } : regexUrlSet(source);
  const certain = first && outcome === NOTHING && !negated && read.exact;
  const takes = certain ? [] : [cause(e.file, e.d, 'whether it applies depends on its conditions and the rules before it')];
  const rule: Rule = { match: read.set, matchExact: read.exact, takes, capture: certain ? regexCapture(source, version) : 'maybe', outcome: () => outcome };
  return underCertainty(rule, both(e.cert, engine));
}

/** The last RewriteEngine line of a context that may apply: its state and certainty; null when none. */
function engineOf(ctx: ContextFacts): Certainty | null {
  let state: Certainty | null = null;
  for (const e of ctx.directives) {
    if (!e.d.is('RewriteEngine')) continue;
    const on = /^on$/i.test(e.d.values[0] ?? '');
    if (e.cert.kind === 'yes') state = on ? CERTAIN : NEVER;
    else if (e.cert.kind === 'maybe') {
      // may or may not switch: on if either the line or what stood before says on
      if (on) state = { kind: 'maybe', causes: e.cert.causes };
      else if (state && state.kind !== 'no') state = { kind: 'maybe', causes: [...(state.kind === 'maybe' ? state.causes : []), ...e.cert.causes] };
    }
  }
  return state;
}

/** What mod_rewrite reads of one context's own lines. */
interface RewriteFacts {
  readonly engine: Certainty | null;
  /** RewriteOptions words, lower case. */
  readonly options: readonly string[];
  readonly rules: readonly Entry[];
  /** A RewriteCond stands before the context's first RewriteRule. */
  readonly condBeforeFirst: boolean;
}

/** Kept per context: every host of a server reads the main server's lines. */
const factsOf = new WeakMap<ContextFacts, RewriteFacts>();

function rewriteFacts(ctx: ContextFacts): RewriteFacts {
  let facts = factsOf.get(ctx);
  if (!facts) {
    const rules = ctx.directives.filter((e) => e.d.is('RewriteRule'));
    const firstAt = rules.length > 0 ? ctx.directives.indexOf(rules[0]) : -1;
    facts = {
      engine: engineOf(ctx),
      options: ctx.directives.filter((e) => e.d.is('RewriteOptions') && e.cert.kind !== 'no').flatMap((e) => e.d.values.map((v) => v.toLowerCase())),
      rules,
      condBeforeFirst: firstAt > 0 && ctx.directives.slice(0, firstAt).some((x) => x.d.is('RewriteCond')),
    };
    factsOf.set(ctx, facts);
  }
  return facts;
}

/** The rewrite rules of a host (main server when vhost is null), in the order mod_rewrite runs them. */
export function rewriteRules(main: ContextFacts, vhost: ContextFacts | null, hostNames: readonly string[], version: Version): Rule[] {
  const own = rewriteFacts(vhost ?? main);
  const parent = rewriteFacts(main);
  const engine = (vhost && own.engine) ?? parent.engine ?? NEVER;
  if (engine.kind === 'no') return [];
  let entries = own.rules;
  if (vhost) {
    const mine = own.options;
    const ignore = mine.includes('ignoreinherit');
    if (mine.includes('inherit') || (parent.options.includes('inheritdown') && !ignore)) entries = [...entries, ...parent.rules];
    else if (mine.includes('inheritbefore') || (parent.options.includes('inheritdownbefore') && !ignore)) entries = [...parent.rules, ...entries];
  }
  // the list's first rule is the first of the context it comes from
  const first = entries[0] === own.rules[0] ? own : parent;
  const rules: Rule[] = [];
  entries.forEach((e, i) => {
    const rule = ruleFor(e, hostNames, engine, i === 0 && !first.condBeforeFirst, version);
    if (rule) rules.push(rule);
  });
  return rules;
}
