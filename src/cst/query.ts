/**
 * Read-only walks over the tree. On a whole file they answer from its name index (one walk per
 * file, name-index.ts); below a section they walk that section.
 */
import { nameIndex } from './name-index';
import { ConfigFile, Container, Directive, Node, Section } from './nodes';

/**
 * Every node below `root`, depth first, in file order. A snapshot array, not a lazy walk: callers
 * may edit the tree while they loop, and arrays are several times cheaper than nested generators
 * (the pipeline walks each file once or more per transform).
 */
export function walk(root: Container): Node[] {
  if (root.kind === 'file') return nameIndex(root).nodes.slice();
  const out: Node[] = [];
  walkInto(root, out);
  return out;
}

/** Module-level recursive walks (not closures per call): V8 keeps one optimized copy of each. */
function walkInto(container: Container, out: Node[]): void {
  for (const node of container.body) {
    out.push(node);
    if (node.kind === 'section') walkInto(node, out);
  }
}

/** The nodes of `all` whose lower-case name is in `wanted`, or a copy of the one list that can match. */
function named<T extends Directive | Section>(all: readonly T[], byName: ReadonlyMap<string, readonly T[]>, names: readonly string[]): T[] {
  if (names.length === 0) return all.slice();
  if (names.length === 1) return (byName.get(names[0].toLowerCase()) ?? []).slice();
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  let only: readonly T[] | null = null;
  let lists = 0;
  for (const name of wanted) {
    const list = byName.get(name);
    if (list) {
      lists++;
      only = list;
    }
  }
  if (lists === 0) return [];
  if (lists === 1) return (only as readonly T[]).slice();
  return all.filter((n) => wanted.has(n.lowerName));
}

function below<T extends Directive | Section>(root: Section, kind: T['kind'], names: readonly string[]): T[] {
  const wanted = names.length === 0 ? null : new Set(names.map((n) => n.toLowerCase()));
  const out: T[] = [];
  belowInto(root, kind, wanted, out);
  return out;
}

function belowInto<T extends Directive | Section>(container: Container, kind: T['kind'], wanted: ReadonlySet<string> | null, out: T[]): void {
  for (const node of container.body) {
    if (node.kind === kind && (wanted === null || wanted.has((node as T).lowerName))) out.push(node as T);
    if (node.kind === 'section') belowInto(node, kind, wanted, out);
  }
}

/** Directives below `root` (any depth) whose name is one of `names` (case-insensitive); all when none given. */
export function directives(root: Container, ...names: string[]): Directive[] {
  if (root.kind === 'file') {
    const index = nameIndex(root);
    return named(index.directives, index.directivesByName, names);
  }
  return below<Directive>(root, 'directive', names);
}

/** Sections below `root` (any depth) whose name is one of `names`; all when none given. */
export function sections(root: Container, ...names: string[]): Section[] {
  if (root.kind === 'file') {
    const index = nameIndex(root);
    return named(index.sections, index.sectionsByName, names);
  }
  return below<Section>(root, 'section', names);
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
