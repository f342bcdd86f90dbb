/**
 * mod_userdir at translate time (after mod_alias): `/~user/rest`. The host's UserDir path list is the
 * virtual host's, else the main server's; `UserDir disabled` / `enabled` without names likewise; the
 * enabled/disabled name lists are not merged (a virtual host has only its own). There is no default path
 * (2.2.0 onwards): without a UserDir path line, nothing happens.
 *
 * Each entry of the list: an absolute path (`/var/www/users` → `/var/www/users/<user>/rest`), a pattern with
 * `*` (`/home/*\/www` → `/home/<user>/www/rest`), a URL (a redirect: no directory), or a path relative to the
 * user's home directory (`public_html`: some directory the model cannot know). With several entries the first
 * that exists is used (the last one regardless). A URL it declines (unknown user, disabled user, `//~x` on
 * 2.2, which kept repeated slashes) goes on to the DocumentRoot.
 */
import { candidates } from './candidates';
import { depthOf, FsPart, fsSetOf, normalizePath } from './fs-sets';
import { ContextFacts, Entry } from './read-config';
import { cause, NOTHING, Outcome, Rule, rulesOf, single, Single } from './rule';
import { Cause } from './types';
import { UrlSet } from './url-sets';
import { Version } from './conditions';

const KEYWORDS = new Set(['disabled', 'disable', 'enabled', 'enable']);

interface UserPart {
  /** The user name when x fixes it; otherwise the beginning of every user name in x. */
  readonly name: string;
  readonly exact: boolean;
  /** What follows `/~user` (empty or starting with `/`), and the kind of set it stands for. */
  readonly rest: string;
  readonly kind: 'seg' | 'str';
}

function userPart(x: UrlSet): UserPart | null {
  if (x.kind === 'none' || !x.p.startsWith('/~')) return null;
  const after = x.p.slice(2);
  const slash = after.indexOf('/');
  if (slash >= 0) return { name: after.slice(0, slash), exact: true, rest: after.slice(slash), kind: x.kind };
  if (x.kind === 'seg') return { name: after, exact: true, rest: '', kind: 'seg' };
  return { name: after, exact: false, rest: '', kind: 'seg' };
}

/** The path for an unknown user: the user's component is any name. */
function anyUserSet(before: string, after: string): { parts: FsPart[]; widened: boolean } | null {
  const marker = '\u0000';
  const comps = normalizePath(before + marker + after);
  if (!comps) return null;
  let widened = false;
  const parts: FsPart[] = comps.map((c) => {
    if (!c.includes(marker)) return { lit: c };
    if (c !== marker) widened = true;
    return { any: true };
  });
  return { parts, widened };
}

function entryOutcome(word: string, user: UserPart, line: Entry): Single {
  const star = word.indexOf('*');
  const absolute = word.startsWith('/');
  const home: Single = { kind: 'any-path', causes: [cause(line.file, line.d, `${word} is relative to each user's home directory`)] };
  let before: string;
  let after: string;
  if (star >= 0) {
    before = word.slice(0, star);
    after = word.slice(star + 1);
    if (after === '' || absolute) {
      if (before.includes(':') && !absolute) return { kind: 'nothing' };
    } else if (before.includes(':')) return { kind: 'nothing' };
    else return home;
  } else if (absolute) {
    before = `${word}/`;
    after = '';
  } else return home;
  if (user.exact) {
    // the configured base (before the user's name) exists; the user's directory may not
    const set = fsSetOf(before + user.name + after + user.rest, user.kind, depthOf(before.slice(0, before.lastIndexOf('/') + 1)));
    return set ? { kind: 'fs', set, excl: [], point: false, widened: [] } : home;
  }
  const any = anyUserSet(before, after);
  if (!any) return home;
  const widened: Cause[] = any.widened || user.name !== '' ? [cause(line.file, line.d, 'user names are read as any name')] : [];
  return { kind: 'fs', set: { parts: any.parts, tail: 'seg', known: depthOf(before.slice(0, before.lastIndexOf('/') + 1)) }, excl: [], point: false, widened };
}

/** mod_userdir's own test (it looks at the second character): `` , `x.`, `x..` are declined; `.` and `..` are not. */
function declinedName(name: string): boolean {
  return name === '' || (name[1] === '.' && (name.length === 2 || (name[2] === '.' && name.length === 3)));
}

function lastFlag(ctx: ContextFacts, keyword: 'disabled' | 'enabled'): boolean | null {
  let state: boolean | null = null;
  for (const e of ctx.directives) {
    if (!e.d.is('UserDir') || e.cert.kind !== 'yes' || e.d.values.length !== 1) continue;
    const w = e.d.values[0].toLowerCase();
    if (w === 'disabled' || w === 'disable') state = keyword === 'disabled';
    else if (w === 'enabled' || w === 'enable') state = keyword === 'enabled';
  }
  return state;
}

function names(ctx: ContextFacts, keyword: 'disabled' | 'enabled'): Set<string> {
  const out = new Set<string>();
  for (const e of ctx.directives) {
    const v = e.d.values;
    if (!e.d.is('UserDir') || e.cert.kind !== 'yes' || v.length < 2) continue;
    const w = v[0].toLowerCase();
    if ((keyword === 'disabled' && (w === 'disabled' || w === 'disable')) || (keyword === 'enabled' && (w === 'enabled' || w === 'enable'))) {
      for (const n of v.slice(1)) out.add(n);
    }
  }
  return out;
}

/** A UserDir line that names directories (not `disabled` / `enabled`). */
function isPath(e: Entry): boolean {
  return e.d.is('UserDir') && e.d.values.length > 0 && !KEYWORDS.has(e.d.values[0].toLowerCase());
}

export function userdirRules(main: ContextFacts, vhost: ContextFacts | null, version: Version): Rule[] {
  const c = candidates(main, vhost, isPath);
  if (c.entries.length === 0) return [];
  const own = vhost ?? main;
  // globally disabled: the host's own `UserDir disabled` (else the main server's), unless named in its own enabled list
  const flag = (vhost && lastFlag(vhost, 'disabled')) ?? lastFlag(main, 'disabled');
  const disabled = names(own, 'disabled');
  const enabled = names(own, 'enabled');
  const applies = (x: UrlSet): boolean => {
    const user = userPart(x);
    if (!user) return false;
    if (user.exact && (declinedName(user.name) || disabled.has(user.name))) return false;
    if (flag === true) return user.exact ? enabled.has(user.name) : enabled.size > 0;
    return true;
  };
  // the last line wins: uncertain later lines are tried first
  const rules = rulesOf([...c.entries].reverse(), (line) => {
    const words = line.d.values;
    const outcome = (x: UrlSet): Outcome => {
      const user = userPart(x);
      if (!user) return NOTHING;
      const alternatives = words.map((w) => entryOutcome(w, user, line));
      const choice = words.length > 1 ? [cause(line.file, line.d, 'the first of these directories that exists is used')] : [];
      return alternatives.length === 1 ? single(alternatives[0]) : { alternatives, choice };
    };
    // 2.2 kept repeated slashes: `//~user` is not a user URL and goes on to the DocumentRoot. On 2.4 the
    // last entry is used whether it exists or not: an absolute one (or a URL) takes every URL of a valid
    // user; one under a home directory only when the user exists
    const last = words[words.length - 1] ?? '';
    const lastIsHome = !last.startsWith('/') && !(last.includes('*') && last.slice(0, last.indexOf('*')).includes(':'));
    const capture: Pick<Rule, 'capture' | 'captureWhy'> =
      version !== '2.4'
        ? { capture: 'none' }
        : lastIsHome
          ? { capture: 'maybe', captureWhy: [cause(line.file, line.d, 'takes these URLs when the user exists')] }
          : { capture: 'all' };
    const takesAll = (x: UrlSet) => applies(x) && (userPart(x)?.exact ?? false);
    return { match: { kind: 'str', p: '/~' }, matchExact: false, takes: [], ...capture, takesAll, applies, outcome };
  });
  // several candidate lines (conditions): any of them may be the one in force
  return c.entries.length > 1 ? rules.map((r) => ({ ...r, takes: [...r.takes, ...c.choice], capture: r.capture === 'none' ? r.capture : ('maybe' as const) })) : rules;
}
