/**
 * What a scope inherits, request by request: for each part of the access
 * configuration (host rules, Require, Satisfy … in 2.2; the compat record,
 * the Require section … in 2.4), the sections whose value reaches a request
 * at the scope. Where that depends on the request (sections that may or may
 * not apply), every possibility is returned, so the caller can check that
 * all of them compile to the same rules.
 *
 * A barrier is a section whose rules replace everything above it for this
 * scope: across the syntax boundary between 2.2-style and 2.4-style
 * sections the nearer section replaces the inherited rules, as 2.4 does by
 * default. Sources above the nearest barrier drop out of the chain.
 */
import { AccessScope, filesContainers, mayPrecede, meeting, surelyPrecedes } from './scopes';

export type Part = (scope: AccessScope) => boolean;

export interface PartRule {
  /** The scope sets this part. */
  readonly has: Part;
  /** The scope sets it completely, so nothing of it is inherited. */
  readonly full: Part;
}

/** For each part, the scopes (in merge order) whose value of that part reaches the request; [] = none. */
export type Sources = ReadonlyMap<string, readonly AccessScope[]>;

/** The key under which a combination records the barrier it sits below. */
export const BARRIER = 'the nearest 2.4-style section';

export interface ChainQuery {
  readonly parts: Readonly<Record<string, PartRule>>;
  /** Ambiguous parts that can be compared per candidate: those whose nearest value replaces the rest. */
  readonly replaceOnly: (part: string, candidates: readonly AccessScope[]) => boolean;
  /** Parts whose candidates all say nothing that needs carrying (Satisfy All only). */
  readonly trivial?: (part: string, candidates: readonly AccessScope[]) => boolean;
  readonly barrier?: (scope: AccessScope) => boolean;
  /** The parts a barrier cuts off (default: all); the others are inherited across it. */
  readonly cut?: (part: string) => boolean;
  /** How many sources that may or may not apply it enumerates before it gives up (default MAX_UNCERTAIN). */
  readonly maxUncertain?: number;
  /** How many combinations it returns at most (default MAX_COMBINATIONS). */
  readonly maxCombinations?: number;
}

/** Defaults for planning, where every combination is compiled and compared. */
const MAX_UNCERTAIN = 5;
const MAX_COMBINATIONS = 32;

export function where(scope: AccessScope): string {
  const line = scope.container.kind === 'section' ? scope.container.line : 0;
  return `${scope.file.displayPath}${line ? ':' + line : ''}`;
}

/** Merge order of two scopes that apply to the same request, when the text tells it. */
function mergedBefore(a: AccessScope, b: AccessScope): boolean | null {
  if (surelyPrecedes(a, b)) return true;
  if (surelyPrecedes(b, a)) return false;
  const ab = mayPrecede(a, b);
  const ba = mayPrecede(b, a);
  if (ab && !ba) return true;
  if (ba && !ab) return false;
  return null;
}

export const byOrder = (a: AccessScope, b: AccessScope): number => {
  if (surelyPrecedes(a, b)) return -1;
  if (surelyPrecedes(b, a)) return 1;
  // <Files> inside different <Directory> sections or per-directory files: in their containers' merge order
  const containers = filesContainers(a, b);
  if (containers) {
    const [ca, cb] = containers;
    const dirLike = (s: AccessScope) => s.kind === 'directory' || s.kind === 'htaccess';
    if (dirLike(ca) !== dirLike(cb)) return dirLike(ca) ? 1 : -1;
    return byOrder(ca, cb);
  }
  return a.order - b.order;
};

/** Where the URL space could not tell whether sections meet: the lines to blame, for findings. */
function unknownCauses(scope: AccessScope, candidates: readonly AccessScope[]): string {
  const causes = new Set<string>();
  for (const c of candidates) {
    for (const [a, b] of [
      [c, scope],
      [scope, c],
    ] as const) {
      if (b.kind !== 'location' || !b.space) continue;
      const met = meeting(a, b);
      for (const u of met?.unknown ?? []) causes.add(`${u.file.displayPath}:${u.line} (${u.why})`);
    }
  }
  return causes.size > 0 ? `; the URL space cannot be known past ${[...causes].slice(0, 3).join(', ')}` : '';
}

/** Per server (its scope list) and per test: the scopes that pass it, all and per <VirtualHost> (null: main level). */
const holderIndex = new WeakMap<
  readonly AccessScope[],
  Map<Part, { all: AccessScope[]; byVhost: Map<AccessScope['vhost'], AccessScope[]>; merged: Map<AccessScope['vhost'], AccessScope[]> }>
>();

/**
 * The scopes of `all` that pass `has` and can apply to a request at `scope`: sections of two
 * different virtual hosts never do, so a scope inside a <VirtualHost> looks only at its own host's
 * and the main server's. Indexed once per server and test, so a fleet server's thousands of hosts
 * are not each compared with every other.
 */
export function holders(scope: AccessScope, all: readonly AccessScope[], has: Part): readonly AccessScope[] {
  let perAll = holderIndex.get(all);
  if (!perAll) holderIndex.set(all, (perAll = new Map()));
  let index = perAll.get(has);
  if (!index) {
    const list = all.filter(has);
    const byVhost = new Map<AccessScope['vhost'], AccessScope[]>();
    for (const s of list) {
      const group = byVhost.get(s.vhost);
      if (group) group.push(s);
      else byVhost.set(s.vhost, [s]);
    }
    perAll.set(has, (index = { all: list, byVhost, merged: new Map() }));
  }
  if (scope.vhost === null) return index.all;
  const main = index.byVhost.get(null) ?? [];
  const own = index.byVhost.get(scope.vhost) ?? [];
  if (main.length === 0) return own;
  if (own.length === 0) return main;
  // config order is kept: scope.order is the position in `all`; made once per host (each of its scopes asks)
  let merged = index.merged.get(scope.vhost);
  if (!merged) index.merged.set(scope.vhost, (merged = [...main, ...own].sort((a, b) => a.order - b.order)));
  return merged;
}

/** The scopes of `all` that pass `has` and may be merged before `scope` on some request. */
export function precedingHolders(scope: AccessScope, all: readonly AccessScope[], has: Part): AccessScope[] {
  return holders(scope, all, has).filter((c) => c !== scope && mayPrecede(c, scope));
}

export function chainOptions(scope: AccessScope, all: readonly AccessScope[], query: ChainQuery): Sources[] | string {
  const perPart = new Map<string, AccessScope[]>();
  for (const [part, rule] of Object.entries(query.parts)) {
    if (rule.full(scope)) continue;
    const candidates = precedingHolders(scope, all, rule.has);
    if (candidates.length === 0) continue;
    if (query.trivial?.(part, candidates)) continue;
    perPart.set(part, candidates);
  }
  const barriers = query.barrier ? precedingHolders(scope, all, query.barrier) : [];
  if (perPart.size === 0) return [barriers.length > 0 ? new Map([[BARRIER, nearestOnly(barriers, scope)]]) : new Map()];
  const uncertain = [...new Set([...perPart.values(), barriers].flat())].filter((c) => !surelyPrecedes(c, scope));
  const describe = (parts: readonly string[]) => {
    const sources = [...new Set(parts.flatMap((part) => perPart.get(part) ?? []))];
    return `it may inherit ${parts.join(', ')} from ${sources.map(where).join(', ')}, depending on the request${unknownCauses(scope, sources)}`;
  };
  if (uncertain.length > (query.maxUncertain ?? MAX_UNCERTAIN)) return `${describe([...perPart.keys()])}; too many possibilities to compare`;
  const combos: Map<string, readonly AccessScope[]>[] = [];
  for (let bits = 0; bits < 1 << uncertain.length; bits++) {
    const applies = (c: AccessScope) => surelyPrecedes(c, scope) || (bits & (1 << uncertain.indexOf(c))) !== 0;
    // the nearest barrier of this request cuts off every source above it
    const present = barriers.filter(applies);
    const nearest = present.filter((c) => !present.some((x) => x !== c && mergedBefore(c, x) === true));
    if (nearest.length > 1) return `it may sit below ${nearest.map(where).join(' or ')} (2.4-style sections), depending on the request`;
    const barrier = nearest[0];
    let partial: Map<string, readonly AccessScope[]>[] = [barrier ? new Map([[BARRIER, [barrier]]]) : new Map()];
    for (const [part, candidates] of perPart) {
      let inForce = candidates.filter(applies);
      if (barrier && (query.cut?.(part) ?? true)) {
        const unordered = inForce.find((c) => c !== barrier && mergedBefore(barrier, c) === null);
        if (unordered) return `it may inherit ${part} from ${where(unordered)}, and whether that lies above or below ${where(barrier)} (a 2.4-style section) depends on the request`;
        inForce = inForce.filter((c) => c !== barrier && mergedBefore(barrier, c) === true);
      }
      if (inForce.length === 0) continue;
      const maximal = inForce.filter((c) => !inForce.some((x) => x !== c && surelyPrecedes(c, x)));
      let options: AccessScope[][];
      if (maximal.length === 1) {
        const nearestSource = maximal[0];
        // everything that surely precedes the nearest source also feeds the merge
        options = [[...inForce.filter((c) => surelyPrecedes(c, nearestSource)), nearestSource].sort(byOrder)];
      } else {
        if (!query.replaceOnly(part, inForce)) return `${describe([part])}; the migrated rules could not carry it`;
        options = maximal.map((c) => [c]);
      }
      partial = partial.flatMap((combo) => options.map((o) => new Map([...combo, [part, o]])));
    }
    combos.push(...partial);
    if (combos.length > (query.maxCombinations ?? MAX_COMBINATIONS)) return `${describe([...perPart.keys()])}; too many possibilities to compare`;
  }
  return combos;
}

function nearestOnly(barriers: readonly AccessScope[], scope: AccessScope): AccessScope[] {
  const sure = barriers.filter((b) => surelyPrecedes(b, scope));
  const nearest = sure.filter((c) => !sure.some((x) => x !== c && surelyPrecedes(c, x)));
  return nearest.slice(0, 1);
}

export function sourcesOf(combos: readonly Sources[]): AccessScope[] {
  const out = new Set<AccessScope>();
  for (const combo of combos) for (const [part, list] of combo) if (part !== BARRIER) for (const s of list) out.add(s);
  return [...out];
}

const sameScopes = (a: readonly AccessScope[], b: readonly AccessScope[]) => a.length === b.length && a.every((s, i) => s === b[i]);

export function ambiguityReason(combos: readonly Sources[]): string {
  const parts = new Set<string>();
  for (const c of combos) for (const [part, list] of c) if (combos.some((d) => !sameScopes(d.get(part) ?? [], list))) parts.add(part);
  return `it may inherit ${[...parts].join(', ')} from ${sourcesOf(combos).map(where).join(', ')}, depending on the request, and the outcome differs; the migrated rules could not carry it`;
}
