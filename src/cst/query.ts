/** Read-only walks over the tree. */
import { ConfigFile, Container, Directive, Node, Section } from './nodes';

/** Every node below `root`, depth first, in file order. */
export function* walk(root: Container): Generator<Node> {
  for (const node of root.body) {
    yield node;
    if (node.kind === 'section') yield* walk(node);
  }
}

/** Directives below `root` (any depth) whose name is one of `names` (case-insensitive); all when none given. */
export function* directives(root: Container, ...names: string[]): Generator<Directive> {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  for (const node of walk(root)) {
    if (node.kind === 'directive' && (wanted.size === 0 || wanted.has(node.name.toLowerCase()))) yield node;
  }
}

/** Sections below `root` (any depth) whose name is one of `names`; all when none given. */
export function* sections(root: Container, ...names: string[]): Generator<Section> {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  for (const node of walk(root)) {
    if (node.kind === 'section' && (wanted.size === 0 || wanted.has(node.name.toLowerCase()))) yield node;
  }
}

/** Enclosing sections of a node, innermost first. */
export function ancestors(node: Node): Section[] {
  const out: Section[] = [];
  let p = node.parent;
  while (p && p.kind === 'section') {
    out.push(p);
    p = p.parent;
  }
  return out;
}

/** The file a node belongs to. */
export function fileOf(node: Node): ConfigFile | null {
  let p = node.parent;
  while (p && p.kind === 'section') p = p.parent;
  return p;
}

/** Index of a node in its parent's body. Throws when detached: that is a bug in a transform. */
export function indexInParent(node: Node): number {
  const parent = node.parent;
  const index = parent ? parent.body.indexOf(node) : -1;
  if (index === -1) throw new Error(`node on line ${node.line} is not attached to a tree`);
  return index;
}
