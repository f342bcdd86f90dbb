/**
 * Joins per-method trees into one tree with `<Limit>` / `<LimitExcept>` masks
 * (mod_authz_core: a line limited to other methods is GRANTED inside a
 * RequireAll and NEUTRAL inside a RequireAny; a section limited to other
 * methods grants). Three shapes are tried and the shortest that provably
 * answers like each method's own tree wins:
 * - split: one masked branch per group of methods (groups that grant everyone are left out);
 * - shared RequireAll: lines common to every group once, the rest masked;
 * - shared RequireAny: likewise for alternatives.
 */
import { MethodMask, RequireNode } from './types';
import { GRANTED, isGranted, isPositive, nodeKey, withMethods } from './require-tree';
import { OTHER_METHODS } from './method-classes';
import { emitRequire } from './emit';
import { sameAnswersForMethod } from './same-answers';

export interface MethodGroup {
  /** Method class samples (may include OTHER_METHODS). */
  readonly methods: readonly string[];
  readonly tree: RequireNode;
}

export function groupMethods(perMethod: readonly { method: string; tree: RequireNode }[]): MethodGroup[] {
  const groups = new Map<string, { methods: string[]; tree: RequireNode }>();
  for (const { method, tree } of perMethod) {
    const key = nodeKey(tree);
    const group = groups.get(key) ?? { methods: [], tree };
    group.methods.push(method);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** `<Limit listed…>`, or `<LimitExcept others…>` for the group holding the unnamed methods. */
function maskFor(group: MethodGroup, named: readonly string[]): MethodMask {
  if (group.methods.includes(OTHER_METHODS)) {
    return { except: true, methods: named.filter((m) => !group.methods.includes(m)) };
  }
  return { except: false, methods: [...group.methods] };
}

function split(groups: readonly MethodGroup[], named: readonly string[]): RequireNode {
  const children = groups
    .filter((g) => !isGranted(g.tree))
    .flatMap((g) => {
      const parts = g.tree.kind === 'any' && !g.tree.methods ? g.tree.children : [g.tree];
      return parts.map((p) => withMethods(p, maskFor(g, named)));
    });
  return children.length === 1 ? children[0] : { kind: 'any', children };
}

function shared(groups: readonly MethodGroup[], named: readonly string[], kind: 'all' | 'any'): RequireNode | null {
  const parts = (t: RequireNode) => (t.kind === kind && !t.methods ? t.children : [t]);
  const keys = groups.map((g) => parts(g.tree).map(nodeKey));
  const common = parts(groups[0].tree).filter((c) => keys.every((k) => k.includes(nodeKey(c))));
  if (common.length === 0) return null;
  const commonKeys = common.map(nodeKey);
  const children = [...common];
  for (const g of groups) {
    const rest = parts(g.tree).filter((c) => !commonKeys.includes(nodeKey(c)));
    children.push(...rest.map((r) => withMethods(r, maskFor(g, named))));
  }
  if (kind === 'all' && !children.some(isPositive)) children.unshift(GRANTED);
  return { kind, children };
}

/** The shortest combined tree that answers like every group's tree for its methods, or null. */
export function combineMethodGroups(groups: readonly MethodGroup[], named: readonly string[], authType: string | null): RequireNode | null {
  if (groups.length === 1) return groups[0].tree;
  const candidates = [split(groups, named), shared(groups, named, 'all'), shared(groups, named, 'any')]
    .filter((c): c is RequireNode => c !== null)
    .map((tree) => ({ tree, size: emitRequire(tree).length }))
    .sort((a, b) => a.size - b.size);
  for (const { tree } of candidates) {
    const agrees = groups.every((g) => g.methods.every((m) => sameAnswersForMethod(tree, g.tree, m, authType)));
    if (agrees) return tree;
  }
  return null;
}
