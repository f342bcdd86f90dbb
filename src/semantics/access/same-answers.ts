/**
 * Checks that a tree with `<Limit>` masks answers, for one method, exactly as
 * that method's own tree does — whatever each Require line answers. Lines are
 * treated as independent unknowns (stronger than needed: real lines are
 * correlated), so the check holds for every request. The check is
 * exhaustive; beyond MAX_LINES distinct lines it gives up (answers false).
 */
import { RequireNode } from './types';
import { AuthzStatus, LeafOracle, applyAuthzSections, asRootSection, outcome24 } from './eval24';
import { RequireLeaf, USER_PROVIDERS } from './require-tree';
import { canonicalMethod } from './method-mask';

const MAX_LINES = 12;

function leafKey(leaf: RequireLeaf): string {
  return JSON.stringify([leaf.provider, leaf.args]);
}

function collectLeaves(node: RequireNode, keys: Set<string>): void {
  if (node.kind === 'require') {
    if (isFreeLeaf(node)) keys.add(leafKey(node));
  } else for (const child of node.children) collectLeaves(child, keys);
}

/** `all` and `method` answer the same for every request of a method; everything else is an unknown. */
function isFreeLeaf(leaf: RequireLeaf): boolean {
  return leaf.provider !== 'all' && leaf.provider !== 'method';
}

function oracleFor(keys: readonly string[], bits: number, method: string, withUser: boolean): LeafOracle {
  return (leaf) => {
    if (leaf.provider === 'all') return leaf.args.join(' ').toLowerCase() === 'granted' ? 'granted' : 'denied';
    if (leaf.provider === 'method') {
      return leaf.args.some((m) => canonicalMethod(m) === canonicalMethod(method)) ? 'granted' : 'denied';
    }
    if (USER_PROVIDERS.has(leaf.provider) && !withUser) return 'denied-no-user';
    return bits & (1 << keys.indexOf(leafKey(leaf))) ? 'granted' : 'denied';
  };
}

function answers(tree: RequireNode, method: string, keys: readonly string[], bits: number, authType: string | null): string {
  const root = asRootSection(tree);
  const run = (withUser: boolean): AuthzStatus => applyAuthzSections(root, method, 'and', oracleFor(keys, bits, method, withUser));
  const before = run(false);
  const user = outcome24(before, authType, { kind: 'user', user: 'u', groups: [] }, () => run(true));
  const none = outcome24(before, authType, { kind: 'none' }, () => run(true));
  return `${user}/${none}`;
}

/** True when `combined` answers like `expected` for `method`, whatever each line answers. */
export function sameAnswersForMethod(
  combined: RequireNode,
  expected: RequireNode,
  method: string,
  authType: string | null,
): boolean {
  const set = new Set<string>();
  collectLeaves(combined, set);
  collectLeaves(expected, set);
  const keys = [...set];
  if (keys.length > MAX_LINES) return false;
  for (let bits = 0; bits < 1 << keys.length; bits++) {
    if (answers(combined, method, keys, bits, authType) !== answers(expected, method, keys, bits, authType)) return false;
  }
  return true;
}
