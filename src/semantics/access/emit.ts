/**
 * A Require tree as configuration lines with relative depth. The root stands
 * for the section's implicit `<RequireAny>`, so a root RequireAny is written as
 * its children; nodes with `methods` are wrapped in `<Limit …>` /
 * `<LimitExcept …>` (adjacent siblings with the same methods share one).
 */
import { MethodMask, RequireNode } from './types';
import { canonicalMethods, isAllMethods, sameMask } from './method-mask';

export interface EmittedLine {
  readonly text: string;
  readonly depth: number;
}

const CONTAINER_NAME = { all: 'RequireAll', any: 'RequireAny', none: 'RequireNone' } as const;

/** An argument as ap_getword_conf reads it back: quoted when empty or holding blanks or quotes. */
export function quoteArg(arg: string): string {
  return arg === '' || /[\s"']/.test(arg) ? `"${arg.replace(/"/g, '\\"')}"` : arg;
}

function limitOpen(mask: MethodMask): string {
  const methods = canonicalMethods(mask.methods);
  if (!mask.except && methods.length === 0) throw new Error('a <Limit> needs at least one method');
  return `<${mask.except ? 'LimitExcept' : 'Limit'} ${methods.join(' ')}>`;
}

function emitNode(node: RequireNode, depth: number, out: EmittedLine[]): void {
  if (node.kind === 'require') {
    const words = [node.negate ? 'Require not' : 'Require', node.provider, ...node.args.map(quoteArg)];
    out.push({ text: words.join(' '), depth });
    return;
  }
  const name = CONTAINER_NAME[node.kind];
  out.push({ text: `<${name}>`, depth });
  emitSiblings(node.children, depth + 1, out);
  out.push({ text: `</${name}>`, depth });
}

function emitSiblings(nodes: readonly RequireNode[], depth: number, out: EmittedLine[]): void {
  for (let i = 0; i < nodes.length; ) {
    const mask = nodes[i].methods;
    if (isAllMethods(mask)) {
      emitNode(nodes[i], depth, out);
      i++;
      continue;
    }
    let end = i + 1;
    while (end < nodes.length && !isAllMethods(nodes[end].methods) && sameMask(nodes[end].methods, mask)) end++;
    out.push({ text: limitOpen(mask!), depth });
    for (const node of nodes.slice(i, end)) emitNode({ ...node, methods: undefined }, depth + 1, out);
    out.push({ text: mask!.except ? '</LimitExcept>' : '</Limit>', depth });
    i = end;
  }
}

export function emitRequire(tree: RequireNode | null): EmittedLine[] {
  if (!tree) return [];
  const out: EmittedLine[] = [];
  emitSiblings(tree.kind === 'any' && !tree.methods ? tree.children : [tree], 0, out);
  return out;
}
