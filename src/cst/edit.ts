/**
 * Editing helpers. New text takes its layout from its neighbours (Augeas'
 * `del` defaults): indentation of the line it replaces or sits beside, the
 * section's child indentation, and the file's dominant line ending.
 */
import { ConfigFile, Container, Node, Section } from './nodes';
import { parse } from './parser';
import { fileOf, indexInParent } from './query';

/** A line to add: its text without indentation, and its depth relative to the insertion point. */
export type NewLine = string | { readonly text: string; readonly depth: number };

/** A file's layout habits, measured once per version of its tree (edits come in runs). */
interface Habits {
  readonly version: number;
  eol?: string;
  unit?: string;
}

const habits = new WeakMap<ConfigFile, Habits>();

function habitsOf(file: ConfigFile): Habits {
  let h = habits.get(file);
  if (!h || h.version !== file.version) {
    h = { version: file.version };
    habits.set(file, h);
  }
  return h;
}

/** The line ending most lines of the file use ('\n' when tied or empty). */
export function dominantLineEnd(file: ConfigFile): string {
  const h = habitsOf(file);
  return (h.eol ??= measureLineEnd(file));
}

function measureLineEnd(file: ConfigFile): string {
  const text = file.print();
  let lf = 0;
  let crlf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** One level of indentation as the file writes it: a tab, or the most common step between a section and its body. */
export function indentUnit(file: ConfigFile): string {
  const h = habitsOf(file);
  return (h.unit ??= measureIndentUnit(file));
}

/** Counts the indentation steps between each section and its body (a module-level walk: V8 optimizes it once). */
function countIndentSteps(container: Container, steps: Map<string, number>): void {
  for (const node of container.body) {
    if (node.kind !== 'section') continue;
    // the step is measured from the section's own tag, wherever that tag sits
    const outer = node.indent;
    const inner = firstChildIndent(node);
    if (inner !== null && inner.startsWith(outer) && inner.length > outer.length) {
      const step = inner.slice(outer.length);
      steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    countIndentSteps(node, steps);
  }
}

function measureIndentUnit(file: ConfigFile): string {
  const steps = new Map<string, number>();
  countIndentSteps(file, steps);
  let best = '    ';
  let count = 0;
  for (const [step, n] of steps) {
    if (n > count) {
      best = step;
      count = n;
    }
  }
  return best;
}

function firstChildIndent(section: Section): string | null {
  for (const child of section.body) {
    if (child.kind === 'directive' || child.kind === 'section') return child.indent;
  }
  for (const child of section.body) {
    if (child.kind === 'comment') return child.indent;
  }
  return null;
}

/** The line printed last for a node (a section's close, or its last body line). */
function lastLine(node: Node): Exclude<Node, Section> | Section['open'] | NonNullable<Section['close']> {
  if (node.kind !== 'section') return node;
  if (node.close) return node.close;
  const last = node.body[node.body.length - 1];
  return last ? lastLine(last) : node.open;
}

function requireFile(node: Node): ConfigFile {
  const file = fileOf(node);
  if (!file) throw new Error(`node on line ${node.line} is not attached to a file`);
  return file;
}

/** Builds nodes for `lines` with a base indentation and line ending; the last line gets `lastEol`. */
function build(file: ConfigFile, lines: readonly NewLine[], baseIndent: string, eol: string, lastEol: string): Node[] {
  // the file's step is measured (a walk of the file, again after every edit) only when a line is nested
  const unit = lines.some((l) => typeof l !== 'string' && l.depth > 0) ? indentUnit(file) : '';
  const text = lines
    .map((l, i) => {
      const { text: body, depth } = typeof l === 'string' ? { text: l, depth: 0 } : l;
      return baseIndent + unit.repeat(Math.max(0, depth)) + body + (i === lines.length - 1 ? lastEol : eol);
    })
    .join('');
  const fragment = parse(text, { synthetic: true });
  if (fragment.diagnostics.length > 0) {
    throw new Error(`generated text does not parse: ${fragment.diagnostics[0].message}`);
  }
  return fragment.body.splice(0);
}

function insertAt(container: Container, index: number, nodes: Node[]): void {
  for (const n of nodes) n.parent = container;
  container.body.splice(index, 0, ...nodes);
}

/** Replaces a node (directive, comment, section…) by new lines at its indentation. Returns the new nodes. */
export function replaceWith(node: Node, lines: readonly NewLine[]): Node[] {
  const file = requireFile(node);
  const parent = node.parent as Container;
  const index = indexInParent(node);
  const ownEol = lastLine(node).lineEnd;
  const eol = ownEol || dominantLineEnd(file);
  const nodes = lines.length === 0 ? [] : build(file, lines, node.indent, eol, ownEol);
  parent.body.splice(index, 1);
  node.parent = null;
  insertAt(parent, index, nodes);
  if (nodes.length === 0 && ownEol === '') keepNoFinalNewline(file);
  return nodes;
}

/** After the file's last line (which had no line ending) is removed, the new last line loses its ending too. */
function keepNoFinalNewline(file: ConfigFile): void {
  const last = file.body[file.body.length - 1];
  if (last) lastLine(last).setLineEnd('');
}

/**
 * Removes a node. With `withComments`, the comment block directly above it
 * (no blank line between) goes too, as it documents the removed line.
 */
export function remove(node: Node, options: { withComments?: boolean } = {}): void {
  const file = requireFile(node);
  const parent = node.parent as Container;
  let index = indexInParent(node);
  let count = 1;
  if (options.withComments) {
    while (index > 0 && parent.body[index - 1].kind === 'comment') {
      index--;
      count++;
    }
  }
  const removed = parent.body.splice(index, count);
  for (const n of removed) n.parent = null;
  if (lastLine(node).lineEnd === '') keepNoFinalNewline(file);
}

/** Inserts lines before `ref`, at its indentation. */
export function insertBefore(ref: Node, lines: readonly NewLine[]): Node[] {
  const file = requireFile(ref);
  const eol = lastLine(ref).lineEnd || dominantLineEnd(file);
  const nodes = build(file, lines, ref.indent, eol, eol);
  insertAt(ref.parent as Container, indexInParent(ref), nodes);
  return nodes;
}

/** Inserts lines after `ref`, at its indentation. */
export function insertAfter(ref: Node, lines: readonly NewLine[]): Node[] {
  const file = requireFile(ref);
  const refLast = lastLine(ref);
  const refEol = refLast.lineEnd;
  const eol = refEol || dominantLineEnd(file);
  const nodes = build(file, lines, ref.indent, eol, refEol === '' ? '' : eol);
  // only once the new text is known to parse, and when there is some
  if (refEol === '' && nodes.length > 0) refLast.setLineEnd(eol);
  insertAt(ref.parent as Container, indexInParent(ref) + 1, nodes);
  return nodes;
}

/** Indentation for a new line inside `section`: its children's, else one unit deeper than the tag. */
export function childIndent(section: Section): string {
  return firstChildIndent(section) ?? section.indent + indentUnit(requireFile(section));
}

/** Any line node: what lastLine returns. */
type LineNode = ReturnType<typeof lastLine>;

/**
 * Builds lines that go right after `prev`. When `prev` is the file's last line
 * without a line ending, it gets `eol` and the new last line goes without, so
 * the file keeps ending without a newline.
 */
function buildAfter(
  file: ConfigFile,
  prev: LineNode | null,
  lines: readonly NewLine[],
  indent: string,
  eol: string,
): Node[] {
  const open = prev && prev.lineEnd === '' ? prev : null;
  const nodes = build(file, lines, indent, eol, open ? '' : eol);
  if (open && nodes.length > 0) open.setLineEnd(eol);
  return nodes;
}

/** Appends lines at the end of a section's body, before its close tag. */
export function appendToSection(section: Section, lines: readonly NewLine[]): Node[] {
  const file = requireFile(section);
  const eol = section.open.lineEnd || dominantLineEnd(file);
  // without a close tag, the section's last line may be the file's last
  const nodes = buildAfter(file, section.close ? null : lastLine(section), lines, childIndent(section), eol);
  insertAt(section, section.body.length, nodes);
  return nodes;
}

/** Inserts lines at the start of a section's body, after its open tag. */
export function prependToSection(section: Section, lines: readonly NewLine[]): Node[] {
  const file = requireFile(section);
  const eol = section.open.lineEnd || dominantLineEnd(file);
  const nodes = buildAfter(file, section.open, lines, childIndent(section), eol);
  insertAt(section, 0, nodes);
  return nodes;
}

/** Appends lines at the end of a file, at top level; a file without a final newline keeps it that way. */
export function appendToFile(file: ConfigFile, lines: readonly NewLine[]): Node[] {
  const last = file.body[file.body.length - 1];
  const nodes = buildAfter(file, last ? lastLine(last) : null, lines, '', dominantLineEnd(file));
  insertAt(file, file.body.length, nodes);
  return nodes;
}

/** Inserts lines at the start of a file (after a BOM). */
export function prependToFile(file: ConfigFile, lines: readonly NewLine[]): Node[] {
  const eol = dominantLineEnd(file);
  const nodes = build(file, lines, '', eol, eol);
  insertAt(file, 0, nodes);
  return nodes;
}
