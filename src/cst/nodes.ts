/**
 * Node types of the lossless configuration tree.
 *
 * Every byte of a file belongs to exactly one line node (`raw`, its line
 * ending included); a Section owns its open line, its body and its close
 * line. Printing concatenates `raw` texts, so an untouched tree prints back
 * the bytes it was parsed from. Edits rewrite `raw` of the lines they touch.
 */
import type { NameIndex } from './name-index';
import { Word, quoteArg, scanValues, scanWord, scanWords, skipSpace, stripContinuations, wordEnd } from './tokens';

export type Node = Blank | Comment | Directive | Section | Opaque;
export type Container = ConfigFile | Section;

export interface Diagnostic {
  readonly line: number;
  readonly message: string;
}

/**
 * Splits a logical line's raw text into content and line ending. A line that
 * ends in a continuation (`\` + newline, only possible at the end of a file)
 * has no line ending of its own: that newline belongs to the continuation.
 */
export function splitLineEnd(raw: string): [string, string] {
  const end = contentEnd(raw);
  return [raw.slice(0, end), raw.slice(end)];
}

/** Offset where the line ending starts (the length when there is none, see splitLineEnd). */
export function contentEnd(raw: string): number {
  const n = raw.length;
  if (n === 0 || raw.charCodeAt(n - 1) !== 10) return n;
  const eol = n >= 2 && raw.charCodeAt(n - 2) === 13 ? n - 2 : n - 1;
  return eol > 0 && raw.charCodeAt(eol - 1) === 92 /* \ */ ? n : eol;
}

function leadingSpace(raw: string): number {
  let i = 0;
  while (i < raw.length && (raw.charCodeAt(i) === 32 || raw.charCodeAt(i) === 9)) i++;
  return i;
}

/**
 * Tells the file holding `container` (if any) that its tree changed, so what it derived from
 * the tree (its name index, its line-ending and indentation habits) is rebuilt on next use.
 */
function touch(container: Container | null): void {
  let c = container;
  while (c !== null && c.kind === 'section') c = c.parent;
  if (c !== null) c.version++;
}

/** Attaches `child` to a container under construction: quietly when it was in no tree, else as a move. */
function adoptOrMove(child: Node, container: Container): void {
  if (child.parent === null) child.adopt(container);
  else child.parent = container;
}

/** A node leaves `from` for `to` (even when they are the same: a node moved within its container by hand is re-attached this way). */
function move(from: Container | null, to: Container | null): Container | null {
  touch(from);
  touch(to);
  return to;
}

/** What a node in a container's body shares: its parent, whose changes its file is told of. */
abstract class Attached {
  protected parentNode: Container | null = null;

  /** The container whose body holds this node (null when detached, and for a section's own open and close lines). */
  get parent(): Container | null {
    return this.parentNode;
  }

  set parent(container: Container | null) {
    this.parentNode = move(this.parentNode, container);
  }

  /** Sets the parent of a node that belongs to no tree yet (a container being built): nothing to tell. */
  adopt(container: Container): void {
    this.parentNode = container;
  }
}

abstract class LineBase extends Attached {
  private rawText: string;
  /** 1-based line number in the original file; 0 for lines the tool added. */
  readonly line: number;

  constructor(raw: string, line: number) {
    super();
    this.rawText = raw;
    this.line = line;
  }

  /** Where an edit of this line is felt: its parent, or for a tag line the section it opens or closes. */
  protected holder(): Container | null {
    return this.parentNode;
  }

  /** The line's bytes (decoded as latin1), continuation lines and line ending included. */
  get raw(): string {
    return this.rawText;
  }

  set raw(value: string) {
    this.rawText = value;
    this.changed();
    touch(this.holder());
  }

  /** Called after `raw` changes, so subclasses drop what they derived from it. */
  protected changed(): void {}

  get lineEnd(): string {
    const raw = this.raw;
    return raw.slice(contentEnd(raw));
  }

  /** Leading spaces and tabs. */
  get indent(): string {
    return this.raw.slice(0, leadingSpace(this.raw));
  }

  setLineEnd(eol: string): void {
    this.raw = splitLineEnd(this.raw)[0] + eol;
  }

  setIndent(indent: string): void {
    this.raw = indent + this.raw.slice(leadingSpace(this.raw));
  }

  print(out: string[]): void {
    out.push(this.raw);
  }
}

export class Blank extends LineBase {
  readonly kind = 'blank' as const;
}

export class Comment extends LineBase {
  readonly kind = 'comment' as const;
  /** The comment text after `#`, without the line ending. */
  get text(): string {
    const [content] = splitLineEnd(this.raw);
    return content.slice(content.indexOf('#') + 1);
  }
}

/** A line the parser could not place (a stray closer, a tag without `>`). */
export class Opaque extends LineBase {
  readonly kind = 'opaque' as const;
  constructor(
    raw: string,
    line: number,
    readonly reason: string,
  ) {
    super(raw, line);
  }
}

/**
 * Lower-case spellings of the names callers test against (`is('Limit', 'LimitExcept')`): a few
 * dozen literals, each lowered once instead of on every test.
 */
const loweredNames = new Map<string, string>();

function lowered(name: string): string {
  let lower = loweredNames.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    // names come from the code, not from configs; the bound only guards against a caller that passes config text
    if (loweredNames.size < 1024) loweredNames.set(name, lower);
  }
  return lower;
}

/** Whether `lower` (a lower-case name) is one of `names`, compared case-insensitively. */
function isOneOf(lower: string, names: readonly string[]): boolean {
  for (const n of names) if (n.length === lower.length && (n === lower || lowered(n) === lower)) return true;
  return false;
}

/**
 * Lower-case names as shared strings: a config repeats a few hundred names, and each named line
 * keeps its lower-case name for the run (the name index, every `is` test). Bounded, and the key
 * is the lowered copy itself (made by toLowerCase, never a view into the file's text).
 */
const sharedLowerNames = new Map<string, string>();

function sharedLower(name: string): string {
  const lower = name.toLowerCase();
  const shared = sharedLowerNames.get(lower);
  if (shared !== undefined) return shared;
  if (sharedLowerNames.size < 4096 && lower !== name) sharedLowerNames.set(lower, lower);
  return lower;
}

/**
 * Shared shape of a directive line and a section's open tag: a name followed
 * by words. For a directive the words run to the end of the line; for a tag
 * they end at the last `>`.
 */
abstract class NamedLine extends LineBase {
  /*
   * What the line derives from its text, worked out on first use and dropped when the text
   * changes (fields of the node rather than an object of their own: every named line is asked
   * its name, and one object fewer per line is less for the collector to copy and mark).
   */
  /** Raw offset of the name's start; -1 until located. */
  private nameFrom = -1;
  private nameTo = -1;
  private nameText: string | null = null;
  private lower: string | null = null;
  private words: Word[] | null = null;
  private valueList: readonly string[] | null = null;

  /** Finds the name: returns its raw [start, end). */
  protected abstract locateName(): [number, number];
  /** Raw offsets [start, end) of the argument region. */
  protected abstract argRegion(): [number, number];

  protected override changed(): void {
    this.nameFrom = -1;
    this.nameTo = -1;
    this.nameText = null;
    this.lower = null;
    this.words = null;
    this.valueList = null;
  }

  private locate(): void {
    const [start, end] = this.locateName();
    this.nameFrom = start;
    this.nameTo = end;
  }

  protected get nameStart(): number {
    if (this.nameFrom === -1) this.locate();
    return this.nameFrom;
  }

  protected get nameEnd(): number {
    if (this.nameFrom === -1) this.locate();
    return this.nameTo;
  }

  /** The name as written (continuations removed). */
  get name(): string {
    if (this.nameText === null) {
      const raw = this.raw.slice(this.nameStart, this.nameTo);
      this.nameText = raw.indexOf('\\') === -1 ? raw : raw.replace(/\\\r?\n/g, '');
    }
    return this.nameText;
  }

  /** The name in lower case (names compare case-insensitively). */
  get lowerName(): string {
    return (this.lower ??= sharedLower(this.name));
  }

  /** Case-insensitive name test against one or more names. */
  is(...names: string[]): boolean {
    return isOneOf(this.lowerName, names);
  }

  get args(): readonly Word[] {
    if (this.words === null) {
      const [start, end] = this.argRegion();
      this.words = scanWords(this.raw, start, end);
    }
    return this.words;
  }

  /** Argument values as httpd sees them (one array per version of the line: do not change it). */
  get values(): readonly string[] {
    if (this.valueList === null) {
      // from the words when something asked for them already; else scanned without making them
      if (this.words !== null) this.valueList = Object.freeze(this.words.map((w) => w.value));
      else {
        const [start, end] = this.argRegion();
        this.valueList = Object.freeze(scanValues(this.raw, start, end));
      }
    }
    return this.valueList;
  }

  /**
   * Renames, keeping the arguments' column when the name was padded with
   * spaces to align it (`MaxClients          150`): the padding shrinks or
   * grows by the change in length, down to one space.
   */
  rename(newName: string): void {
    const raw = this.raw;
    const start = this.nameStart;
    const end = this.nameEnd;
    const stop = contentEnd(raw);
    let after = end;
    while (after < stop && raw.charCodeAt(after) === 32) after++;
    let gap = raw.slice(end, after);
    if (after < stop && gap.length > 1) gap = ' '.repeat(Math.max(1, gap.length - (newName.length - (end - start))));
    this.raw = raw.slice(0, start) + newName + gap + raw.slice(after);
  }

  /**
   * Replaces the arguments. Values are quoted when needed; an argument whose
   * value is unchanged keeps its original spelling (quotes and all).
   */
  setArgs(values: readonly string[]): void {
    const old = this.args;
    const spelled = values.map((v, i) => (old[i] && old[i].value === v && standsAlone(old[i].raw) ? old[i].raw : quoteArg(v)));
    const [start] = this.argRegion();
    const end = old.length > 0 ? old[old.length - 1].end : start;
    const sep = this.raw.slice(this.nameEnd, start);
    const before = this.raw.slice(0, this.nameEnd);
    const lead = spelled.length === 0 ? '' : sep.length > 0 && !/\\\r?\n/.test(sep) ? sep : ' ';
    // what follows the last argument (trailing blanks, the line ending; `>` for a tag) stays
    this.raw = before + lead + spelled.join(' ') + this.raw.slice(end);
  }

  /**
   * Edits arguments in place, one entry per argument: `undefined` keeps it as written, a string
   * replaces its raw text, `null` drops it with the blanks before it (after it, when it was first).
   * Blanks, continuations between the kept arguments and the line's tail stay as they were.
   */
  editArgs(edits: readonly (string | null | undefined)[]): void {
    const args = this.args;
    if (args.length === 0) return;
    const raw = this.raw;
    const firstKept = args.findIndex((_, i) => edits[i] !== null);
    let out = raw.slice(0, args[0].start);
    for (let i = 0; i < args.length; i++) {
      const edit = edits[i];
      if (edit === null) continue;
      // the blanks before a kept word: the ones that preceded it, unless it is now the first
      if (i !== firstKept) out += raw.slice(args[i - 1].end, args[i].start);
      out += edit === undefined ? args[i].raw : edit;
    }
    this.raw = out + raw.slice(args[args.length - 1].end);
  }

  /** Drops these arguments (see editArgs), keeping every other byte as written. */
  removeArgs(drop: readonly Word[]): void {
    this.editArgs(this.args.map((w) => (drop.includes(w) ? null : undefined)));
  }
}

/**
 * Whether a word's raw text reads back as that same word wherever it is put:
 * not an unclosed quote (which would swallow what follows) and not ending in
 * `\` (which before a line ending would continue the line).
 */
function standsAlone(raw: string): boolean {
  if (raw.endsWith('\\')) return false;
  const probe = raw + ' x';
  return scanWord(probe, 0, probe.length).end === raw.length;
}

export class Directive extends NamedLine {
  readonly kind = 'directive' as const;

  protected locateName(): [number, number] {
    const end = contentEnd(this.raw);
    const start = skipSpace(this.raw, 0, end);
    return [start, wordEnd(this.raw, start, end)];
  }

  protected argRegion(): [number, number] {
    const end = contentEnd(this.raw);
    return [skipSpace(this.raw, this.nameEnd, end), end];
  }
}

/** `<Name args>` — the open line of a section. */
export class SectionOpen extends NamedLine {
  readonly kind = 'open' as const;
  /** The section this line opens (set by Section). */
  section: Section | null = null;

  protected override holder(): Container | null {
    return this.section;
  }

  protected locateName(): [number, number] {
    const start = this.raw.indexOf('<') + 1;
    return [start, wordEnd(this.raw, start, contentEnd(this.raw), 62 /* > */)];
  }

  /** Offset of the closing `>` (httpd takes the last one on the line), or -1. */
  get closeOffset(): number {
    const end = contentEnd(this.raw);
    const gt = end === 0 ? -1 : this.raw.lastIndexOf('>', end - 1);
    return gt >= this.nameEnd ? gt : -1;
  }

  protected argRegion(): [number, number] {
    const gt = this.closeOffset;
    const end = gt === -1 ? contentEnd(this.raw) : gt;
    return [skipSpace(this.raw, this.nameEnd, end), end];
  }
}

/** `</Name>` — the close line of a section. */
export class SectionClose extends LineBase {
  readonly kind = 'close' as const;
  /** The section this line closes (set by Section). */
  section: Section | null = null;

  protected override holder(): Container | null {
    return this.section;
  }

  get name(): string {
    const [content] = splitLineEnd(this.raw);
    const lt = this.raw.indexOf('</');
    return stripContinuations(scanWord(content, lt + 2, content.length, 62 /* > */).raw);
  }

  /** The tag as httpd reads it: the first word of the line (`</Directory>`, or `</Directory></VirtualHost>`). */
  get word(): string {
    const [content] = splitLineEnd(this.raw);
    const lt = this.raw.indexOf('</');
    return stripContinuations(scanWord(content, lt, content.length).raw);
  }
}

export class Section extends Attached {
  readonly kind = 'section' as const;
  private closeLine: SectionClose | null = null;

  constructor(
    readonly open: SectionOpen,
    readonly body: Node[],
    close: SectionClose | null,
  ) {
    super();
    open.section = this;
    this.close = close;
    for (const child of body) adoptOrMove(child, this);
  }

  /** The close line, or null when the section is never closed. */
  get close(): SectionClose | null {
    return this.closeLine;
  }

  set close(line: SectionClose | null) {
    if (this.closeLine) this.closeLine.section = null;
    this.closeLine = line;
    if (line) line.section = this;
    touch(this);
  }

  /** The name in lower case. */
  get lowerName(): string {
    return this.open.lowerName;
  }

  get line(): number {
    return this.open.line;
  }
  get name(): string {
    return this.open.name;
  }
  get args(): readonly Word[] {
    return this.open.args;
  }
  get values(): readonly string[] {
    return this.open.values;
  }
  get indent(): string {
    return this.open.indent;
  }
  is(...names: string[]): boolean {
    return isOneOf(this.open.lowerName, names);
  }

  print(out: string[]): void {
    this.open.print(out);
    for (const child of this.body) child.print(out);
    if (this.close) this.close.print(out);
  }
}

/** One parsed configuration file. */
export class ConfigFile {
  readonly kind = 'file' as const;
  readonly body: Node[];
  /** A UTF-8 byte order mark (as latin1 text) kept ahead of the first line, or ''. Writable: a transform may drop it. */
  bom: string;
  readonly diagnostics: Diagnostic[];
  /**
   * Counts changes to the tree: a line's text, a node attached or detached (every edit helper
   * and every hand-made move sets `parent`). What is derived from the tree is keyed on it.
   */
  version = 0;
  /** The name index of `version` (name-index.ts), built on first use. */
  nameIndex: NameIndex | null = null;

  constructor(body: Node[], bom: string, diagnostics: Diagnostic[]) {
    this.body = body;
    this.bom = bom;
    this.diagnostics = diagnostics;
    for (const child of body) adoptOrMove(child, this);
  }

  print(): string {
    const out: string[] = [this.bom];
    for (const node of this.body) node.print(out);
    return out.join('');
  }

  /** Whether the tree prints as `text`, found line by line without building the printed text. */
  printsAs(text: string): boolean {
    if (!text.startsWith(this.bom)) return false;
    let offset = this.bom.length;
    const line = (raw: string): boolean => {
      if (!text.startsWith(raw, offset)) return false;
      offset += raw.length;
      return true;
    };
    const node = (n: Node): boolean => {
      if (n.kind !== 'section') return line(n.raw);
      if (!line(n.open.raw)) return false;
      for (const child of n.body) if (!node(child)) return false;
      return n.close === null || line(n.close.raw);
    };
    for (const n of this.body) if (!node(n)) return false;
    return offset === text.length;
  }
}
