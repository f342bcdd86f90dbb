/**
 * Lines that may send URLs anywhere, placed first (a module the model does not know may hook translation
 * before httpd's own mappers): directives of unknown modules whose first argument is a URL-path (for the
 * URLs under it), URL-translation hooks (mod_lua's early hooks, mod_perl / mod_python trans handlers: every
 * URL of their context), `Use` of a `<Macro>` that holds mapping lines, and one-argument mapping lines inside
 * `<If>` (2.4 evaluates them at translate time with the `<If>` merged).
 */
import { EARLY_HOOKS, takesOverLocation, unknownReach } from './directive-kinds';
import { ContextFacts, Entry, ServerFacts } from './read-config';
import { cause, Rule, underCertainty, unknownOutcome } from './rule';
import { Cause } from './types';
import { EVERY_URL, prefixSet, regexUrlSet, UrlSet } from './url-sets';
import { literalHead } from './glob';

function unknownRule(match: UrlSet, c: Cause, entry: Entry): Rule | null {
  return underCertainty({ match, matchExact: false, takes: [c], capture: 'maybe', outcome: () => unknownOutcome([c]) }, entry.cert);
}

function urlArgSet(arg: string): UrlSet {
  if (arg.startsWith('^')) return regexUrlSet(arg).set;
  const head = literalHead(arg);
  if (head !== arg) return head.length <= 1 ? EVERY_URL : { kind: 'str', p: head };
  const set = prefixSet(arg);
  // a module's own prefix rules are not known: `/app` may also take `/application`
  return set.kind === 'seg' ? { kind: 'str', p: set.p } : set;
}

/** The rules of one context's own lines (the main server's, or a virtual host's). */
export function contextRules(ctx: ContextFacts, server: ServerFacts): Rule[] {
  const rules: Rule[] = [];
  const push = (r: Rule | null) => r && rules.push(r);
  for (const e of ctx.directives) {
    const name = e.d.lowerName;
    if (EARLY_HOOKS.has(name)) {
      push(unknownRule(EVERY_URL, cause(e.file, e.d, 'a Lua hook may map any URL'), e));
      continue;
    }
    if (name === 'use') {
      const macro = (e.d.values[0] ?? '').toLowerCase();
      if (server.mappingMacros.has(macro) || !server.macros.has(macro)) push(unknownRule(EVERY_URL, cause(e.file, e.d, 'the macro may hold URL mapping lines'), e));
      continue;
    }
    const reach = unknownReach(e.d);
    if (reach?.kind === 'every') push(unknownRule(EVERY_URL, cause(e.file, e.d, 'a module the model does not know hooks URL translation'), e));
    else if (reach?.kind === 'url') push(unknownRule(urlArgSet(reach.arg), cause(e.file, e.d, 'a module the model does not know maps these URLs'), e));
  }
  for (const e of ctx.inLocations) {
    const name = e.d.lowerName;
    if (EARLY_HOOKS.has(name) || takesOverLocation(e.d)) {
      push(unknownRule(e.loc.set, cause(e.file, e.d, "may take over this <Location>'s URLs before the directory walk"), e));
    }
  }
  for (const e of ctx.inIfs) {
    const oneArg = e.d.values.length === 1 && e.d.is('Alias', 'ScriptAlias', 'Redirect', 'ProxyPass');
    if (oneArg || EARLY_HOOKS.has(e.d.lowerName)) push(unknownRule(EVERY_URL, cause(e.file, e.d, 'evaluated at translate time inside <If>'), e));
  }
  return rules;
}
