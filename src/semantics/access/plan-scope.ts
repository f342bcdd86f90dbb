/**
 * Plans one scope's migration: the Require tree that carries its whole
 * effective policy (a 2.4 section with Require replaces what it inherits).
 *
 * The policy is what the configuration means, decided by one rule:
 * - among 2.2-style sections, 2.2's inheritance (host rules, Require and
 *   Satisfy each inherited on their own; merge22.ts);
 * - across the syntax boundary — a 2.2-style section below a 2.4-style one
 *   (2.4 Require syntax, AuthMerging), or below parents outside the run — the
 *   nearer section replaces the inherited rules, as 2.4 does by default. A
 *   2.2-style section whose rules, read that way, set neither host rules nor
 *   Require (only Satisfy, only AuthType) has nothing to replace them with:
 *   it is written without a Require block and keeps what the 2.4 sections
 *   above it require;
 * - a section holding both Order/Allow/Deny and 2.4 Require lines is its
 *   own two halves joined the way they join in one section (Satisfy).
 * Where the inheritance depends on the request, every possibility is planned
 * and the plan kept only when all agree.
 */
import { ScopeCompat24, compatRecordOf, compileCompat24, mergeCompat24 } from './compat24';
import { BARRIER, ChainQuery, PartRule, Sources, ambiguityReason, chainOptions, precedingHolders, where } from './chain-options';
import { CompileResult, compileEffective } from './compile';
import { merge22 } from './merge22';
import { isAllMethods } from './method-mask';
import { AccessScope } from './scopes';
import { Effective22, RequireNode, ScopeRules22 } from './types';

export type ScopeStyle = 'old' | 'new' | 'both' | 'plain' | 'none';

/** Directives that exist only in 2.2 (or 2.4's mod_access_compat): their presence means the scope needs migrating. */
export function hasOldRules(rules: ScopeRules22): boolean {
  return rules.host !== null || rules.satisfy.length > 0 || Object.keys(rules.authoritative).length > 0;
}

/**
 * old: Order/Allow/Deny/Satisfy/Authz*Authoritative; new: 2.4-only Require syntax or AuthMerging;
 * both: the two in one section; plain: only Require lines 2.2 and 2.4 read alike (`valid-user`, `user`, `group`).
 */
export function styleOf(s: AccessScope): ScopeStyle {
  const old = hasOldRules(s.read.rules);
  const modern = s.authz.has24;
  if (old && modern) return 'both';
  if (old) return 'old';
  if (modern) return 'new';
  return s.read.rules.requires !== null ? 'plain' : 'none';
}

/** A section whose rules 2.2-style sections below it replace rather than inherit. */
export const isBoundary = (s: AccessScope): boolean => styleOf(s) === 'new' || styleOf(s) === 'both';

export interface Plan {
  readonly scope: AccessScope;
  /** The Require tree to write; null with `inherit`: write none (the scope keeps what 2.4 sections above require). */
  readonly tree: RequireNode | null;
  readonly inherit: boolean;
  readonly notes: readonly string[];
  /** The scope's own 2.4 Require lines are replaced too (a section holding both syntaxes). */
  readonly replacesAuthz: boolean;
  /**
   * `and`: `AuthMerging And` goes before the tree, which then holds only the scope's own Require
   * (planAndMerge); the scopes whose Require blocks it is combined with are `relies`.
   */
  readonly mergeWith?: 'and';
  readonly relies?: readonly AccessScope[];
}

const hasAuthoritative = (s: AccessScope) => Object.keys(s.read.rules.authoritative).length > 0;

/** 2.2: host rules, Require, Satisfy, AuthType … each inherited on its own. */
const PARTS22: Record<string, PartRule> = {
  'host rules (Order/Allow/Deny)': { has: (s) => s.read.rules.host !== null, full: (s) => s.read.rules.host !== null },
  Require: { has: (s) => s.read.rules.requires !== null, full: (s) => s.read.rules.requires !== null },
  Satisfy: { has: (s) => s.read.rules.satisfy.length > 0, full: (s) => s.read.rules.satisfy.some((x) => isAllMethods(x.methods)) },
  AuthType: { has: (s) => s.read.rules.authType !== null, full: (s) => s.read.rules.authType !== null },
  AuthDBMGroupFile: { has: (s) => s.read.rules.dbmGroups !== null, full: (s) => s.read.rules.dbmGroups !== null },
  'Authz*Authoritative': { has: hasAuthoritative, full: hasAuthoritative },
};

/** Parts that are access rules (the boundary cuts them); AuthType and group files are inherited as in 2.4. */
const CUT22 = new Set(['host rules (Order/Allow/Deny)', 'Require', 'Satisfy', 'Authz*Authoritative']);

const EMPTY22: ScopeRules22 = { host: null, requires: null, satisfy: [], authType: null, dbmGroups: null, authoritative: {} };

/** One part of a scope's 2.2 rules, the rest unset. */
function project22(rules: ScopeRules22, part: string): ScopeRules22 {
  switch (part) {
    case 'host rules (Order/Allow/Deny)':
      return { ...EMPTY22, host: rules.host };
    case 'Require':
      return { ...EMPTY22, requires: rules.requires };
    case 'Satisfy':
      return { ...EMPTY22, satisfy: rules.satisfy };
    case 'AuthType':
      return { ...EMPTY22, authType: rules.authType };
    case 'AuthDBMGroupFile':
      return { ...EMPTY22, dbmGroups: rules.dbmGroups };
    default:
      return { ...EMPTY22, authoritative: rules.authoritative };
  }
}

/** Ambiguous 2.2 parts that can be compared per candidate: those whose nearest value replaces the rest. */
function replaceOnly22(part: string, candidates: readonly AccessScope[]): boolean {
  if (part === 'Satisfy') return candidates.every((c) => c.read.rules.satisfy.every((x) => isAllMethods(x.methods)));
  return part !== 'Authz*Authoritative';
}

/** Satisfy All is the default: sources that only say All leave nothing to carry. */
const trivial22 = (part: string, candidates: readonly AccessScope[]) => part === 'Satisfy' && candidates.every((c) => c.read.rules.satisfy.every((x) => x.value === 'all'));

/** The same rules whatever the request: one plan for every combination, else the reason. */
function agree(plans: (Plan | string)[], ambiguity: string | (() => string)): Plan | string {
  const failed = plans.find((p): p is string => typeof p === 'string');
  if (failed) return failed;
  const ok = plans as Plan[];
  if (ok.length > 1) {
    const key = (p: Plan) => JSON.stringify([p.tree, p.inherit]);
    const first = key(ok[0]);
    // the reason names every source: spelled out only when the plans disagree
    if (ok.some((p) => key(p) !== first)) return typeof ambiguity === 'string' ? ambiguity : ambiguity();
  }
  const notes = [...new Set(ok.flatMap((p) => p.notes))];
  return { ...ok[0], notes };
}

export interface PlanContext {
  readonly all: readonly AccessScope[];
  readonly universe: readonly string[];
  /** No main config in the run: the parents are outside it, so a boundary lies above every scope. */
  readonly fragment: boolean;
}

/** Drops the sources a combination's boundary cuts off for the access parts; AuthType and the like pass. */
function cutQuery(): ChainQuery {
  return { parts: PARTS22, replaceOnly: replaceOnly22, trivial: trivial22, barrier: isBoundary, cut: (part) => CUT22.has(part) };
}

/** Plans a 2.2-style scope (or a Require-only one that 2.2-style parents feed). */
export function planOld(scope: AccessScope, ctx: PlanContext): Plan | string {
  if (scope.read.unsupported) return scope.read.unsupported;
  const combos = chainOptions(scope, ctx.all, cutQuery());
  if (typeof combos === 'string') return combos;
  const plans = combos.map((combo) => {
    const bounded = ctx.fragment || (combo.get(BARRIER) ?? []).length > 0;
    const rules = [...rulesOf(combo), scope.read.rules];
    return planRules(scope, rules, bounded, ctx);
  });
  return agree(plans, () => ambiguityReason(combos));
}

/** The inherited 2.2 rules of one combination (chainOptions already dropped what a boundary cuts off). */
function rulesOf(combo: Sources): ScopeRules22[] {
  const out: ScopeRules22[] = [];
  for (const [part, list] of combo) {
    if (part === BARRIER) continue;
    for (const c of list) out.push(project22(c.read.rules, part));
  }
  return out;
}

/**
 * Compiled rules per planning context and merged rules: the same effective rules come back for
 * many scopes (every site's `Order allow,deny` + `Allow from all` directory) and for each of a
 * scope's possible parents, and compiling them is pure.
 */
const compiledIn = new WeakMap<PlanContext, Map<string, CompileResult>>();

function compileIn(ctx: PlanContext, effective: Effective22): CompileResult {
  let cache = compiledIn.get(ctx);
  if (!cache) compiledIn.set(ctx, (cache = new Map()));
  const key = JSON.stringify(effective);
  let compiled = cache.get(key);
  if (!compiled) cache.set(key, (compiled = compileEffective(effective, ctx.universe)));
  return compiled;
}

function planRules(scope: AccessScope, rules: readonly ScopeRules22[], bounded: boolean, ctx: PlanContext): Plan | string {
  const effective = merge22(rules);
  if (bounded && effective.host === null && effective.requires.length === 0) {
    return {
      scope,
      tree: null,
      inherit: true,
      replacesAuthz: false,
      notes: [
        'read as 2.2 rules, this section sets no host rules and no Require of its own (only Satisfy or authentication settings); the lines are removed and no Require block is written, so it keeps what the 2.4 sections above it require',
      ],
    };
  }
  const notes = effective.host !== null && effective.requires.length > 0 ? deniedDespiteAuth(effective) : [];
  const compiled = compileIn(ctx, effective);
  if ('unsupported' in compiled) return compiled.unsupported;
  return { scope, tree: compiled.tree, inherit: false, replacesAuthz: false, notes: [...notes, ...compiled.notes] };
}

/** Providers whose answer depends only on the client, its environment and the method, never on credentials. */
const CREDENTIAL_FREE = new Set(['all', 'ip', 'host', 'forward-dns', 'env', 'method', 'local']);

/** The tree answers every request without looking at who the user is. */
export function credentialFree(tree: RequireNode | null): boolean {
  if (tree === null) return true;
  if (tree.kind === 'require') return CREDENTIAL_FREE.has(tree.provider);
  return tree.children.every(credentialFree);
}

const HOLDS_ACCESS_RULES = (s: AccessScope): boolean => styleOf(s) !== 'none';

/**
 * A scope that sets AuthType (not None) where no access rule reaches: none of its own, none in any
 * section that may come before it on some request, and a whole server in the run (a fragment's
 * parents are outside it). 2.2 never ran authentication there (only a Require did) and served every
 * request; 2.4 refuses such a request with 500 (AH01627: AuthType with no authorization directives;
 * with mod_access_compat too, measured by the access fuzz test). `Require all granted` in the scope
 * keeps 2.2's answer; sections merged after it that hold their own rules replace it, as they
 * replaced nothing on 2.2.
 */
export function authTypeAlone(scope: AccessScope, ctx: PlanContext): boolean {
  // a file written for 2.4 says what it means there already
  if (ctx.fragment || scope.file.role === 'context' || scope.file.writtenFor24) return false;
  // AuthType and Require belong to directory-like sections and .htaccess files, not to server or virtual-host level
  if (scope.kind === 'server' || scope.kind === 'vhost') return false;
  const type = scope.read.rules.authType;
  if (type === null || type.toLowerCase() === 'none') return false;
  if (styleOf(scope) !== 'none' || scope.read.unsupported !== null || scope.authz.unsupported !== null || scope.authz.op !== null) return false;
  return precedingHolders(scope, ctx.all, HOLDS_ACCESS_RULES).length === 0;
}

/**
 * httpd's walks in the order they merge into a request's configuration: the server's and virtual
 * host's own, the directory walk (with per-directory files), the file walk, the location walk.
 */
const WALK: Record<AccessScope['kind'], number> = { server: 0, vhost: 0, directory: 1, htaccess: 1, 'directory-regex': 1, files: 2, location: 3, proxy: 3 };

const WITHOUT_HOST_RULES: Record<string, PartRule> = Object.fromEntries(Object.entries(PARTS22).filter(([part]) => part !== 'host rules (Order/Allow/Deny)'));

/**
 * A second chance for a 2.2-style scope that sets Require but inherits its host rules
 * (Order/Allow/Deny), under Satisfy All, where which section it inherits them from depends on the
 * request: a `<Location>` with authentication below a document root that allows everyone and a
 * `<Files ~ "^\.ht">` that denies everyone, as in every stock 2.2 config. 2.2 answered
 * host rules(nearest section that has them) AND this scope's Require. The migration writes
 * `AuthMerging And` and this scope's own Require: 2.4 then answers (the Require block of the
 * nearest section above that has one) AND (this Require). That is the same answer when every
 * section that may come before this one on a request and holds access rules is migrated to a
 * Require block that looks at no credentials, and is merged by an earlier walk of httpd's (the
 * sections one walk matches are merged among themselves first: an earlier one of the same walk
 * would take on this one's AuthMerging And, measured): such a block is exactly its section's host rules
 * (2.2 combined them with no Require, or with one that could not change the answer), and every
 * section with host rules holds a block, so the nearest block carries the nearest host rules.
 * `plans`: the scopes planned so far. Returns the plan, or why not.
 */
export function planAndMerge(scope: AccessScope, ctx: PlanContext, plans: ReadonlyMap<AccessScope, Plan>): Plan | string {
  const rules = scope.read.rules;
  if (ctx.fragment) return 'the sections above these files are not part of the run';
  if (scope.read.unsupported) return scope.read.unsupported;
  if (rules.host !== null || rules.requires === null || hasAuthoritative(scope) || scope.authz.has24) {
    return 'only a section with a Require of its own and no Order/Allow/Deny can be combined with the sections above it';
  }
  // where the host rules come from is what AuthMerging And leaves to 2.4: the other parts must not depend on the request
  const combos = chainOptions(scope, ctx.all, { ...cutQuery(), parts: WITHOUT_HOST_RULES });
  if (typeof combos === 'string') return combos;
  if (combos.some((c) => (c.get(BARRIER) ?? []).length > 0)) return 'a 2.4-style section lies above it';
  const own: (Plan | string)[] = [];
  for (const combo of combos) {
    const chain = [...rulesOf(combo), rules];
    if (chain.some((r) => r.satisfy.some((x) => x.value === 'any'))) return 'Satisfy Any joins its host rules and Require with OR';
    own.push(planRules(scope, chain, false, ctx));
  }
  const plan = agree(own, 'its own Require differs with the request');
  if (typeof plan === 'string') return plan;
  const relies = precedingHolders(scope, ctx.all, HOLDS_ACCESS_RULES);
  for (const c of relies) {
    // httpd merges the sections one walk matched among themselves before merging them into the
    // request's configuration, so an earlier section of the same walk takes on this one's
    // AuthMerging And and is ANDed with what lies above instead of replacing it (measured)
    if (WALK[c.kind] >= WALK[scope.kind]) return `${where(c)}, which may come before it, is merged in the same walk of httpd's, so AuthMerging And would join it with the sections above it`;
    const above = plans.get(c);
    if (!above || above.inherit || above.mergeWith) return `${where(c)}, which may come before it, is not migrated to a Require block of its own`;
    if (!credentialFree(above.tree)) return `${where(c)}, which may come before it, requires authentication`;
  }
  return { ...plan, mergeWith: 'and', relies };
}

/** What one scope sets, as 2.4 + mod_access_compat reads it. */
export function compatOf(scope: AccessScope): ScopeCompat24 {
  const r = scope.read.rules;
  return { record: compatRecordOf(r.host, r.satisfy), authz: { op: scope.authz.op, tree: scope.authz.tree }, authType: r.authType };
}

const AUTH_TYPE_ONLY: ChainQuery = {
  parts: { AuthType: { has: (s) => s.read.rules.authType !== null, full: (s) => s.read.rules.authType !== null } },
  replaceOnly: () => true,
};

/**
 * Plans a section that holds Order/Allow/Deny beside 2.4 Require lines: its old block becomes its 2.4
 * equivalent where it stands, joined with the section's own Require lines as one section joins them
 * (Satisfy All: both must pass; Any: either).
 */
export function planBoth(scope: AccessScope, ctx: PlanContext): Plan | string {
  if (scope.read.unsupported) return scope.read.unsupported;
  if (scope.authz.unsupported) return scope.authz.unsupported;
  if (hasAuthoritative(scope)) return 'Authz*Authoritative does not exist in 2.4, and this section already uses 2.4 Require rules';
  if (scope.authz.op === 'and' || scope.authz.op === 'or') {
    return `AuthMerging ${scope.authz.op} in a section that also holds Order/Allow/Deny: how its parents' rules should combine with the old block cannot be decided here`;
  }
  if (scope.read.rules.host === null) return 'Satisfy beside 2.4 Require lines, without Order/Allow/Deny in the same section: what it should combine cannot be decided here';
  const combos = chainOptions(scope, ctx.all, AUTH_TYPE_ONLY);
  if (typeof combos === 'string') return combos;
  const plans = combos.map((combo): Plan | string => {
    const authTypes = [...(combo.get('AuthType') ?? [])].map((c) => ({ record: null, authz: { op: null, tree: null }, authType: c.read.rules.authType }));
    const effective = mergeCompat24([...authTypes, compatOf(scope)]);
    const compiled = compileCompat24(effective, ctx.universe);
    if ('unsupported' in compiled) return compiled.unsupported;
    return { scope, tree: compiled.tree, inherit: false, replacesAuthz: true, notes: compiled.notes };
  });
  return agree(plans, () => ambiguityReason(combos));
}

/**
 * `Deny from all` with authentication under Satisfy All answered 403 to everyone on 2.2, valid
 * credentials included. The upgrade notes say to drop the access lines there; that would let
 * every authenticated user in. The migration keeps the denial and says why.
 */
function deniedDespiteAuth(effective: Effective22): string[] {
  const host = effective.host;
  if (!host) return [];
  const denyAll = host.denys.some((d) => d.entry.kind === 'all' && isAllMethods(d.methods));
  const allowSome = host.allows.length > 0;
  const anySatisfy = effective.satisfy.some((s) => s.value === 'any');
  if (!denyAll || anySatisfy || (allowSome && host.orders.every((o) => o.order === 'deny,allow'))) return [];
  return [
    '2.2 answered 403 here to everyone outside the allowed hosts, valid credentials included (Deny from all under Satisfy All); ' +
      'the rules keep that. Dropping the access lines, as the upgrade notes suggest, would let every authenticated user in; ' +
      'if that is what you want, replace the Require block by the Require lines of the authentication alone',
  ];
}
