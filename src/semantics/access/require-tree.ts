/**
 * Building Require trees in their smallest equivalent form. The constructors
 * keep one invariant the compiler relies on: a tree they build never evaluates
 * to NEUTRAL, because a `Require not …` only ever stands in a RequireAll beside
 * a positive child.
 */
import { MethodMask, RequireNode } from './types';

export type RequireLeaf = Extract<RequireNode, { kind: 'require' }>;
export type RequireContainer = Exclude<RequireNode, { kind: 'require' }>;

/** Providers whose arguments are alternatives: `ip a` or `ip b` is `ip a b`. */
const LIST_PROVIDERS = new Set(['ip', 'host', 'env', 'user', 'group', 'dbm-group']);

/** Providers that need an authenticated user (DENIED_NO_USER before authentication). */
export const USER_PROVIDERS = new Set([
  'valid-user',
  'user',
  'group',
  'dbm-group',
  'file-owner',
  'file-group',
  'dbm-file-group',
]);

export function requireLeaf(provider: string, args: readonly string[], negate = false): RequireLeaf {
  return { kind: 'require', provider, args: [...new Set(args)], negate };
}

export const GRANTED: RequireLeaf = requireLeaf('all', ['granted']);
export const DENIED: RequireLeaf = requireLeaf('all', ['denied']);

function isAllLeaf(node: RequireNode, word: string): boolean {
  return (
    node.kind === 'require' &&
    node.provider === 'all' &&
    !node.negate &&
    !node.methods &&
    node.args.length === 1 &&
    node.args[0].toLowerCase() === word
  );
}

export const isGranted = (node: RequireNode): boolean => isAllLeaf(node, 'granted');
export const isDenied = (node: RequireNode): boolean => isAllLeaf(node, 'denied');

/** A child that counts as positive for httpd's "contains only negative authorization directives" check. */
export function isPositive(node: RequireNode): boolean {
  return node.kind === 'require' ? !node.negate : node.kind !== 'none';
}

export function withMethods(node: RequireNode, methods: MethodMask): RequireNode {
  return { ...node, methods };
}

/** A stable identity for comparing and de-duplicating nodes. */
export function nodeKey(node: RequireNode): string {
  return JSON.stringify(node);
}

function flatten(children: readonly RequireNode[], kind: 'all' | 'any'): RequireNode[] {
  return children.flatMap((c) => (c.kind === kind && !c.methods ? flatten(c.children, kind) : [c]));
}

/** Folds same-provider leaves with the given negation into one line, at the first one's place. */
function mergeLists(children: readonly RequireNode[], negate: boolean): RequireNode[] {
  const out: RequireNode[] = [];
  const firstOf = new Map<string, number>();
  for (const child of children) {
    if (child.kind === 'require' && child.negate === negate && !child.methods && LIST_PROVIDERS.has(child.provider)) {
      const at = firstOf.get(child.provider);
      if (at !== undefined) {
        const first = out[at] as RequireLeaf;
        out[at] = requireLeaf(first.provider, [...first.args, ...child.args], negate);
        continue;
      }
      firstOf.set(child.provider, out.length);
    }
    if (!out.some((o) => nodeKey(o) === nodeKey(child))) out.push(child);
  }
  return out;
}

/**
 * `<RequireAll>` of the children, simplified: nested RequireAll flattened,
 * `all denied` absorbs, `all granted` kept only as the positive anchor that
 * negative children need, `not ip a` + `not ip b` = `not ip a b`.
 */
export function allOf(children: readonly RequireNode[]): RequireNode {
  const flat = flatten(children, 'all');
  if (flat.some(isDenied)) return DENIED;
  const rest = mergeLists(
    flat.filter((c) => !isGranted(c)),
    true,
  );
  const kept = rest.some(isPositive) ? rest : [GRANTED, ...rest];
  if (kept.length === 1) return kept[0];
  return { kind: 'all', children: kept };
}

/**
 * `<RequireAny>` of positive children, simplified: nested RequireAny flattened,
 * `all granted` absorbs, `all denied` dropped, `ip a` + `ip b` = `ip a b`.
 */
export function anyOf(children: readonly RequireNode[]): RequireNode {
  const flat = flatten(children, 'any');
  if (flat.some(isGranted)) return GRANTED;
  const rest = mergeLists(
    flat.filter((c) => !isDenied(c)),
    false,
  );
  if (rest.length === 0) return DENIED;
  if (rest.length === 1) return rest[0];
  return { kind: 'any', children: rest };
}
