/**
 * One walk per file: every node in file order and the directives and sections by lower-case
 * name, built on first use and kept until the file's tree changes (ConfigFile.version). The
 * queries in query.ts answer from it, so the transforms that each ask a file for a few names
 * share one walk instead of walking the tree once or more apiece.
 */
import type { ConfigFile, Container, Directive, Node, Section } from './nodes';

export interface NameIndex {
  /** The file's version this index describes. */
  readonly version: number;
  /** Every node, depth first, in file order (what walk() returns). */
  readonly nodes: readonly Node[];
  readonly directives: readonly Directive[];
  readonly sections: readonly Section[];
  /** Directives by lower-case name, each list in file order. */
  readonly directivesByName: ReadonlyMap<string, readonly Directive[]>;
  /** Sections by lower-case name, each list in file order. */
  readonly sectionsByName: ReadonlyMap<string, readonly Section[]>;
}

function add<T>(map: Map<string, T[]>, name: string, item: T): void {
  const list = map.get(name);
  if (list) list.push(item);
  else map.set(name, [item]);
}

interface Building {
  readonly nodes: Node[];
  readonly directives: Directive[];
  readonly sections: Section[];
  readonly directivesByName: Map<string, Directive[]>;
  readonly sectionsByName: Map<string, Section[]>;
}

/** A module-level walk, not a closure per build: V8 keeps one optimized copy of it for the whole run. */
function collect(container: Container, into: Building): void {
  for (const node of container.body) {
    into.nodes.push(node);
    if (node.kind === 'directive') {
      into.directives.push(node);
      add(into.directivesByName, node.lowerName, node);
    } else if (node.kind === 'section') {
      into.sections.push(node);
      add(into.sectionsByName, node.lowerName, node);
      collect(node, into);
    }
  }
}

function build(file: ConfigFile): NameIndex {
  const into: Building = { nodes: [], directives: [], sections: [], directivesByName: new Map(), sectionsByName: new Map() };
  collect(file, into);
  return { version: file.version, ...into };
}

/** The file's index, rebuilt when the tree changed since it was made. */
export function nameIndex(file: ConfigFile): NameIndex {
  const index = file.nameIndex;
  if (index !== null && index.version === file.version) return index;
  return (file.nameIndex = build(file));
}

/** Whether the file holds a directive named one of `directives` or a section named one of `sections` (lower case). */
export function holdsAny(file: ConfigFile, directives: readonly string[], sections: readonly string[]): boolean {
  const index = nameIndex(file);
  return directives.some((n) => index.directivesByName.has(n)) || sections.some((n) => index.sectionsByName.has(n));
}
