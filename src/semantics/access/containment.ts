/**
 * Contained fallback: when some scopes cannot be migrated, they keep their
 * old lines (2.4 + mod_access_compat) together with only the scopes that
 * meet them on some request; every other scope migrates.
 *
 * With mod_access_compat loaded, 2.4 gives a request one compat record (the
 * nearest section with Order/Allow/Deny/Satisfy: no merging) and one Require
 * section (the nearest with Require, AuthMerging Off). So, structurally:
 * - a migrated scope must not sit below a kept scope that has a record (it
 *   would inherit the record and be ANDed with it): it is kept too;
 * - a kept scope must inherit the same record and Require section as today.
 *   Where a part it does not set itself came from a scope that is migrated
 *   (or a migrated scope now sits between it and its source), the part is
 *   pinned: copies of the source's lines go into the kept scope (or `Require
 *   all granted` where it inherited no Require), so it no longer depends on
 *   its parents. Where that cannot be done (the part is set conditionally,
 *   the source is not unique or not copyable), the migrated sources are kept.
 * 2.2 kept the two halves of a record apart: host rules in mod_authz_host (the nearest section with
 * Order/Allow/Deny), Satisfy in core (merged per method). Compat holds both in one record, so a kept
 * scope that sets one half alone loses the other half it inherited on 2.2 (access-compat-hazard).
 * That half is pinned too (kept or migrated, its source's lines are copied), from the nearest section
 * that sets it, where that section is the same for every request; where it is not, the hazard stays
 * and is reported.
 * Repeated until nothing changes; the kept set only grows.
 */
import { Container, Directive, Node, Section } from '../../cst';
import { compatRecordOf } from './compat24';
import { containsAccess, readScopeRules } from './read-rules';
import { containsAuthz, readAuthz24 } from './read-authz24';
import { SCOPE_SECTIONS } from './scope-sections';
import { AccessScope, mayPrecede, surelyPrecedes } from './scopes';
import { unknownKey, wrapperVerdict } from './wrappers';
import { isGranted } from './require-tree';
import { RequireNode, ScopeRules22 } from './types';

/** `Require all granted` for every method (alone, or as the only child of the implicit RequireAny). */
function grantsAll(tree: RequireNode): boolean {
  if (tree.methods) return false;
  if (isGranted(tree)) return true;
  return tree.kind === 'any' && tree.children.length === 1 && grantsAll(tree.children[0]);
}

/** A whole part, or one half of a record (`hosts`: Order/Allow/Deny, `satisfy`: Satisfy) that 2.2 inherited apart. */
export type PinPart = 'record' | 'require' | 'hosts' | 'satisfy';

export interface Pin {
  readonly part: PinPart;
  /** The scope whose lines are copied; null: nothing was inherited (`Require all granted`). */
  readonly from: AccessScope | null;
  /** The lines to write, in order. */
  readonly lines: readonly PinLine[];
}

export interface Containment {
  readonly kept: ReadonlySet<AccessScope>;
  readonly pins: ReadonlyMap<AccessScope, readonly Pin[]>;
  /** Why each scope kept for its neighbours' sake was kept. */
  readonly because: ReadonlyMap<AccessScope, string>;
}

export interface ContainmentInput {
  readonly scopes: readonly AccessScope[];
  /** Scopes the migration rewrites (planned or not). */
  readonly targets: ReadonlySet<AccessScope>;
  /** Targets that could not be planned. */
  readonly unplannable: ReadonlySet<AccessScope>;
  /** Of a planned target: the Require tree its migrated form holds (null: none, it inherits). */
  readonly migratedTree: (scope: AccessScope) => RequireNode | null;
  readonly where: (scope: AccessScope) => string;
}

/** Keys of the unknown wrappers (<IfDefine>, unknown <IfModule>) holding the scope's own access rules. */
function unknownKeys(container: Container): string[] {
  const keys = new Set<string>();
  const visit = (c: Container) => {
    for (const n of c.body) {
      if (n.kind !== 'section' || SCOPE_SECTIONS.has(n.lowerName)) continue;
      const k = unknownKey(n);
      if (k && (containsAccess(n) || containsAuthz(n))) keys.add(k.key);
      visit(n);
    }
  };
  visit(container);
  return [...keys];
}

const MAX_KEYS = 4;

function setsIn(part: PinPart, rules: ScopeRules22, authz: { tree: RequireNode | null; op: string | null }): boolean {
  switch (part) {
    case 'record':
      return compatRecordOf(rules.host, rules.satisfy) !== null;
    case 'require':
      return authz.tree !== null || (authz.op !== null && authz.op !== 'off');
    case 'hosts':
      return rules.host !== null;
    case 'satisfy':
      return rules.satisfy.length > 0;
  }
}

/**
 * Whether the scope sets a part itself in every way httpd may read it (each outcome of its
 * <IfDefine> / unknown <IfModule> wrappers), in none, or only in some; 'some' also when the
 * scope cannot be read.
 */
function setsPart(s: AccessScope, part: PinPart): 'all' | 'none' | 'some' {
  const keys = unknownKeys(s.container);
  if (keys.length > MAX_KEYS) return 'some';
  let yes = 0;
  const total = 1 << keys.length;
  for (let bits = 0; bits < total; bits++) {
    const assume = new Map(keys.map((k, i) => [k, (bits & (1 << i)) !== 0]));
    const read = readScopeRules(s.container, assume);
    const authz = readAuthz24(s.container, assume);
    if (read.unsupported || authz.unsupported) return 'some';
    if (setsIn(part, read.rules, authz)) yes++;
  }
  return yes === total ? 'all' : yes === 0 ? 'none' : 'some';
}

const PART_NAMES: Readonly<Record<PinPart, RegExp>> = {
  record: /^(order|allow|deny|satisfy)$/i,
  require: /^require$/i,
  hosts: /^(order|allow|deny)$/i,
  satisfy: /^satisfy$/i,
};

/** Lines of these parts are read by mod_access_compat (Order/Allow/Deny/Satisfy), the others by mod_authz_core. */
const isCompatPart = (part: PinPart) => part !== 'require';

/** One line of a pin, indented `depth` steps inside the scope. */
export interface PinLine {
  readonly text: string;
  readonly depth: number;
}

/** A directive or section head as one line: continuations joined, arguments spelled as written. */
function words(n: Directive | Section): string {
  return [n.name, ...n.args.map((w) => w.raw)].join(' ');
}

/**
 * A scope's lines of a part, as lines to copy: directly in the scope, in wrappers true on 2.2 and
 * 2.4, and in <Limit> / <LimitExcept> sections (copied with just the part's lines); null when some
 * of them sit in another conditional, or (Require) beside AuthMerging.
 */
function copyableLines(s: AccessScope, part: PinPart): PinLine[] | null {
  const out: PinLine[] = [];
  let ok = true;
  const isPart = (n: Node) =>
    (n.kind === 'directive' && PART_NAMES[part].test(n.name)) ||
    (part === 'require' && n.kind === 'section' && /^require(all|any|none)$/i.test(n.name));
  const emitWhole = (n: Node, depth: number) => {
    if (n.kind === 'directive') out.push({ text: words(n), depth });
    else if (n.kind === 'section') {
      out.push({ text: `<${words(n)}>`, depth });
      for (const c of n.body) emitWhole(c, depth + 1);
      out.push({ text: `</${n.name}>`, depth });
    }
  };
  const visit = (body: readonly Node[]) => {
    for (const n of body) {
      if (isPart(n)) {
        emitWhole(n, 0);
        continue;
      }
      if (n.kind === 'directive' && part === 'require' && /^authmerging$/i.test(n.name)) ok = false;
      if (n.kind !== 'section') continue;
      const lower = n.lowerName;
      if (lower === 'limit' || lower === 'limitexcept') {
        const inner = n.body.filter(isPart);
        if (inner.some((c) => c.kind === 'section') || n.body.some((c) => c.kind === 'section' && !isPart(c))) ok = false;
        if (inner.length === 0) continue;
        out.push({ text: `<${words(n)}>`, depth: 0 });
        for (const c of inner) emitWhole(c, 1);
        out.push({ text: `</${n.name}>`, depth: 0 });
      } else if (wrapperVerdict(n)?.kind === 'both') {
        visit(n.body);
      } else if (wrapperVerdict(n) !== null && (isCompatPart(part) ? containsAccess(n) : containsAuthz(n))) {
        // another conditional holding lines of this part: they cannot be copied as they are
        ok = false;
      }
    }
  };
  visit(s.container.body);
  return ok ? out : null;
}

function ownsPart(s: AccessScope, part: PinPart): boolean {
  return setsIn(part, s.read.rules, s.authz);
}

/** The half of a record a scope that sets the other half alone inherited on 2.2, and loses on compat; null when none. */
export function missingHalf(s: AccessScope): 'hosts' | 'satisfy' | null {
  const { host, satisfy } = s.read.rules;
  if (host === null && satisfy.length > 0) return 'hosts';
  if (host !== null && satisfy.length === 0) return 'satisfy';
  return null;
}

export function contain(input: ContainmentInput): Containment {
  const { scopes, targets, unplannable, migratedTree, where } = input;
  const kept = new Set<AccessScope>(unplannable);
  const pins = new Map<AccessScope, Pin[]>();
  const because = new Map<AccessScope, string>();
  if (kept.size === 0) return { kept, pins, because };

  const migrated = (s: AccessScope) => targets.has(s) && !kept.has(s);
  // a file the server does not read today (placed as if included) cannot hold a scope it reads back
  const switchedOff = (s: AccessScope) => s.file.asIf !== undefined;
  const mayHold = (keptOne: AccessScope, other: AccessScope) => !switchedOff(keptOne) || switchedOff(other);
  const pinned = (s: AccessScope, part: PinPart) => (pins.get(s) ?? []).some((p) => p.part === part);
  /** Has the part in the migrated config (kept scopes and untouched ones as today, pins included). */
  const finalHas = (s: AccessScope, part: PinPart) => (migrated(s) ? part === 'require' && migratedTree(s) !== null : ownsPart(s, part) || pinned(s, part));
  const keep = (s: AccessScope, why: string): boolean => {
    if (kept.has(s)) return false;
    kept.add(s);
    because.set(s, why);
    pins.delete(s);
    return true;
  };

  /** The nearest Require source of `k` in the migrated config is the same for every request and grants everyone. */
  const inheritsOnlyGranted = (k: AccessScope): boolean => {
    const sources = scopes.filter((c) => c !== k && mayPrecede(c, k) && finalHas(c, 'require'));
    const nearest = sources.filter((c) => !sources.some((x) => x !== c && surelyPrecedes(c, x)));
    if (nearest.length !== 1 || !surelyPrecedes(nearest[0], k) || !migrated(nearest[0])) return false;
    const tree = migratedTree(nearest[0]);
    return tree !== null && grantsAll(tree);
  };

  for (let changed = true; changed; ) {
    changed = false;
    // a migrated scope below a kept record would be ANDed with it
    for (const m of scopes) {
      if (!migrated(m)) continue;
      const record = [...kept].find((k) => mayHold(k, m) && (setsPart(k, 'record') !== 'none' || pinned(k, 'record')) && mayPrecede(k, m));
      if (record) changed = keep(m, `on 2.4 + mod_access_compat it would inherit the Order/Allow/Deny of ${where(record)}, which stays`) || changed;
    }
    // a kept scope inherits what it did today
    for (const k of [...kept]) {
      for (const part of ['record', 'require'] as const) {
        const own = setsPart(k, part);
        if (own === 'all' || pinned(k, part)) continue;
        const above = scopes.filter((c) => c !== k && mayPrecede(c, k));
        const changedSources = above.filter((c) => migrated(c) && mayHold(k, c) && (ownsPart(c, part) || finalHas(c, part)));
        if (changedSources.length === 0) continue;
        const label = part === 'record' ? 'Order/Allow/Deny' : 'Require';
        const keepSources = () => {
          for (const c of changedSources) changed = keep(c, `${where(k)} stays on its old rules and inherits its ${label} from here`) || changed;
        };
        if (own === 'some') {
          keepSources();
          continue;
        }
        // the part today: the nearest source must be the same for every request, and copyable
        const today = above.filter((c) => ownsPart(c, part));
        const nearest = today.filter((c) => !today.some((x) => x !== c && surelyPrecedes(c, x)));
        if (nearest.length > 1 || (nearest.length === 1 && !surelyPrecedes(nearest[0], k))) {
          keepSources();
          continue;
        }
        const from = nearest[0] ?? null;
        if (from === null) {
          // nothing inherited today: a record stays absent (migrated scopes have none); a Require section is pinned
          // open, unless what it inherits now is plain `Require all granted` anyway
          if (part === 'require' && !inheritsOnlyGranted(k)) {
            pins.set(k, [...(pins.get(k) ?? []), { part, from: null, lines: [{ text: 'Require all granted', depth: 0 }] }]);
            changed = true;
          }
          continue;
        }
        const lines = copyableLines(from, part);
        if (!lines || lines.length === 0) {
          keepSources();
          continue;
        }
        pins.set(k, [...(pins.get(k) ?? []), { part, from, lines }]);
        changed = true;
      }
      // the half of its record it inherited on 2.2 apart from the half it sets
      const half = missingHalf(k);
      if (half === null || pinned(k, half) || setsPart(k, half) !== 'none' || setsPart(k, half === 'hosts' ? 'satisfy' : 'hosts') !== 'all') continue;
      const sources = scopes.filter((c) => c !== k && mayPrecede(c, k) && mayHold(k, c) && ownsPart(c, half));
      if (sources.length === 0) continue;
      const nearest = sources.filter((c) => !sources.some((x) => x !== c && surelyPrecedes(c, x)));
      const lines = nearest.length === 1 && surelyPrecedes(nearest[0], k) ? copyableLines(nearest[0], half) : null;
      if (lines && lines.length > 0) {
        pins.set(k, [...(pins.get(k) ?? []), { part: half, from: nearest[0], lines }]);
        changed = true;
      }
    }
  }
  return { kept, pins, because };
}
