/**
 * Mixed configurations: what httpd 2.4 WITH mod_access_compat does when old
 * (Order/Allow/Deny/Satisfy) and new (Require) rules meet, in one scope or
 * across scopes, and how to say the same in pure 2.4. Measured on 2.4.71
 * (docs/research/access-measurements.md, C*, D*, H*, M*):
 *
 * - mod_access_compat keeps Order, Allow, Deny AND Satisfy in one record with
 *   no merger: the nearest scope with any of them supplies the whole record
 *   (a record with only Satisfy allows everyone; no Satisfy means All);
 * - mod_authz_core merges Require sections by AuthMerging (Off replaces, And /
 *   Or combine with the parent's, no Require inherits); old Require words
 *   (`valid-user`, `user`, `group`) are ordinary 2.4 providers;
 * - Satisfy All (or unset): the record must pass (else 403) AND authz_core must
 *   grant; Satisfy Any: the record passing is enough, else authz_core decides;
 *   authz_core with no section in effect grants (500 AH01627 when AuthType is set).
 */
import { AuthzStatus, LeafOracle, applyAuthzSections, asRootSection, evaluate24, outcome24 } from './eval24';
import { hostTreeFor } from './host-tree';
import { hostRulesAllow } from './host-rules22';
import { satisfyFor } from './eval22';
import { methodClassSamples, namedMethods } from './method-classes';
import { canonicalMethod, intersectMasks, maskContains } from './method-mask';
import { combineMethodGroups, groupMethods } from './combine-methods';
import { checkRequireTree } from './check-require-tree';
import { GRANTED, RequireLeaf, USER_PROVIDERS, allOf, anyOf, isDenied, isGranted } from './require-tree';
import { CompileResult } from './compile';
import { AuthMergingOp } from './read-authz24';
import { ALL_METHODS, Effective22, HostRecord, MethodMask, Outcome, Request, RequireNode, SatisfySetting } from './types';

/** mod_access_compat's record of one scope (present when it has any Order/Allow/Deny/Satisfy). */
export interface CompatRecord {
  /** Order/Allow/Deny; a record with none of them is the fresh default (Deny,Allow, empty lists: everyone passes). */
  readonly host: HostRecord;
  readonly satisfy: readonly SatisfySetting[];
}

/** What one scope sets, as 2.4 + mod_access_compat reads it. */
export interface ScopeCompat24 {
  readonly record: CompatRecord | null;
  readonly authz: { readonly op: AuthMergingOp | null; readonly tree: RequireNode | null };
  readonly authType: string | null;
}

export interface EffectiveCompat24 {
  readonly record: CompatRecord | null;
  /** The merged authz_core section (null: none in effect). */
  readonly tree: RequireNode | null;
  readonly authType: string | null;
}

export const EMPTY_HOST: HostRecord = { orders: [], allows: [], denys: [] };

export function compatRecordOf(host: HostRecord | null, satisfy: readonly SatisfySetting[]): CompatRecord | null {
  if (host === null && satisfy.length === 0) return null;
  return { host: host ?? EMPTY_HOST, satisfy };
}

/** mod_authz_core's merge_authz_core_dir_config, one step. */
function mergeAuthz(
  base: { op: AuthMergingOp | null; tree: RequireNode | null },
  next: { op: AuthMergingOp | null; tree: RequireNode | null },
): { op: AuthMergingOp | null; tree: RequireNode | null } {
  if (next.op === null && !next.tree) return base;
  if (next.op === null || next.op === 'off' || !(base.tree || next.tree)) return next;
  if (!base.tree) return next;
  if (!next.tree) return base;
  return { op: next.op, tree: { kind: next.op === 'and' ? 'all' : 'any', children: [base.tree, next.tree] } };
}

/** `chain` runs from the outermost scope to the request's innermost one. */
export function mergeCompat24(chain: readonly ScopeCompat24[]): EffectiveCompat24 {
  let record: CompatRecord | null = null;
  let authz: { op: AuthMergingOp | null; tree: RequireNode | null } = { op: null, tree: null };
  let authType: string | null = null;
  for (const scope of chain) {
    if (scope.record) record = scope.record;
    authz = mergeAuthz(authz, scope.authz);
    if (scope.authType !== null) authType = scope.authType;
  }
  return { record, tree: authz.tree, authType };
}

/** 2.4 + mod_access_compat's answer (ap_process_request_internal's Satisfy switch). */
export function evaluateCompat24(eff: EffectiveCompat24, req: Request): Outcome {
  const hostOk = eff.record ? hostRulesAllow(eff.record.host, req) : true;
  const satisfy = eff.record ? satisfyFor(eff.record.satisfy, req.method) : 'all';
  if (satisfy === 'all' && !hostOk) return 403;
  if (satisfy === 'any' && hostOk) return 200;
  return evaluate24(eff.tree, eff.authType, req);
}

// ------------------------------------------------------------------ compiling

/**
 * The tree `node` is for one method, without `<Limit>`: lines limited to other
 * methods drop out of a RequireAny and grant inside a RequireAll (§7.2/7.3).
 * Returns null when nothing in it applies to the method.
 */
function forMethod(node: RequireNode, method: string, inherited: MethodMask = ALL_METHODS): RequireNode | null {
  const mask = node.methods ? intersectMasks(inherited, node.methods) : inherited;
  if (node.kind === 'require') {
    if (!maskContains(mask, method)) return null;
    return { kind: 'require', provider: node.provider, args: node.args, negate: node.negate };
  }
  const children = node.children.map((c) => forMethod(c, method, mask)).filter((c): c is RequireNode => c !== null);
  if (children.length === 0) return null;
  if (node.kind === 'none') return { kind: 'none', children };
  return node.kind === 'all' ? allOf(children) : anyOf(children);
}

/** Providers whose arguments are alternatives: each argument is its own unknown. */
const LIST = new Set(['ip', 'host', 'env', 'user', 'group', 'dbm-group']);

/** The independent unknowns a leaf stands for (one per argument for list providers). */
function atomsOf(leaf: RequireLeaf): string[] {
  if (LIST.has(leaf.provider)) return leaf.args.map((a) => JSON.stringify([leaf.provider, a]));
  return [JSON.stringify([leaf.provider, leaf.args])];
}

function collectFree(node: RequireNode | null, keys: Set<string>): void {
  if (!node) return;
  if (node.kind === 'require') {
    if (node.provider !== 'all' && node.provider !== 'method') for (const a of atomsOf(node)) keys.add(a);
  } else for (const c of node.children) collectFree(c, keys);
}

function abstractOracle(keys: readonly string[], bits: number, method: string, withUser: boolean): LeafOracle {
  return (leaf) => {
    if (leaf.provider === 'all') return leaf.args.join(' ').toLowerCase() === 'granted' ? 'granted' : 'denied';
    if (leaf.provider === 'method') return leaf.args.some((m) => canonicalMethod(m) === canonicalMethod(method)) ? 'granted' : 'denied';
    if (USER_PROVIDERS.has(leaf.provider) && !withUser) return 'denied-no-user';
    return atomsOf(leaf).some((a) => bits & (1 << keys.indexOf(a))) ? 'granted' : 'denied';
  };
}

const MAX_FREE = 14;

/**
 * Proves, for one method, that the pure-2.4 tree answers like 2.4 + compat
 * whatever each Require line (or host word group) answers: lines are treated as
 * independent unknowns, so the proof holds for every real request.
 */
function provenForMethod(compiled: RequireNode, host: RequireNode, eff: EffectiveCompat24, method: string): boolean {
  const set = new Set<string>();
  collectFree(compiled, set);
  collectFree(host, set);
  collectFree(eff.tree, set);
  const keys = [...set];
  if (keys.length > MAX_FREE) return false;
  const satisfy = eff.record ? satisfyFor(eff.record.satisfy, method) : 'all';
  const run = (tree: RequireNode, withUser: boolean, bits: number): AuthzStatus =>
    applyAuthzSections(asRootSection(tree), method, 'and', abstractOracle(keys, bits, method, withUser));
  const treeOutcome = (tree: RequireNode | null, creds: Request['credentials'], bits: number): Outcome => {
    if (!tree) return eff.authType ? 500 : 200;
    return outcome24(run(tree, false, bits), eff.authType, creds, () => run(tree, true, bits));
  };
  for (let bits = 0; bits < 1 << keys.length; bits++) {
    const hostOk = run(host, false, bits) === 'granted';
    for (const creds of [{ kind: 'none' }, { kind: 'user', user: 'u', groups: [] }] as Request['credentials'][]) {
      const want = satisfy === 'all' ? (hostOk ? treeOutcome(eff.tree, creds, bits) : 403) : hostOk ? 200 : treeOutcome(eff.tree, creds, bits);
      if (treeOutcome(compiled, creds, bits) !== want) return false;
    }
  }
  return true;
}

function methodMasks(eff: EffectiveCompat24): MethodMask[] {
  const out: MethodMask[] = [];
  const walk = (n: RequireNode | null) => {
    if (!n) return;
    if (n.methods) out.push(n.methods);
    if (n.kind !== 'require') n.children.forEach(walk);
  };
  walk(eff.tree);
  return out;
}

/** The Effective22 shape method-classes.ts reads masks from. */
function asMaskSource(eff: EffectiveCompat24): Effective22 {
  const extra = methodMasks(eff).map((methods) => ({ words: ['valid-user'], methods }));
  return {
    host: eff.record?.host ?? null,
    requires: extra,
    satisfy: eff.record?.satisfy ?? [],
    authType: eff.authType,
    dbmGroups: false,
    authoritative: { user: true, groupFile: true, dbm: true, owner: true, default: true },
  };
}

/**
 * The pure 2.4 Require tree that answers every request as `eff` does on 2.4 +
 * mod_access_compat: per method, Satisfy All = host tree AND the authz_core
 * section, Satisfy Any = host tree OR it; methods joined with `<Limit>`.
 */
export function compileCompat24(eff: EffectiveCompat24, methodUniverse: readonly string[]): CompileResult {
  const source = asMaskSource(eff);
  const perMethod: { method: string; tree: RequireNode }[] = [];
  const notes: string[] = [];
  for (const method of methodClassSamples(source, methodUniverse)) {
    const host = hostTreeFor(eff.record?.host ?? null, method);
    for (const note of host.notes) if (!notes.includes(note)) notes.push(note);
    const satisfy = eff.record ? satisfyFor(eff.record.satisfy, method) : 'all';
    let authz: RequireNode;
    if (eff.tree) {
      authz = forMethod(asRootSection(eff.tree), method) ?? GRANTED;
    } else if (eff.authType && !(satisfy === 'all' ? isDenied(host.tree) : isGranted(host.tree))) {
      return { unsupported: 'AuthType is set but no Require applies: 2.4 answers 500 here today (AH01627); say what was meant with a Require line' };
    } else {
      authz = GRANTED;
    }
    const tree = satisfy === 'all' ? allOf([host.tree, authz]) : anyOf([host.tree, authz]);
    if (!provenForMethod(tree, host.tree, eff, method)) {
      return { unsupported: `the combined rules for ${method} could not be proven equivalent (too many lines, or a Require tree that can answer neutral)` };
    }
    perMethod.push({ method, tree });
  }
  const groups = groupMethods(perMethod);
  const tree = combineMethodGroups(groups, namedMethods(source, methodUniverse), eff.authType);
  if (!tree) return { unsupported: 'no <Limit> arrangement of the per-method rules could be shown equivalent' };
  const errors = checkRequireTree(tree);
  if (errors.length > 0) return { unsupported: `the compiled Require tree would not load: ${errors.join('; ')}` };
  return { tree, notes };
}

/** Method classes (of `methodUniverse`) for which no Require line of the merged section applies. */
export function methodsWithoutRequire(eff: EffectiveCompat24, methodUniverse: readonly string[]): string[] {
  return methodClassSamples(asMaskSource(eff), methodUniverse).filter((m) => !eff.tree || forMethod(asRootSection(eff.tree), m) === null);
}

/** The tree the migrated scope is checked with (exported for tests). */
export function evaluateCompiled(tree: RequireNode | null, authType: string | null, req: Request): Outcome {
  return evaluate24(tree, authType, req);
}
