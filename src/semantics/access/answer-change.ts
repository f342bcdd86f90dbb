/**
 * Does the migration change what a scope answers, compared with what httpd
 * 2.4 + mod_access_compat answers for the same configuration today? For
 * mixed configurations (2.2 rules beside 2.4 ones, or below 2.4 parents
 * outside the run) the migration follows the nearer-section-replaces rule,
 * which is not what compat does; this finds one concrete request where the
 * two differ, for a human to look at.
 *
 * Both sides are evaluated with the compat model (compat24.ts) over the
 * scope's chain, request possibility by request possibility: "today" from
 * what each section holds now, "after" from what it will hold (a migrated
 * section: its Require tree and no compat record).
 */
import { EffectiveCompat24, ScopeCompat24, evaluateCompat24, mergeCompat24 } from './compat24';
import { ChainQuery, byOrder, chainOptions } from './chain-options';
import { Directive } from '../../cst';
import { grantedClasses } from '../allow-override';
import { AccessScope } from './scopes';
import { Witness, emptyMentions, findWitness, mentionRecord, mentionTree } from './witness';

export type ScopeData = (scope: AccessScope) => ScopeCompat24;

/** The chain query for comparing `today` with `after`: build it once per server (its tests index the scopes). */
export function changeQuery(today: ScopeData, after: ScopeData): ChainQuery {
  const either = (f: (d: ScopeCompat24) => boolean) => (s: AccessScope) => f(today(s)) || f(after(s));
  const both = (f: (d: ScopeCompat24) => boolean) => (s: AccessScope) => f(today(s)) && f(after(s));
  const hasRecord = (d: ScopeCompat24) => d.record !== null;
  const setsAuthz = (d: ScopeCompat24) => d.authz.tree !== null && (d.authz.op === null || d.authz.op === 'off');
  const hasAuthz = (d: ScopeCompat24) => d.authz.tree !== null || d.authz.op !== null;
  const hasAuthType = (d: ScopeCompat24) => d.authType !== null;
  return {
    parts: {
      record: { has: either(hasRecord), full: both(hasRecord) },
      Require: { has: either(hasAuthz), full: both(setsAuthz) },
      AuthType: { has: either(hasAuthType), full: both(hasAuthType) },
    },
    // every possibility is compared, whatever it holds
    replaceOnly: () => true,
    // a finding for a human, looked for once per scope of a mixed config: more possibilities than
    // planning compares (seed 280 of the fuzz test: six sources that may apply, and no witness found)
    maxUncertain: 8,
    maxCombinations: 256,
  };
}

/** A <Directory> that sets AllowOverride itself (the nearest such section governs the per-directory files below it). */
const setsAllowOverride = (s: AccessScope) => s.kind === 'directory' && ownAllowOverride(s) !== null;

function ownAllowOverride(s: AccessScope): Directive | null {
  if (s.container.kind !== 'section') return null;
  let last: Directive | null = null;
  for (const n of s.container.body) if (n.kind === 'directive' && n.is('AllowOverride')) last = n;
  return last;
}

/** For a per-directory file: the chains in which httpd reads it at all (the nearest AllowOverride is not None). */
function readsFile(scope: AccessScope, chain: readonly AccessScope[]): boolean {
  if (scope.kind !== 'htaccess') return true;
  const governing = [...chain].reverse().find(setsAllowOverride);
  const line = governing ? ownAllowOverride(governing) : null;
  return !line || grantedClasses(line).size > 0;
}

function effective(chain: readonly AccessScope[], scope: AccessScope, data: ScopeData): EffectiveCompat24 {
  return mergeCompat24([...chain.map(data), data(scope)]);
}

/** A request the scope answers differently after the migration, or null when none was found (or the chain cannot be told). */
export function answerChange(
  scope: AccessScope,
  all: readonly AccessScope[],
  today: ScopeData,
  after: ScopeData,
  methods: readonly string[],
  query: ChainQuery = changeQuery(today, after),
): Witness | null {
  const withOverride: ChainQuery =
    scope.kind === 'htaccess' ? { ...query, parts: { ...query.parts, AllowOverride: { has: setsAllowOverride, full: () => false } } } : query;
  const combos = chainOptions(scope, all, withOverride);
  if (typeof combos === 'string') return null;
  for (const combo of combos) {
    const chain = [...new Set([...combo.values()].flat())].sort(byOrder);
    // a request on which httpd does not read the file answers alike before and after
    if (!readsFile(scope, chain)) continue;
    const before = effective(chain, scope, today);
    const later = effective(chain, scope, after);
    const mentions = emptyMentions();
    for (const e of [before, later]) {
      mentionTree(e.tree, mentions);
      mentionRecord(e.record, mentions);
    }
    const witness = findWitness(
      (req) => evaluateCompat24(before, req),
      (req) => evaluateCompat24(later, req),
      mentions,
      methods,
    );
    if (witness) return witness;
  }
  return null;
}
