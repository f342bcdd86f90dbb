// Upgrade note "Run-Time Configuration Changes / Authorization": Order, Allow, Deny and Satisfy
// (mod_access_compat) become Require rules of mod_authz_core.
//
// Not pattern matching: every scope's 2.2 rules are read into a model, merged
// with what the scope inherits at request time (2.2's rules: host rules,
// Require and Satisfy inherit separately), compiled into the smallest Require
// tree with the same outcome for every request, and written in place of the
// old lines. A scope's Require replaces what it inherits in 2.4, so each
// migrated scope carries its whole effective policy.
//
// When equivalence cannot be shown for any scope of a server — inheritance
// that depends on the request path, a mixed 2.2/2.4 config, a construct the
// model lacks — nothing in that server's access rules is touched:
// mod_access_compat is scheduled and a `manual` finding says why.
import { Node, Section, indexInParent, insertBefore, remove, replaceWith } from '../src/cst';
import { compileEffective } from '../src/semantics/access/compile';
import { emitRequire } from '../src/semantics/access/emit';
import { merge22 } from '../src/semantics/access/merge22';
import { AccessScope, collectScopes, mayPrecede, surelyPrecedes } from '../src/semantics/access/scopes';
import { isAllMethods } from '../src/semantics/access/method-mask';
import { Effective22, RequireNode, ScopeRules22 } from '../src/semantics/access/types';
import { Transform, TransformContext } from './types';

type Part = (rules: ScopeRules22) => boolean;

const PARTS: Record<string, Part> = {
  'host rules (Order/Allow/Deny)': (r) => r.host !== null,
  Require: (r) => r.requires !== null,
  Satisfy: (r) => r.satisfy.length > 0,
  AuthType: (r) => r.authType !== null,
  AuthDBMGroupFile: (r) => r.dbmGroups !== null,
  'Authz*Authoritative': (r) => Object.keys(r.authoritative).length > 0,
};

/** Parts the scope sets completely by itself need nothing inherited. */
function setsFully(rules: ScopeRules22, part: string): boolean {
  if (part === 'Satisfy') return rules.satisfy.some((s) => isAllMethods(s.methods));
  return PARTS[part](rules);
}

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
}

/** The chain of scopes a request at `scope` merges, as far as the text can tell; a reason when it cannot. */
function inheritedChain(scope: AccessScope, all: readonly AccessScope[]): AccessScope[] | string {
  const chosen = new Set<AccessScope>();
  for (const part of Object.keys(PARTS)) {
    if (setsFully(scope.read.rules, part)) continue;
    const candidates = all.filter((c) => c !== scope && PARTS[part](c.read.rules) && mayPrecede(c, scope));
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

/**
 * Plans one scope. With the whole server in view, what a scope does not set
 * comes from the scopes that surely precede it, or from httpd's defaults.
 * When the run holds only a fragment (a vhost file, a .htaccess), parents it
 * cannot see may set Require or Satisfy: the plan then keeps 2.4 from
 * dropping them (`AuthMerging And`: never more access than 2.2 gave), or
 * gives up when that cannot be made safe.
 */
function planScope(scope: AccessScope, all: readonly AccessScope[], contextKnown: boolean, universe: string[]): Plan | string {
  if (scope.read.unsupported) return scope.read.unsupported;
  const chain = inheritedChain(scope, all);
  if (typeof chain === 'string') return chain;
  const rules = [...chain.map((c) => c.read.rules), scope.read.rules];
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
  return { scope, tree: compiled.tree, mergeAnd, notes: [...notes, ...compiled.notes] };
}

function methodUniverse(scopes: readonly AccessScope[]): string[] {
  const names = new Set<string>();
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
  }
  return [...names].sort();
}

function modulesFor(tree: RequireNode | null, out: Set<string>): Set<string> {
  if (!tree) return out;
  if (tree.kind === 'require') {
    const provider = tree.provider;
    if (provider === 'ip' || provider === 'host') out.add('authz_host');
    else if (provider === 'valid-user' || provider === 'user') out.add('authz_user');
    else if (provider === 'group') out.add('authz_groupfile');
    else if (provider.startsWith('dbm-')) out.add('authz_dbm');
  } else for (const child of tree.children) modulesFor(child, out);
  return out;
}

/** Replaces a scope's old access lines by the compiled Require block, in place of the first one. */
function rewriteScope(plan: Plan, ctx: TransformContext): void {
  const { scope } = plan;
  const read = scope.read;
  const authoritative = read.contextLines.filter((d) => /^authz.*authoritative$/i.test(d.name));
  // what goes: each old line, or the whole <Limit> when it held nothing but access rules
  const units: Node[] = [];
  for (const d of [...read.accessLines, ...authoritative]) {
    const parent = d.parent;
    const unit = parent && parent.kind === 'section' && read.limitSections.includes(parent) ? parent : d;
    if (!units.includes(unit)) units.push(unit);
  }
  const lines = [
    ...(plan.mergeAnd ? [{ text: 'AuthMerging And', depth: 0 }] : []),
    ...(plan.tree ? emitRequire(plan.tree) : [{ text: 'Require all granted', depth: 0 }]),
  ];
  const topLevel = units.filter((u) => u.parent === scope.container).sort((x, y) => indexInParent(x) - indexInParent(y));
  const anchor = topLevel[0];
  for (const unit of units) {
    if (unit === anchor) continue;
    if (unit.kind === 'section') hoistComments(unit);
    remove(unit);
  }
  if (anchor) {
    if (anchor.kind === 'section') hoistComments(anchor);
    replaceWith(anchor, lines);
  } else {
    // every old line sat in a <Limit> that also holds other directives: the block goes before the first of them
    const first = read.accessLines[0]?.parent;
    if (first && first.kind === 'section') insertBefore(first, lines);
  }
  const summary = lines.map((l) => l.text).filter((t) => /^Require /.test(t)).join('; ');
  ctx.noteIn(scope.file, anchorNode(scope), 'access-migrated', `access rules rewritten as Require (${summary})`, 'info');
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
  for (const module of modulesFor(plan.tree, new Set(['authz_core']))) ctx.requireModule(module, 'Require rules from migrated access control');
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

function fallBack(scopes: readonly AccessScope[], reasons: Map<AccessScope, string>, ctx: TransformContext): void {
  for (const scope of scopes) {
    const reason = reasons.get(scope) ?? 'another scope of this server could not be migrated, and mixing old and new rules changes their meaning on 2.4';
    ctx.noteIn(
      scope.file,
      anchorNode(scope),
      'access-kept',
      `Order/Allow/Deny/Satisfy kept (mod_access_compat loaded): ${reason}. Rewrite these rules as Require by hand`,
      'manual',
    );
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

export const accessToRequire: Transform = {
  id: 'access-to-require',
  title: 'Rewrite Order/Allow/Deny/Satisfy as Require',
  row: 'Authorization: Order/Allow/Deny/Satisfy (mod_access_compat) → Require (mod_authz_core, mod_authz_host)',
  order: 100,
  applyServer(server, ctx) {
    const scopes = collectScopes(server.files);
    // scopes with 2.2-only rules, and Require-only scopes that inherit from one (2.4 would drop what they inherit)
    const old = scopes.filter((s) => hasOldRules(s.read.rules) || s.read.unsupported !== null);
    const access = scopes.filter(
      (s) => old.includes(s) || (s.read.rules.requires !== null && old.some((o) => hasOldRules(o.read.rules) && mayPrecede(o, s))),
    );
    if (access.length === 0) return;
    const reasons = new Map<AccessScope, string>();
    const mixed = scopes.find((s) => s.read.has24);
    if (mixed) {
      for (const s of access) reasons.set(s, `this server mixes 2.2 rules with 2.4 Require rules (${where(mixed)}), which is not migrated yet`);
      fallBack(access, reasons, ctx);
      return;
    }
    const universe = methodUniverse(scopes);
    const contextKnown = server.main !== null;
    const plans: Plan[] = [];
    for (const scope of access) {
      const plan = planScope(scope, scopes, contextKnown, universe);
      if (typeof plan === 'string') reasons.set(scope, plan);
      else plans.push(plan);
    }
    if (reasons.size > 0) {
      fallBack(access, reasons, ctx);
      return;
    }
    for (const plan of plans) rewriteScope(plan, ctx);
  },
};
