// Upgrade note "Run-Time Configuration Changes / Authorization": Order, Allow, Deny and Satisfy
// (mod_access_compat) become Require rules of mod_authz_core.
//
// Not pattern matching: every scope's rules are read into a model, merged
// with what the scope inherits at request time, compiled into the smallest
// Require tree with the same outcome for every request, and written in place
// of the old lines. A scope's Require replaces what it inherits in 2.4, so each
// migrated scope carries its whole effective policy.
//
// Two models:
// - a pure 2.2 server is migrated to what 2.2 did (host rules, Require and
//   Satisfy inherited separately; merge22.ts);
// - a server that already mixes 2.2 rules with 2.4 Require rules runs on 2.4
//   with mod_access_compat today, and is migrated to what it does there
//   (compat24.ts, measured: one compat record with Satisfy, ANDed/ORed with the
//   AuthMerging-merged Require section). 2.4-only scopes that inherit from an
//   old one are rewritten too, so they carry the policy they had.
//
// Conditional wrappers inside a scope are judged (wrappers.ts): read through
// when their outcome on 2.4 is certain, left alone when they never apply, and
// unknown ones (<IfDefine>, most modules) keep the scope as it is.
//
// When equivalence cannot be shown for a scope — inheritance that depends on
// the request path, a construct the model lacks — nothing in that server's
// access rules is touched: mod_access_compat is scheduled and a `manual`
// finding says why (with the places where compat differs from 2.2).
//
// `--dual-syntax` writes each migrated 2.2 scope as
// `<IfModule mod_authz_core.c>` new rules `</IfModule>` +
// `<IfModule !mod_authz_core.c>` old rules `</IfModule>`.
import { Container, Node, Section, fileOf, indentUnit, indexInParent, insertBefore, remove, replaceWith } from '../src/cst';
import { CompatRecord, ScopeCompat24, compatRecordOf, compileCompat24, mergeCompat24, methodsWithoutRequire } from '../src/semantics/access/compat24';
import { unknownKey, wrapperVerdict } from '../src/semantics/access/wrappers';
import { REQUIRE_24_PROVIDERS, containsAccess, readScopeRules } from '../src/semantics/access/read-rules';
import { SCOPE_SECTIONS } from '../src/semantics/access/scope-sections';
import { containsAuthz, readAuthz24 } from '../src/semantics/access/read-authz24';
import { sameAnswersForMethod } from '../src/semantics/access/same-answers';
import { OTHER_METHODS } from '../src/semantics/access/method-classes';
import { GRANTED, isGranted } from '../src/semantics/access/require-tree';
import { hostTreeFor } from '../src/semantics/access/host-tree';
import { satisfyFor } from '../src/semantics/access/eval22';
import { compileEffective } from '../src/semantics/access/compile';
import { emitRequire } from '../src/semantics/access/emit';
import { merge22 } from '../src/semantics/access/merge22';
import { AccessScope, collectScopes, mayPrecede, surelyPrecedes } from '../src/semantics/access/scopes';
import { isAllMethods } from '../src/semantics/access/method-mask';
import { Effective22, RequireNode, ScopeRules22 } from '../src/semantics/access/types';
import { Transform, TransformContext } from './types';

type Part = (scope: AccessScope) => boolean;

interface PartRule {
  /** The scope sets this part. */
  readonly has: Part;
  /** The scope sets it completely, so nothing of it is inherited. */
  readonly full: Part;
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

const hasAuthz = (s: AccessScope) => s.authz.tree !== null || s.authz.op !== null;

/** 2.4 + mod_access_compat: one compat record (Order/Allow/Deny/Satisfy), the Require section by AuthMerging, AuthType. */
function parts24(data: (s: AccessScope) => ScopeCompat24): Record<string, PartRule> {
  const setsAuthz = (s: AccessScope) => data(s).authz.tree !== null && (data(s).authz.op === null || data(s).authz.op === 'off');
  return {
    'Order/Allow/Deny/Satisfy': { has: (s) => data(s).record !== null, full: (s) => data(s).record !== null },
    Require: { has: (s) => data(s).authz.tree !== null || data(s).authz.op !== null, full: setsAuthz },
    AuthType: { has: (s) => data(s).authType !== null, full: (s) => data(s).authType !== null },
  };
}
const PARTS24 = parts24(compatOf);

function where(scope: AccessScope): string {
  const line = scope.container.kind === 'section' ? scope.container.line : 0;
  return `${scope.file.displayPath}${line ? ':' + line : ''}`;
}

interface Plan {
  readonly scope: AccessScope;
  readonly tree: RequireNode | null;
  /** Emit `AuthMerging And`: the scope's Require must not drop what it inherits from parents this run cannot see. */
  readonly mergeAnd: boolean;
  readonly notes: readonly string[];
  /** Planned with the 2.4 + mod_access_compat model (the server mixes old and new rules). */
  readonly mixed: boolean;
}

/** The chain of scopes a request at `scope` merges, as far as the text can tell; a reason when it cannot. */
function inheritedChain(scope: AccessScope, all: readonly AccessScope[], parts: Record<string, PartRule>): AccessScope[] | string {
  const chosen = new Set<AccessScope>();
  for (const [part, rule] of Object.entries(parts)) {
    if (rule.full(scope)) continue;
    const candidates = all.filter((c) => c !== scope && rule.has(c) && mayPrecede(c, scope));
    if (candidates.length === 0) continue;
    // Satisfy All is the default: sources that only say All leave nothing to carry
    if (part === 'Satisfy' && candidates.every((c) => c.read.rules.satisfy.every((x) => x.value === 'all'))) continue;
    const nearest = candidates.find((c) => surelyPrecedes(c, scope) && candidates.every((x) => x === c || surelyPrecedes(x, c)));
    if (!nearest) {
      const list = candidates.map(where).join(', ');
      return `it may inherit ${part} from ${list}, depending on the request; the migrated rules could not carry it`;
    }
    chosen.add(nearest);
    // everything that surely precedes the nearest source also feeds the merge
    for (const c of candidates) if (surelyPrecedes(c, nearest)) chosen.add(c);
  }
  return [...chosen].sort((a, b) => (surelyPrecedes(a, b) ? -1 : surelyPrecedes(b, a) ? 1 : a.order - b.order));
}

/** For each part, the scopes (in merge order) whose value of that part reaches the request; [] = none. */
type Sources = ReadonlyMap<string, readonly AccessScope[]>;

const MAX_COMBINATIONS = 32;

/**
 * Like inheritedChain, but where what a scope inherits depends on the request
 * (sections that may or may not apply to it), every possibility is returned:
 * each set of the uncertain sections that may apply, and in it, for each part,
 * each section that may be the nearest. The plan is kept only when all of them
 * compile to the same rules. A part whose nearest source is uncertain must
 * replace what it inherits (`replaceOnly`), so that the nearest alone matters.
 */
function chainOptions(
  scope: AccessScope,
  all: readonly AccessScope[],
  parts: Record<string, PartRule>,
  replaceOnly: (part: string, candidates: readonly AccessScope[]) => boolean,
): Sources[] | string {
  const byOrder = (a: AccessScope, b: AccessScope) => (surelyPrecedes(a, b) ? -1 : surelyPrecedes(b, a) ? 1 : a.order - b.order);
  const perPart = new Map<string, AccessScope[]>();
  for (const [part, rule] of Object.entries(parts)) {
    if (rule.full(scope)) continue;
    const candidates = all.filter((c) => c !== scope && rule.has(c) && mayPrecede(c, scope));
    if (candidates.length === 0) continue;
    // Satisfy All is the default: sources that only say All leave nothing to carry
    if (part === 'Satisfy' && candidates.every((c) => c.read.rules.satisfy.every((x) => x.value === 'all'))) continue;
    perPart.set(part, candidates);
  }
  const uncertain = [...new Set([...perPart.values()].flat())].filter((c) => !surelyPrecedes(c, scope));
  const describe = (part: string) => `it may inherit ${part} from ${(perPart.get(part) ?? []).map(where).join(', ')}, depending on the request`;
  if (uncertain.length > 5) return `${describe([...perPart.keys()].join(', '))}; too many possibilities to compare`;
  const combos: Map<string, readonly AccessScope[]>[] = [];
  for (let bits = 0; bits < 1 << uncertain.length; bits++) {
    const applies = (c: AccessScope) => surelyPrecedes(c, scope) || (bits & (1 << uncertain.indexOf(c))) !== 0;
    let partial: Map<string, readonly AccessScope[]>[] = [new Map()];
    for (const [part, candidates] of perPart) {
      const present = candidates.filter(applies);
      if (present.length === 0) continue;
      const maximal = present.filter((c) => !present.some((x) => x !== c && surelyPrecedes(c, x)));
      let options: AccessScope[][];
      if (maximal.length === 1) {
        const nearest = maximal[0];
        // everything that surely precedes the nearest source also feeds the merge
        options = [[...present.filter((c) => surelyPrecedes(c, nearest)), nearest].sort(byOrder)];
      } else {
        if (!replaceOnly(part, present)) return `${describe(part)}; the migrated rules could not carry it`;
        options = maximal.map((c) => [c]);
      }
      partial = partial.flatMap((combo) => options.map((o) => new Map([...combo, [part, o]])));
    }
    combos.push(...partial);
    if (combos.length > MAX_COMBINATIONS) return `${describe([...perPart.keys()].join(', '))}; too many possibilities to compare`;
  }
  return combos;
}

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

/** One part of a scope's 2.4 + compat data, the rest unset. */
function project24(data: ScopeCompat24, part: string): ScopeCompat24 {
  if (part === 'Order/Allow/Deny/Satisfy') return { record: data.record, authz: { op: null, tree: null }, authType: null };
  if (part === 'Require') return { record: null, authz: data.authz, authType: null };
  return { record: null, authz: { op: null, tree: null }, authType: data.authType };
}

/** Ambiguous 2.2 parts that can be compared per candidate: those whose nearest value replaces the rest. */
function replaceOnly22(part: string, candidates: readonly AccessScope[]): boolean {
  if (part === 'Satisfy') return candidates.every((c) => c.read.rules.satisfy.every((x) => isAllMethods(x.methods)));
  return part !== 'Authz*Authoritative';
}

function replaceOnly24(part: string, candidates: readonly AccessScope[]): boolean {
  if (part === 'Require') return candidates.every((c) => c.authz.op === null || c.authz.op === 'off');
  return true;
}

function sourcesOf(combos: readonly Sources[]): AccessScope[] {
  const out = new Set<AccessScope>();
  for (const combo of combos) for (const list of combo.values()) for (const s of list) out.add(s);
  return [...out];
}

/** The same rules whatever the request: one plan for every combination, else the reason. */
function agree(plans: (Plan | string)[], ambiguity: string): Plan | string {
  const failed = plans.find((p): p is string => typeof p === 'string');
  if (failed) return failed;
  const ok = plans as Plan[];
  const key = (p: Plan) => JSON.stringify([p.tree, p.mergeAnd]);
  if (ok.some((p) => key(p) !== key(ok[0]))) return ambiguity;
  const notes = [...new Set(ok.flatMap((p) => p.notes))];
  return { ...ok[0], notes };
}

function ambiguityReason(combos: readonly Sources[]): string {
  const parts = new Set<string>();
  for (const c of combos) for (const [part, list] of c) if (combos.some((d) => (d.get(part) ?? []).join() !== list.join())) parts.add(part);
  return `it may inherit ${[...parts].join(', ')} from ${sourcesOf(combos).map(where).join(', ')}, depending on the request, and the outcome differs; the migrated rules could not carry it`;
}

/**
 * Plans one scope of a pure 2.2 server. With the whole server in view, what a
 * scope does not set comes from the scopes that surely precede it, or from
 * httpd's defaults. When the run holds only a fragment (a vhost file, a
 * .htaccess), parents it cannot see may set Require or Satisfy: the plan then
 * keeps 2.4 from dropping them (`AuthMerging And`: never more access than 2.2
 * gave), or gives up when that cannot be made safe.
 */
function planScope(scope: AccessScope, all: readonly AccessScope[], contextKnown: boolean, universe: string[]): Plan | string {
  if (scope.read.unsupported) return scope.read.unsupported;
  const combos = chainOptions(scope, all, PARTS22, replaceOnly22);
  if (typeof combos === 'string') return combos;
  const plans = combos.map((combo) => {
    const rules = [...[...combo].flatMap(([part, list]) => list.map((c) => project22(c.read.rules, part))), scope.read.rules];
    return planRules(scope, rules, contextKnown, universe);
  });
  return agree(plans, ambiguityReason(combos));
}

function planRules(scope: AccessScope, rules: readonly ScopeRules22[], contextKnown: boolean, universe: string[]): Plan | string {
  const notes: string[] = [];
  let mergeAnd = false;
  if (!contextKnown) {
    const setsHost = rules.some((r) => r.host !== null);
    const setsRequire = rules.some((r) => r.requires !== null);
    const satisfyAny = rules.some((r) => r.satisfy.some((x) => x.value === 'any'));
    const satisfyFull = rules.some((r) => r.satisfy.some((x) => isAllMethods(x.methods)));
    if (!setsHost && !setsRequire) return 'it sets only Satisfy, which combines with host rules and Require of parent sections this run cannot see';
    if (!setsHost && satisfyAny) return 'Satisfy Any combines its Require with host rules of parent sections this run cannot see';
    if (!setsRequire) mergeAnd = true;
    else if (!setsHost) mergeAnd = true;
    if (setsHost && setsRequire && !satisfyFull) {
      notes.push('Satisfy may be inherited from a parent section this run cannot see; Satisfy All (the default) was assumed');
    }
    if (mergeAnd) {
      notes.push(
        'parent sections outside this run may hold Require or Satisfy rules; "AuthMerging And" keeps them in force (2.4 would otherwise drop them), which can only be stricter than 2.2',
      );
    }
  }
  const effective = merge22(rules);
  if (effective.host !== null && effective.requires.length > 0) notes.push(...deniedDespiteAuth(effective));
  const compiled = compileEffective(mergeAnd ? withoutInheritedAuth(effective, scope.read.rules) : effective, universe);
  if ('unsupported' in compiled) return compiled.unsupported;
  return { scope, tree: compiled.tree, mergeAnd, notes: [...notes, ...compiled.notes], mixed: false };
}

function compatOf(scope: AccessScope): ScopeCompat24 {
  const r = scope.read.rules;
  return { record: compatRecordOf(r.host, r.satisfy), authz: { op: scope.authz.op, tree: scope.authz.tree }, authType: r.authType };
}

/**
 * Plans one scope of a server that mixes old and new rules: the migration
 * must answer as the mixed config does on 2.4 + mod_access_compat.
 */
function planMixed(scope: AccessScope, all: readonly AccessScope[], contextKnown: boolean, universe: string[]): Plan | string {
  if (scope.read.unsupported) return scope.read.unsupported;
  if (scope.authz.unsupported) return scope.authz.unsupported;
  if (hasAuthoritative(scope)) return 'Authz*Authoritative does not exist in 2.4, and this server already uses 2.4 Require rules';
  if (!contextKnown && !(PARTS24['Order/Allow/Deny/Satisfy'].full(scope) && PARTS24.Require.full(scope))) {
    return 'parent sections outside this run may hold Order/Allow/Deny or Require rules that combine with this scope on 2.4 + mod_access_compat';
  }
  const combos = chainOptions(scope, all, PARTS24, replaceOnly24);
  if (typeof combos === 'string') return combos;
  const sources = sourcesOf(combos);
  if ([...sources, scope].some((c) => c.read.rules.dbmGroups) && [...sources, scope].some((c) => usesProvider(c.authz.tree, 'group'))) {
    return 'Require group beside AuthDBMGroupFile: 2.4 reads `group` from AuthGroupFile only, so what it answers here depends on files the model cannot see (2.2 meant `Require dbm-group`)';
  }
  const plans = combos.map((combo): Plan | string => {
    const chain = [...combo].flatMap(([part, list]) => list.map((c) => project24(compatOf(c), part)));
    const effective = mergeCompat24([...chain, compatOf(scope)]);
    const compiled = compileCompat24(effective, universe);
    if ('unsupported' in compiled) return compiled.unsupported;
    const open = methodsWithoutRequire(effective, universe).length > 0;
    const parents = [...new Set([...combo.values()].flat())];
    return { scope, tree: compiled.tree, mergeAnd: false, notes: [...compatHazards(scope, parents, effective.record, open), ...compiled.notes], mixed: true };
  });
  const plan = agree(plans, ambiguityReason(combos));
  if (typeof plan === 'string') return plan;
  const onlyGrants = (t: RequireNode) => t.kind === 'any' && !t.methods && t.children.length === 1 && isGranted(t.children[0]);
  const requireFrom = sources.filter((c) => c.authz.tree !== null && !onlyGrants(c.authz.tree));
  if (scope.read.rules.host !== null && requireFrom.length > 0 && !PARTS24.Require.full(scope)) {
    return {
      ...plan,
      notes: [
        ...plan.notes,
        `on 2.4 + mod_access_compat this section's Order/Allow/Deny combine with the Require rules of ${requireFrom.map(where).join(', ')} (both must pass unless Satisfy Any); the migration keeps that combined result, which can be stricter than the old lines read alone`,
      ],
    };
  }
  return plan;
}

function usesProvider(tree: RequireNode | null, provider: string): boolean {
  if (!tree) return false;
  return tree.kind === 'require' ? tree.provider === provider : tree.children.some((c) => usesProvider(c, provider));
}

/**
 * Where 2.4 + mod_access_compat (whose behaviour a mixed config has today, and
 * the migration keeps) differs from what the same old lines did on 2.2
 * (access-measurements.md D1, D2, A9).
 */
function compatHazards(scope: AccessScope, chain: readonly AccessScope[], record: CompatRecord | null, noRequireSomewhere: boolean): string[] {
  const notes: string[] = [];
  const own = scope.read.rules;
  const parentHost = chain.some((c) => c.read.rules.host !== null);
  const parentAny = chain.some((c) => c.read.rules.satisfy.some((x) => x.value === 'any'));
  if (own.host === null && own.satisfy.length > 0 && parentHost) {
    notes.push(
      'this section sets only Satisfy: on 2.4 + mod_access_compat that resets the inherited Order/Allow/Deny to "allow everyone" (2.2 kept them); the migration keeps the 2.4 behaviour — add the host rules if 2.2\'s was meant',
    );
  }
  if (own.host !== null && own.satisfy.length === 0 && parentAny) {
    notes.push(
      'this section sets Order/Allow/Deny without Satisfy: on 2.4 + mod_access_compat that resets the inherited "Satisfy Any" to All (2.2 kept it); the migration keeps the 2.4 behaviour',
    );
  }
  if (noRequireSomewhere && record && record.satisfy.some((x) => x.value === 'any') && (record.host.denys.length > 0 || record.host.orders.some((o) => o.order !== 'deny,allow'))) {
    notes.push(
      '"Satisfy Any" where no Require applies lets everyone in on 2.4 + mod_access_compat (2.2 answered 403 to hosts the rules denied); the migration keeps the 2.4 behaviour',
    );
  }
  return notes;
}

function methodUniverse(scopes: readonly AccessScope[]): string[] {
  const names = new Set<string>();
  const walk = (n: RequireNode | null) => {
    if (!n) return;
    for (const m of n.methods?.methods ?? []) names.add(m);
    if (n.kind !== 'require') n.children.forEach(walk);
  };
  for (const s of scopes) {
    const r = s.read.rules;
    const masks = [
      ...(r.host?.orders.map((o) => o.methods) ?? []),
      ...(r.host?.allows.map((a) => a.methods) ?? []),
      ...(r.host?.denys.map((d) => d.methods) ?? []),
      ...(r.requires?.map((q) => q.methods) ?? []),
      ...r.satisfy.map((q) => q.methods),
    ];
    for (const m of masks) for (const name of m.methods) names.add(name);
    walk(s.authz.tree);
  }
  return [...names].sort();
}

function modulesFor(tree: RequireNode | null, out: Set<string>): Set<string> {
  if (!tree) return out;
  if (tree.kind === 'require') {
    const provider = tree.provider;
    if (provider === 'ip' || provider === 'host' || provider === 'local') out.add('authz_host');
    else if (provider === 'valid-user' || provider === 'user') out.add('authz_user');
    else if (provider === 'group') out.add('authz_groupfile');
    else if (provider.startsWith('dbm-')) out.add('authz_dbm');
    else if (provider === 'file-owner' || provider === 'file-group') out.add('authz_owner');
  } else for (const child of tree.children) modulesFor(child, out);
  return out;
}

const ACCESS_NAMES = /^(order|allow|deny|satisfy|require|authmerging|authz\w*authoritative)$/i;
const CLIMB = /^(limit|limitexcept|requireall|requireany|requirenone)$/i;

/** A section that holds nothing but access lines (and comments), so it can go as a whole. */
function onlyAccess(section: Section): boolean {
  return section.body.every(
    (n) =>
      n.kind === 'blank' ||
      n.kind === 'comment' ||
      (n.kind === 'directive' && ACCESS_NAMES.test(n.name)) ||
      (n.kind === 'section' && (CLIMB.test(n.name) || wrapperVerdict(n)?.kind === 'both') && onlyAccess(n)),
  );
}

/** What goes when `node` goes: the node, or the <Limit>/<RequireAll>/true-wrapper around it that holds nothing else. */
function removalUnit(node: Node, container: Container): Node {
  let unit: Node = node;
  for (let p = unit.parent; p && p !== container && p.kind === 'section'; p = p.parent) {
    const climbable = CLIMB.test(p.name) || wrapperVerdict(p)?.kind === 'both';
    if (!climbable || !onlyAccess(p)) break;
    unit = p;
  }
  return unit;
}

/** Nodes of a container in document order (sections before their contents). */
function documentOrder(container: Container): Map<Node, number> {
  const order = new Map<Node, number>();
  const visit = (c: Container) => {
    for (const n of c.body) {
      order.set(n, order.size);
      if (n.kind === 'section') visit(n);
    }
  };
  visit(container);
  return order;
}

/** The new block can stand here: directly in the scope or in a wrapper that is true on 2.4, not inside a <Limit> or Require container. */
function canHoldBlock(node: Node, container: Container): boolean {
  for (let p = node.parent; p && p !== container; p = p.parent) {
    if (p.kind !== 'section') return false;
    const v = wrapperVerdict(p);
    if (!v || (v.kind !== 'both' && v.kind !== 'only24')) return false;
  }
  return true;
}

/** The indentation step inside the scope: from the scope's tag to its lines, else the file's usual step. */
function localUnit(node: Node | undefined, container: Container): string {
  if (container.kind === 'section' && node) {
    let top: Node = node;
    while (top.parent && top.parent !== container) top = top.parent as Section;
    const inner = top.kind === 'section' ? top.indent : top.kind === 'directive' ? top.indent : '';
    if (inner.startsWith(container.indent) && inner.length > container.indent.length) return inner.slice(container.indent.length);
  }
  const file = node ? fileOf(node) : null;
  return file ? indentUnit(file) : '    ';
}

/** Indents a moved node (and a section's whole content) one level deeper. */
function deepen(node: Node, unit: string): void {
  if (node.kind === 'section') {
    node.open.setIndent(node.open.indent + unit);
    for (const child of node.body) deepen(child, unit);
    node.close?.setIndent(node.close.indent + unit);
  } else if (node.kind !== 'blank') node.setIndent(node.indent + unit);
}

/** Replaces a scope's old access lines by the compiled Require block, in place of the first one. */
function rewriteScope(plan: Plan, ctx: TransformContext): void {
  const { scope } = plan;
  const read = scope.read;
  const container = scope.container;
  const authoritative = read.contextLines.filter((d) => /^authz.*authoritative$/i.test(d.name));
  const lines0: Node[] = [...read.accessLines, ...authoritative, ...(plan.mixed ? scope.authz.lines : [])];
  const order = documentOrder(container);
  const units: Node[] = [];
  for (const d of lines0) {
    const unit = removalUnit(d, container);
    if (!units.includes(unit)) units.push(unit);
  }
  // a unit inside another unit goes with it
  const outer = units.filter((u) => !units.some((v) => v !== u && v.kind === 'section' && contains(v, u)));
  outer.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const anchor = outer.find((u) => canHoldBlock(u, container));
  // nested lines take the indentation step the scope itself uses (files may mix tabs and spaces)
  const unit = localUnit(anchor ?? outer[0], container);
  const indented = (lines: { text: string; depth: number }[], extra = 0) => lines.map((l) => ({ text: unit.repeat(l.depth + extra) + l.text, depth: 0 }));
  const block = indented([
    ...(plan.mergeAnd ? [{ text: 'AuthMerging And', depth: 0 }] : []),
    ...(plan.tree ? emitRequire(plan.tree) : [{ text: 'Require all granted', depth: 0 }]),
  ]);
  const dual = !!ctx.options.dualSyntax && anchor !== undefined && outer.every((u) => u.parent === anchor.parent && !has24Syntax(u));
  if (dual && anchor) {
    const pair = [
      { text: '<IfModule mod_authz_core.c>', depth: 0 },
      ...block.map((l) => ({ text: unit + l.text, depth: 0 })),
      { text: '</IfModule>', depth: 0 },
      { text: '<IfModule !mod_authz_core.c>', depth: 0 },
      { text: '</IfModule>', depth: 0 },
    ];
    // the pair goes where the first old line stood; the old lines move, as they are, into the 2.2 branch
    const added = insertBefore(anchor, pair);
    for (const u of outer) {
      const parent = u.parent as Container;
      parent.body.splice(parent.body.indexOf(u), 1);
    }
    const branch = added[added.length - 1] as Section;
    for (const u of outer) {
      deepen(u, unit);
      u.parent = branch;
      branch.body.push(u);
    }
  } else {
    for (const u of outer) {
      if (u === anchor) continue;
      if (u.kind === 'section') hoistComments(u);
      remove(u);
    }
    if (anchor) {
      if (anchor.kind === 'section') hoistComments(anchor);
      replaceWith(anchor, block);
    } else {
      // every old line sits in a <Limit> that also holds other directives: the block goes before the outermost one
      let first: Node | undefined = outer[0];
      while (first && first.parent && first.parent !== container && first.parent.kind === 'section' && !canHoldBlock(first, container)) first = first.parent;
      if (first) insertBefore(first, block);
    }
  }
  if (ctx.options.dualSyntax && !dual) {
    ctx.noteIn(
      scope.file,
      anchorNode(scope),
      'access-dual-skipped',
      outer.some(has24Syntax)
        ? 'written for 2.4 only: this section already holds 2.4 Require rules, which 2.2 cannot read, so there is no 2.2 form to keep beside the new rules'
        : 'written for 2.4 only: the old lines are spread over sections (<Limit>, <IfModule>) that hold other directives, so they could not move into an <IfModule !mod_authz_core.c> branch',
      'info',
    );
  }
  const summary = block.map((l) => l.text.trim()).filter((t) => /^Require /.test(t)).join('; ');
  ctx.noteIn(scope.file, anchorNode(scope), 'access-migrated', `access rules rewritten as Require (${summary})${dual ? '; the 2.2 rules are kept for 2.2 in <IfModule !mod_authz_core.c>' : ''}`, 'info');
  for (const note of plan.notes) ctx.noteIn(scope.file, anchorNode(scope), 'access-review', note, 'review');
  if (scope.kind === 'htaccess') {
    ctx.noteIn(
      scope.file,
      null,
      'htaccess-needs-authconfig',
      'this .htaccess now uses Require, which needs "AllowOverride AuthConfig" (or "AllowOverrideList Require") on its directory; Order/Allow/Deny needed only "Limit"',
      'review',
    );
  }
  const modules = modulesFor(plan.tree, new Set(['authz_core']));
  for (const m of [...read.wrapperModules, ...scope.authz.wrapperModules]) modules.add(m);
  for (const module of modules) ctx.requireModule(module, 'Require rules from migrated access control');
}

/** A line (or section) 2.2 could not read: 2.4 Require providers, Require containers, AuthMerging. */
function has24Syntax(node: Node): boolean {
  if (node.kind === 'section') return /^require(all|any|none)$/i.test(node.name) || node.body.some(has24Syntax);
  if (node.kind !== 'directive') return false;
  if (/^authmerging$/i.test(node.name)) return true;
  return /^require$/i.test(node.name) && REQUIRE_24_PROVIDERS.includes((node.values[0] ?? '').toLowerCase());
}

function contains(section: Section, node: Node): boolean {
  for (let p = node.parent; p; p = p.kind === 'section' ? p.parent : null) if (p === section) return true;
  return false;
}

/** Comments inside a <Limit> that is being replaced move out above it. */
function hoistComments(section: Section): void {
  const comments = section.body.filter((n) => n.kind === 'comment');
  if (comments.length === 0) return;
  const parent = section.parent;
  if (!parent) return;
  const index = indexInParent(section);
  for (const c of comments) {
    section.body.splice(section.body.indexOf(c), 1);
    c.setIndent(section.indent);
    c.parent = parent;
  }
  parent.body.splice(index, 0, ...comments);
}

function anchorNode(scope: AccessScope): Node | null {
  return scope.container.kind === 'section' ? scope.container : null;
}

/**
 * Kept scopes run on 2.4 with mod_access_compat, which differs from 2.2 in
 * ways that can open access (access-measurements.md D1, D2, A9): those are
 * reported beside the kept finding.
 */
function keptHazards(scope: AccessScope, all: readonly AccessScope[]): string[] {
  const own = scope.read.rules;
  const before = all.filter((c) => c !== scope && mayPrecede(c, scope));
  const out: string[] = [];
  if (own.host === null && own.satisfy.length > 0 && before.some((c) => c.read.rules.host !== null)) {
    out.push(
      'this section sets Satisfy without Order/Allow/Deny: on 2.4 + mod_access_compat that resets the inherited host rules to "allow everyone" (2.2 kept them); repeat the parent\'s Order/Allow/Deny lines here',
    );
  }
  if (own.host !== null && own.satisfy.length === 0 && before.some((c) => c.read.rules.satisfy.some((x) => x.value === 'any'))) {
    out.push('this section sets Order/Allow/Deny without Satisfy: on 2.4 + mod_access_compat that resets an inherited "Satisfy Any" to All (2.2 kept it); repeat the Satisfy line here');
  }
  if (own.satisfy.some((x) => x.value === 'any') && own.requires === null && !before.some((c) => c.read.rules.requires !== null)) {
    out.push('"Satisfy Any" with no Require: on 2.4 + mod_access_compat everyone gets in (2.2 applied the host rules); remove the Satisfy line');
  }
  return out;
}

function fallBack(scopes: readonly AccessScope[], reasons: Map<AccessScope, string>, all: readonly AccessScope[], ctx: TransformContext): void {
  for (const scope of scopes) {
    const reason = reasons.get(scope) ?? 'another scope of this server could not be migrated, and mixing old and new rules changes their meaning on 2.4';
    ctx.noteIn(
      scope.file,
      anchorNode(scope),
      'access-kept',
      `Order/Allow/Deny/Satisfy kept (mod_access_compat loaded): ${reason}. Rewrite these rules as Require by hand`,
      'manual',
    );
    for (const hazard of keptHazards(scope, all)) ctx.noteIn(scope.file, anchorNode(scope), 'access-compat-hazard', hazard, 'manual');
  }
  ctx.requireModule('access_compat', 'old Order/Allow/Deny rules are kept');
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

/** Directives that exist only in 2.2 (or 2.4's mod_access_compat): their presence means the scope needs migrating. */
function hasOldRules(rules: ScopeRules22): boolean {
  return rules.host !== null || rules.satisfy.length > 0 || Object.keys(rules.authoritative).length > 0;
}

/** With AuthMerging And, the scope's own block need not repeat what parents require. */
function withoutInheritedAuth(effective: Effective22, own: ScopeRules22): Effective22 {
  return own.requires === null ? { ...effective, requires: [], satisfy: [] } : effective;
}

/**
 * Per-scope fallback: can the scopes in `kept` stay on mod_access_compat while
 * the planned ones are migrated, without changing what any scope answers? On
 * the result, old and new rules meet on 2.4 + compat (compat24.ts), so:
 * - a migrated scope must not follow a kept one (it would inherit the kept
 *   compat record, and its Require tree was planned without it);
 * - a kept scope must inherit the same compat record, AuthType and (proven per
 *   method) Require section as today, so it answers as today whatever it holds;
 * - a scope without access rules must not inherit from both kinds.
 */
function keepsApart(
  kept: readonly AccessScope[],
  plans: readonly Plan[],
  access: readonly AccessScope[],
  all: readonly AccessScope[],
  universe: readonly string[],
): boolean {
  const planOf = new Map(plans.map((p) => [p.scope, p]));
  if (plans.some((p) => p.mergeAnd)) return false;
  const after = (s: AccessScope): ScopeCompat24 => {
    const plan = planOf.get(s);
    if (!plan) return compatOf(s);
    return { record: null, authz: { op: null, tree: plan.tree ?? { kind: 'any', children: [GRANTED] } }, authType: s.read.rules.authType };
  };
  const methods = [...universe, OTHER_METHODS];
  for (const z of all) {
    const before = all.filter((c) => c !== z && mayPrecede(c, z));
    if (planOf.has(z)) {
      if (before.some((c) => kept.includes(c))) return false;
    } else if (kept.includes(z)) {
      if (!sameInheritance(z, all, after, methods) && !samePerVariant(z, all, after, universe, methods)) return false;
    } else {
      const feeding = before.filter((c) => access.includes(c));
      if (feeding.some((c) => kept.includes(c)) && feeding.some((c) => planOf.has(c))) return false;
    }
  }
  return true;
}

/**
 * What the kept scope inherits (compat record, AuthType, Require section) is
 * the same before and after, so it answers as today whatever it holds.
 */
function sameInheritance(z: AccessScope, all: readonly AccessScope[], after: (s: AccessScope) => ScopeCompat24, methods: readonly string[]): boolean {
  const inherited = (data: (s: AccessScope) => ScopeCompat24) => {
    const parts = Object.fromEntries(Object.entries(parts24(data)).map(([k, r]) => [k, { has: r.has, full: (s: AccessScope) => s !== z && r.full(s) }]));
    const chain = inheritedChain(z, all, parts);
    return typeof chain === 'string' ? null : mergeCompat24(chain.map(data));
  };
  const now = inherited(compatOf);
  const then = inherited(after);
  if (!now || !then || now.authType !== then.authType) return false;
  if (!sameRecord(now.record, then.record, methods)) return false;
  const grantedIfNone = (t: RequireNode | null) => t ?? (now.authType === null ? GRANTED : null);
  const a = grantedIfNone(now.tree);
  const b = grantedIfNone(then.tree);
  if (!a || !b) return a === b;
  return methods.every((m) => sameAnswersForMethod(b, a, m, now.authType));
}

/** Keys of the unknown wrappers (<IfDefine>, unknown <IfModule>) holding the scope's own access rules. */
function unknownKeys(container: Container): string[] {
  const keys = new Set<string>();
  const visit = (c: Container) => {
    for (const n of c.body) {
      if (n.kind !== 'section' || SCOPE_SECTIONS.has(n.name.toLowerCase())) continue;
      const k = unknownKey(n);
      if (k && (containsAccess(n) || containsAuthz(n))) keys.add(k.key);
      visit(n);
    }
  };
  visit(container);
  return [...keys];
}

/**
 * The kept scope read once per outcome of its unknown wrappers (or once, when
 * it has none): in every reading, its 2.4 + compat policy after the migration
 * of its neighbours is proven equal, per method, to its policy today.
 */
function samePerVariant(
  z: AccessScope,
  all: readonly AccessScope[],
  after: (s: AccessScope) => ScopeCompat24,
  universe: readonly string[],
  methods: readonly string[],
): boolean {
  const keys = unknownKeys(z.container);
  if (keys.length > 4) return false;
  const variants: ScopeCompat24[] = [];
  for (let bits = 0; bits < 1 << keys.length; bits++) {
    const assume = new Map(keys.map((k, i) => [k, (bits & (1 << i)) !== 0]));
    const read = readScopeRules(z.container, assume);
    const authz = readAuthz24(z.container, assume);
    if (read.unsupported || authz.unsupported) return false;
    variants.push({ record: compatRecordOf(read.rules.host, read.rules.satisfy), authz: { op: authz.op, tree: authz.tree }, authType: read.rules.authType });
  }
  return variants.every((v) => {
    const policy = (data: (s: AccessScope) => ScopeCompat24) => {
      const at = (s: AccessScope) => (s === z ? v : data(s));
      const chain = inheritedChain(z, all, parts24(at));
      if (typeof chain === 'string') return null;
      const eff = mergeCompat24([...chain.map(at), v]);
      const compiled = compileCompat24(eff, universe);
      return 'unsupported' in compiled ? null : { tree: compiled.tree, authType: eff.authType };
    };
    const now = policy(compatOf);
    const then = policy(after);
    if (!now || !then || now.authType !== then.authType) return false;
    if (!now.tree || !then.tree) return now.tree === then.tree;
    return methods.every((m) => sameAnswersForMethod(then.tree as RequireNode, now.tree as RequireNode, m, now.authType));
  });
}

/** Two compat records (null: none, everyone passes, Satisfy All) decide alike for every method. */
function sameRecord(a: CompatRecord | null, b: CompatRecord | null, methods: readonly string[]): boolean {
  return methods.every((m) => {
    if (satisfyFor(a?.satisfy ?? [], m) !== satisfyFor(b?.satisfy ?? [], m)) return false;
    return sameAnswersForMethod(hostTreeFor(a?.host ?? null, m).tree, hostTreeFor(b?.host ?? null, m).tree, m, null);
  });
}

/** Old scopes, then every scope with Require rules an old or rewritten scope may feed (its meaning depends on them). */
function scopesToRewrite(scopes: readonly AccessScope[], mixed: boolean): AccessScope[] {
  const set = scopes.filter((s) => hasOldRules(s.read.rules) || s.read.unsupported !== null);
  const feeds = (s: AccessScope) => (mixed ? hasAuthz(s) : s.read.rules.requires !== null);
  for (let grown = true; grown; ) {
    grown = false;
    for (const s of scopes) {
      if (set.includes(s) || !feeds(s)) continue;
      if (set.some((o) => (mixed || hasOldRules(o.read.rules)) && mayPrecede(o, s))) {
        set.push(s);
        grown = true;
      }
    }
    if (!mixed) break;
  }
  return scopes.filter((s) => set.includes(s));
}

export const accessToRequire: Transform = {
  id: 'access-to-require',
  title: 'Rewrite Order/Allow/Deny/Satisfy as Require',
  row: 'Authorization: Order/Allow/Deny/Satisfy (mod_access_compat) → Require (mod_authz_core, mod_authz_host)',
  order: 100,
  applyServer(server, ctx) {
    const scopes = collectScopes(server.files);
    const mixed = scopes.some((s) => s.read.has24 || s.authz.has24);
    const access = scopesToRewrite(scopes, mixed);
    if (access.length === 0) return;
    const reasons = new Map<AccessScope, string>();
    const universe = methodUniverse(scopes);
    const contextKnown = server.main !== null;
    const plans: Plan[] = [];
    for (const scope of access) {
      const plan = mixed ? planMixed(scope, scopes, contextKnown, universe) : planScope(scope, scopes, contextKnown, universe);
      if (typeof plan === 'string') reasons.set(scope, plan);
      else plans.push(plan);
    }
    if (reasons.size > 0) {
      const kept = access.filter((s) => reasons.has(s));
      if (!contextKnown || plans.length === 0 || !keepsApart(kept, plans, access, scopes, universe)) {
        fallBack(access, reasons, scopes, ctx);
        return;
      }
      fallBack(kept, reasons, scopes, ctx);
    }
    for (const plan of plans) rewriteScope(plan, ctx);
  },
};
