// Upgrade note "Run-Time Configuration Changes / Authorization": Order, Allow, Deny and Satisfy
// (mod_access_compat) become Require rules of mod_authz_core.
//
// Not pattern matching: every scope's rules are read into a model, merged
// with what the scope inherits at request time, compiled into the smallest
// Require tree with the same outcome for every request, and written in place
// of the old lines. A scope's Require replaces what it inherits in 2.4, so each
// migrated scope carries its whole effective policy (plan-scope.ts).
//
// Which sections meet on one request is a fact of the URL space (DocumentRoot,
// Alias, UserDir, RewriteRule … per virtual host), so a <Location> meets only
// the <Directory> sections and per-directory files its URLs can map to
// (scopes.ts, src/semantics/url-space). Per-directory files are scopes of
// their server, read for the directory the config names.
//
// Mixed configurations follow one rule: among 2.2-style sections 2.2's
// inheritance decides; across the syntax boundary (a 2.2-style section under
// a 2.4-style one or the reverse, or under parents outside the run) the nearer
// section replaces the inherited rules, as 2.4 does by default. Where that
// differs from what httpd 2.4 + mod_access_compat answers today, one request
// that shows it is reported (`access-mixed-differs`). A run without a main
// config assumes a stock 2.4 main config above its files (`access-context-assumed`).
//
// Conditional wrappers inside a scope are judged (wrappers.ts): read through
// when their outcome on 2.4 is certain, left alone when they never apply, and
// unknown ones (<IfDefine>, most modules) keep the scope as it is.
//
// A scope whose equivalence cannot be shown keeps its old lines on
// mod_access_compat, together with only the scopes that meet it on some
// request (containment.ts); every other scope migrates. Kept scopes that
// inherited rules from a migrated one get copies of them (pins).
//
// `--dual-syntax` writes each migrated 2.2 scope as
// `<IfModule mod_authz_core.c>` new rules `</IfModule>` +
// `<IfModule !mod_authz_core.c>` old rules `</IfModule>`.
import { Container, Directive, Node, Section, appendToFile, appendToSection, fileOf, indentUnit, indexInParent, insertBefore, prependToSection, remove, replaceWith } from '../src/cst';
import { KEPT_MARKER, hasKeptMarker } from '../src/semantics/access/kept-marker';
import { ScopeCompat24 } from '../src/semantics/access/compat24';
import { wrapperVerdict } from '../src/semantics/access/wrappers';
import { answerChange, changeQuery } from '../src/semantics/access/answer-change';
import { where } from '../src/semantics/access/chain-options';
import { Pin, PinPart, contain, missingHalf } from '../src/semantics/access/containment';
import { Plan, PlanContext, authTypeAlone, compatOf, planAndMerge, planBoth, planOld, styleOf } from '../src/semantics/access/plan-scope';
import { AccessScope, FsSection, Meeting, SectionMeetings, UrlSection, collectScopes, mayPrecede } from '../src/semantics/access/scopes';
import { describeRequest } from '../src/semantics/access/witness';
import { emitRequire } from '../src/semantics/access/emit';
import { MethodMask, RequireNode } from '../src/semantics/access/types';
import { GRANTED } from '../src/semantics/access/require-tree';
import { ServerTree, SourceFile } from '../src/server/types';
import { buildUrlSpace } from '../src/semantics/url-space';
import { directorySections, governingAfterMigration, limitClassLine, refusedPerDirectoryFiles, unreadPerDirectoryFiles } from '../src/semantics/allow-override';
import { REQUIRE_24_PROVIDERS, containsAccess, readScopeRules } from '../src/semantics/access/read-rules';
import { containsAuthz } from '../src/semantics/access/read-authz24';
import { SCOPE_SECTIONS } from '../src/semantics/access/scope-sections';
import { Transform, TransformContext } from './types';

function methodUniverse(scopes: readonly AccessScope[]): string[] {
  const names = new Set<string>();
  const walk = (n: RequireNode | null) => {
    if (!n) return;
    for (const m of n.methods?.methods ?? []) names.add(m);
    if (n.kind !== 'require') n.children.forEach(walk);
  };
  const add = (entries: readonly { readonly methods: MethodMask }[] | undefined) => {
    if (entries) for (const e of entries) for (const name of e.methods.methods) names.add(name);
  };
  for (const s of scopes) {
    const r = s.read.rules;
    add(r.host?.orders);
    add(r.host?.allows);
    add(r.host?.denys);
    add(r.requires ?? undefined);
    add(r.satisfy);
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
  const lines0: Node[] = [...read.accessLines, ...authoritative, ...(plan.replacesAuthz ? scope.authz.lines : [])];
  const units: Node[] = [];
  for (const d of lines0) {
    const unit = removalUnit(d, container);
    if (!units.includes(unit)) units.push(unit);
  }
  // a unit inside another unit goes with it
  const outer = units.filter((u) => !units.some((v) => v !== u && v.kind === 'section' && contains(v, u)));
  if (outer.length > 1) {
    // lines of one body (the usual Order + Allow pair) are in document order by their place in it
    const parent = outer[0].parent;
    if (parent && outer.every((u) => u.parent === parent)) {
      const body = parent.body;
      outer.sort((a, b) => body.indexOf(a) - body.indexOf(b));
    } else {
      const order = documentOrder(container);
      outer.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    }
  }
  const anchor = outer.find((u) => canHoldBlock(u, container));
  // nested lines take the indentation step the scope itself uses (files may mix tabs and spaces)
  const unit = localUnit(anchor ?? outer[0], container);
  const indented = (lines: { text: string; depth: number }[], extra = 0) => lines.map((l) => ({ text: unit.repeat(l.depth + extra) + l.text, depth: 0 }));
  const merging = plan.mergeWith === 'and' ? [{ text: 'AuthMerging And', depth: 0 }] : [];
  const block = indented(plan.inherit ? [] : [...merging, ...(plan.tree ? emitRequire(plan.tree) : [{ text: 'Require all granted', depth: 0 }])]);
  const dual = !plan.inherit && !!ctx.options.dualSyntax && anchor !== undefined && outer.every((u) => u.parent === anchor.parent && !has24Syntax(u));
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
      if (block.length > 0) replaceWith(anchor, block);
      else remove(anchor);
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
  ctx.noteIn(
    scope.file,
    anchorNode(scope),
    'access-migrated',
    plan.inherit
      ? 'old access lines removed: read as 2.2 rules they set nothing this section does not inherit from the 2.4 sections above it'
      : `access rules rewritten as Require (${summary})` +
          (plan.mergeWith === 'and'
            ? ', combined with the Require rules of the sections above it (AuthMerging And): 2.2 combined their Order/Allow/Deny with this Require, whichever of them applied to the request'
            : '') +
          (dual ? '; the 2.2 rules are kept for 2.2 in <IfModule !mod_authz_core.c>' : ''),
    'info',
  );
  for (const note of plan.notes) ctx.noteIn(scope.file, anchorNode(scope), 'access-review', note, 'review');
  if (scope.kind === 'htaccess' && !ctx.server.main && !governedInRun(ctx.server, scope)) {
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
  for (const module of modules) ctx.requireModule(module, 'Require rules from migrated access control', scope.file);
}

/** A per-directory file whose AllowOverride this run sets (or writes: 2.2's default), so no note is needed about it. */
function governedInRun(server: ServerTree, scope: AccessScope): boolean {
  if (scope.path === null) return false;
  return governingAfterMigration(server, directorySections(server.files), scope.path) !== null;
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
function keptHazards(scope: AccessScope, all: readonly AccessScope[], pinned: ReadonlySet<PinPart>): string[] {
  const own = scope.read.rules;
  const before = all.filter((c) => c !== scope && mayPrecede(c, scope));
  const out: string[] = [];
  const half = missingHalf(scope);
  if (half === 'hosts' && !pinned.has('hosts') && before.some((c) => c.read.rules.host !== null)) {
    out.push(
      'this section sets Satisfy without Order/Allow/Deny: on 2.4 + mod_access_compat that resets the inherited host rules to "allow everyone" (2.2 kept them); repeat the parent\'s Order/Allow/Deny lines here',
    );
  }
  if (half === 'satisfy' && !pinned.has('satisfy') && before.some((c) => c.read.rules.satisfy.some((x) => x.value === 'any'))) {
    out.push('this section sets Order/Allow/Deny without Satisfy: on 2.4 + mod_access_compat that resets an inherited "Satisfy Any" to All (2.2 kept it); repeat the Satisfy line here');
  }
  if (own.satisfy.some((x) => x.value === 'any') && own.requires === null && !before.some((c) => c.read.rules.requires !== null)) {
    out.push('"Satisfy Any" with no Require: on 2.4 + mod_access_compat everyone gets in (2.2 applied the host rules); remove the Satisfy line');
  }
  return out;
}

function reportKept(scope: AccessScope, reason: string, all: readonly AccessScope[], pins: readonly Pin[], ctx: TransformContext): void {
  ctx.noteIn(scope.file, anchorNode(scope), 'access-kept', `Order/Allow/Deny/Satisfy kept (mod_access_compat loaded): ${reason}. Rewrite these rules as Require by hand`, 'manual');
  const pinned = new Set(pins.map((p) => p.part));
  for (const hazard of keptHazards(scope, all, pinned)) ctx.noteIn(scope.file, anchorNode(scope), 'access-compat-hazard', hazard, 'manual');
}

const PIN_WORDS: Readonly<Record<PinPart, string>> = { record: 'Order/Allow/Deny', require: 'Require', hosts: 'Order/Allow/Deny', satisfy: 'Satisfy' };

/** Why a pin was written, for its access-kept-pinned finding. */
function pinReason(pin: Pin): string {
  const what = PIN_WORDS[pin.part];
  if (!pin.from) return 'this kept section inherited no Require; the sections above it now carry Require blocks, so "Require all granted" is written here to keep it answering as before';
  if (pin.part === 'hosts' || pin.part === 'satisfy') {
    const own = pin.part === 'hosts' ? 'Satisfy' : 'Order/Allow/Deny';
    return (
      `this kept section sets ${own} without ${what}: 2.2 kept the ${what} it inherited from ${where(pin.from)}, ` +
      `and 2.4 + mod_access_compat would reset it (${pin.part === 'hosts' ? 'everyone passes the host check' : 'Satisfy All'}): a copy of those lines is written here so it answers as on 2.2`
    );
  }
  return `this kept section inherited its ${what} from ${where(pin.from)}, which is migrated: a copy of those lines is written here so it keeps answering as before`;
}

/**
 * Writes the kept mark (kept-marker.ts) into a kept scope, on its own level before the first line
 * that holds one of its access rules (the first line of a section without any); once per scope.
 */
function markKept(scope: AccessScope): void {
  const container = scope.container;
  if (hasKeptMarker(container)) return;
  // the lines of the scope's own level that hold its access rules (a wrapper, a <Limit>, or the rule itself)
  const holders = new Set<Node>();
  for (const line of [...scope.read.accessLines, ...scope.authz.lines]) {
    let top: Node | null = line;
    while (top && top.parent !== container) top = top.parent as Section | null;
    if (top) holders.add(top);
  }
  // wrappers the reader did not read through (<IfDefine>, an unknown <IfModule>) hold rules too
  const holds = (n: Node) => holders.has(n) || (n.kind === 'section' && !SCOPE_SECTIONS.has(n.lowerName) && (containsAccess(n) || containsAuthz(n)));
  const top = container.body.find(holds);
  if (top) insertBefore(top, [KEPT_MARKER]);
  else if (container.kind === 'section') prependToSection(container, [KEPT_MARKER]);
  else appendToFile(container, [KEPT_MARKER]);
}

/** Copies into a kept scope what it inherited from scopes that are migrated, so it answers as before. */
function writePins(scope: AccessScope, pins: readonly Pin[], ctx: TransformContext): void {
  const container = scope.container;
  const lines = pins.flatMap((p) => p.lines);
  const first = [...scope.read.accessLines, ...scope.authz.lines][0];
  const unit = localUnit(first, container);
  const block = lines.map((l) => ({ text: unit.repeat(l.depth) + l.text, depth: 0 }));
  if (first && first.parent === container) insertBefore(first, block);
  else if (container.kind === 'section') appendToSection(container, block);
  else appendToFile(container, block);
  for (const pin of pins) ctx.noteIn(scope.file, anchorNode(scope), 'access-kept-pinned', pinReason(pin), 'review');
}

/** Old scopes, then every Require-only scope an old one may feed (its meaning depends on it), and scopes the reader could not read. */
function rewriteTargets(scopes: readonly AccessScope[]): AccessScope[] {
  const old = (s: AccessScope) => styleOf(s) === 'old' || styleOf(s) === 'both';
  return scopes.filter(
    (s) =>
      s.file.role !== 'context' &&
      (old(s) || s.read.unsupported !== null || (styleOf(s) === 'plain' && scopes.some((o) => styleOf(o) === 'old' && mayPrecede(o, s)))),
  );
}

/** What a scope holds in the migrated config, as 2.4 + mod_access_compat reads it. */
function afterData(plans: ReadonlyMap<AccessScope, Plan>, kept: ReadonlySet<AccessScope>): (s: AccessScope) => ScopeCompat24 {
  return (s) => {
    const plan = plans.get(s);
    if (!plan || kept.has(s)) return compatOf(s);
    const authType = s.read.rules.authType;
    if (plan.inherit) return { record: null, authz: { op: s.authz.op, tree: s.authz.tree }, authType };
    return { record: null, authz: { op: plan.mergeWith ?? null, tree: plan.tree }, authType };
  };
}

const WITNESS_METHODS = ['GET', 'POST', 'DELETE'];

/** What a request to the scope asks for, in words: a URL for a <Location>, a file below a directory otherwise. */
function requestTarget(scope: AccessScope): string {
  const section = scope.container.kind === 'section' ? scope.container : null;
  if (scope.kind === 'location' && section) return section.values.join(' ');
  if (scope.kind === 'htaccess') return `a file in ${scope.path ?? 'its directory'}`;
  if (section && scope.kind !== 'server' && scope.kind !== 'vhost') return `a file matched by <${section.name} ${section.values.join(' ')}>`;
  return 'a URL of this server';
}

/**
 * Mixed configurations run on 2.4 + mod_access_compat today: where the migration (the nearer
 * section replaces the inherited rules) answers a request differently, one such request is shown.
 */
function reportChanges(scopes: readonly AccessScope[], plans: ReadonlyMap<AccessScope, Plan>, kept: ReadonlySet<AccessScope>, universe: readonly string[], ctx: TransformContext): void {
  const after = afterData(plans, kept);
  const methods = [...new Set([...universe, ...WITNESS_METHODS])];
  const query = changeQuery(compatOf, after);
  for (const scope of scopes) {
    if (scope.file.role === 'context' || styleOf(scope) === 'none' || kept.has(scope)) continue;
    const witness = answerChange(scope, scopes, compatOf, after, methods, query);
    if (!witness) continue;
    ctx.noteIn(
      scope.file,
      anchorNode(scope),
      'access-mixed-differs',
      `${describeRequest(witness.request, requestTarget(scope))}: httpd 2.4 + mod_access_compat answers ${witness.before} today, the migrated config ${witness.after}. ` +
        'Across the boundary between 2.2-style and 2.4-style sections the nearer section replaces the rules it inherits, as 2.4 does by default; ' +
        'with mod_access_compat the old lines and the inherited Require rules are combined instead',
      'review',
    );
  }
}

/**
 * The URL space of a server: which sections meet on one request. Files the server does not read
 * today (placed as if included) may change it once switched on: a pair may meet if it does with or
 * without them, and surely meets only if it does both ways.
 */
function urlSpaceOf(server: ServerTree): SectionMeetings {
  const config = server.files.filter((f) => f.role !== 'htaccess');
  const read = config.filter((f) => f.asIf === undefined);
  const today = buildUrlSpace(read);
  if (read.length === config.length) return today;
  return new EitherUrlSpace(today, buildUrlSpace(config));
}

/** The URL space today or with the switched-off files read (a class: V8 optimizes its method once per run). */
class EitherUrlSpace implements SectionMeetings {
  readonly hosts: SectionMeetings['hosts'];

  constructor(
    private readonly today: SectionMeetings,
    private readonly switchedOn: SectionMeetings,
  ) {
    this.hosts = [...new Set([...today.hosts, ...switchedOn.hosts])];
  }

  meets(loc: UrlSection, locVhost: Section | null, fs: FsSection, fsVhost: Section | null): Meeting {
    const a = this.today.meets(loc, locVhost, fs, fsVhost);
    const b = this.switchedOn.meets(loc, locVhost, fs, fsVhost);
    return { may: a.may || b.may, surely: a.surely && b.surely, unknown: [...a.unknown, ...b.unknown], approximate: a.approximate || b.approximate };
  }
}

/**
 * Migrates the access rules of a set of files as one request space: plans each scope, contains
 * what cannot be migrated, reports, rewrites. Returns how many scopes were migrated.
 */
function migrateAccess(files: readonly SourceFile[], space: SectionMeetings | null, fragment: boolean, ctx: TransformContext): number {
  const scopes = collectScopes(files, space);
  const targets = rewriteTargets(scopes);
  const contextOld = scopes.filter((s) => s.file.role === 'context' && (styleOf(s) === 'old' || styleOf(s) === 'both'));
  if (contextOld.length > 0) {
    ctx.requireModule('access_compat', `the context config still holds Order/Allow/Deny (${where(contextOld[0])})`);
  }
  const planContext: PlanContext = { all: scopes, universe: methodUniverse(scopes), fragment };
  const granted = () => {
    for (const scope of scopes) if (authTypeAlone(scope, planContext)) grantWhereAuthTypeAlone(scope, ctx);
  };
  if (targets.length === 0) {
    granted();
    return 0;
  }
  const plans = new Map<AccessScope, Plan>();
  const reasons = new Map<AccessScope, string>();
  for (const scope of targets) {
    if (hasKeptMarker(scope.container)) {
      reasons.set(scope, 'an earlier run kept them, and its comment in this section says so');
      continue;
    }
    const plan = styleOf(scope) === 'both' ? planBoth(scope, planContext) : planOld(scope, planContext);
    if (typeof plan === 'string') reasons.set(scope, plan);
    else plans.set(scope, plan);
  }
  // a Require whose host rules come from different sections on different requests: combined with them in 2.4
  const merged = new Map<AccessScope, string>();
  for (const [scope, reason] of [...reasons]) {
    const plan = planAndMerge(scope, planContext, plans);
    if (typeof plan === 'string') continue;
    plans.set(scope, plan);
    reasons.delete(scope);
    merged.set(scope, reason);
  }
  const containFor = () =>
    contain({
      scopes,
      targets: new Set(targets),
      unplannable: new Set(reasons.keys()),
      migratedTree: (s) => {
        const plan = plans.get(s);
        return !plan || plan.inherit ? null : (plan.tree ?? GRANTED);
      },
      where,
    });
  let containment = containFor();
  // a scope combined with the Require blocks above it cannot be, where one of them stays on its old lines
  for (let voided = true; voided; ) {
    voided = false;
    for (const [scope, reason] of merged) {
      const plan = plans.get(scope);
      if (!plan || containment.kept.has(scope) || !plan.relies?.some((r) => containment.kept.has(r))) continue;
      plans.delete(scope);
      reasons.set(scope, reason);
      voided = true;
    }
    if (voided) containment = containFor();
  }
  const { kept, pins, because } = containment;
  for (const scope of targets) {
    if (!kept.has(scope)) continue;
    reportKept(scope, reasons.get(scope) ?? because.get(scope) ?? 'it meets a section that could not be migrated', scopes, pins.get(scope) ?? [], ctx);
  }
  // kept only in files the server does not read today: compat is what they need once switched on
  const keptHere = [...kept].find((k) => k.file.asIf === undefined) ?? [...kept][0];
  if (keptHere) ctx.requireModule('access_compat', 'old Order/Allow/Deny rules are kept', keptHere.file);
  const mixed = scopes.some((s) => styleOf(s) === 'new' || styleOf(s) === 'both');
  // the comparison needs the lines as they are now: before anything is rewritten
  if (mixed) reportChanges(scopes, plans, kept, planContext.universe, ctx);
  for (const scope of targets) if (kept.has(scope)) markKept(scope);
  for (const [scope, list] of pins) writePins(scope, list, ctx);
  let migrated = 0;
  for (const [scope, plan] of plans) {
    if (kept.has(scope)) continue;
    rewriteScope(plan, ctx);
    migrated++;
  }
  granted();
  return migrated;
}

/** Writes `Require all granted` at the end of a scope whose AuthType no access rule reaches (authTypeAlone). */
function grantWhereAuthTypeAlone(scope: AccessScope, ctx: TransformContext): void {
  const container = scope.container;
  if (container.kind === 'section') appendToSection(container, ['Require all granted']);
  else appendToFile(container, ['Require all granted']);
  ctx.noteIn(
    scope.file,
    scope.read.contextLines.find((d) => d.is('AuthType')) ?? anchorNode(scope),
    'access-authtype-granted',
    `AuthType ${scope.read.rules.authType} with no Require, Order/Allow/Deny or Satisfy here or in any section before it: 2.2 never asked for credentials here and served every request; ` +
      '2.4 answers 500 (AH01627) unless a Require applies, so "Require all granted" is written (sections below with their own Require keep them)',
    'info',
  );
  ctx.requireModule('authz_core', 'Require all granted where AuthType stood alone', scope.file);
}

export const accessToRequire: Transform = {
  id: 'access-to-require',
  title: 'Rewrite Order/Allow/Deny/Satisfy as Require',
  row: 'Authorization: Order/Allow/Deny/Satisfy (mod_access_compat) → Require (mod_authz_core, mod_authz_host)',
  order: 100,
  applyServer(server, ctx) {
    // a per-directory file under AllowOverride None is never opened: no source of rules for its
    // neighbours; it is migrated on its own, so it is right once AllowOverride lets it in
    const unread = unreadPerDirectoryFiles(server);
    // one holding Order/Allow/Deny where AllowOverride grants other classes but not Limit answered
    // 500 on 2.2: migrated to Require (an AuthConfig directive) it would start to answer, perhaps 200
    const refused = refusedPerDirectoryFiles(server);
    const fragment = server.main === null;
    const migrated = migrateAccess(
      server.files.filter((f) => !unread.has(f) && !refused.has(f)),
      urlSpaceOf(server),
      fragment,
      ctx,
    );
    for (const [file, g] of unread) {
      if (readScopeRules(file.tree).accessLines.length === 0) continue;
      const context = g.file.role === 'context';
      ctx.noteIn(
        file,
        null,
        'htaccess-not-read',
        `"AllowOverride None" in <Directory ${g.section.values[0]}> (line ${g.section.line} of ${g.file.displayPath}) governs ${file.directory}: ` +
          (context
            ? `under this context httpd 2.4 does not read this file (2.2 read it only if its own main config let it)`
            : `httpd did not read this file on 2.2 and does not on 2.4`) +
          `, so its access lines apply to nothing; it is migrated on its own, as if no section above it held access rules`,
        context ? 'review' : 'info',
      );
      migrateAccess([file], null, true, ctx);
    }
    for (const [file, g] of refused) {
      const line = limitClassLine(file.tree) as Directive;
      const ao = g.allowOverride[g.allowOverride.length - 1];
      ctx.noteIn(
        file,
        line,
        'htaccess-refused-on-22',
        `"${line.name}" is a Limit directive, which "AllowOverride ${ao.values.join(' ')}" in <Directory ${g.section.values[0]}> (line ${g.section.line} of ${g.file.displayPath}) ` +
          `did not allow: 2.2 answered 500 for every request this file applies to, and so will 2.4. Left as is (as Require lines, which that AllowOverride allows, it would start to answer)`,
        'review',
      );
    }
    if (fragment && migrated > 0) {
      const file = server.files[0];
      ctx.noteIn(
        file,
        null,
        'access-context-assumed',
        'no main config is part of this run: the sections above these files are taken to be a stock 2.4 main config, which requires no authentication ' +
          '(Debian, RHEL and Apache all deny <Directory /> and grant their document roots), so each migrated section\'s Require replaces what it inherits ' +
          '(no AuthMerging). If the real main config holds Require, Satisfy or Order/Allow/Deny these sections relied on, run again with --context <main config>',
        'review',
      );
    }
  },
};
