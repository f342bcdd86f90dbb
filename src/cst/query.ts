/** Read-only walks over the tree. */
import { ConfigFile, Container, Directive, Node, Section } from './nodes';

/**
 * Every node below `root`, depth first, in file order. A snapshot array, not a lazy walk: callers
 * may edit the tree while they loop, and arrays are several times cheaper than nested generators
 * (the pipeline walks each file once or more per transform).
 */
export function walk(root: Container): Node[] {
  const out: Node[] = [];
  const visit = (container: Container): void => {
    for (const node of container.body) {
      out.push(node);
      if (node.kind === 'section') visit(node);
    }
  };
  visit(root);
  return out;
}

function lowered(names: readonly string[]): Set<string> | null {
  return names.length === 0 ? null : new Set(names.map((n) => n.toLowerCase()));
}

/** Directives below `root` (any depth) whose name is one of `names` (case-insensitive); all when none given. */
export function directives(root: Container, ...names: string[]): Directive[] {
  const wanted = lowered(names);
  const out: Directive[] = [];
  for (const node of walk(root)) {
    if (node.kind === 'directive' && (!wanted || wanted.has(node.name.toLowerCase()))) out.push(node);
  }
  return out;
}

/** Sections below `root` (any depth) whose name is one of `names`; all when none given. */
export function sections(root: Container, ...names: string[]): Section[] {
  const wanted = lowered(names);
  const out: Section[] = [];
  for (const node of walk(root)) {
    if (node.kind === 'section' && (!wanted || wanted.has(node.name.toLowerCase()))) out.push(node);
  }
  return out;
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
