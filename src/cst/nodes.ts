/**
 * Node types of the lossless configuration tree.
 *
 * Every byte of a file belongs to exactly one line node (`raw`, its line
 * ending included); a Section owns its open line, its body and its close
 * line. Printing concatenates `raw` texts, so an untouched tree prints back
 * the bytes it was parsed from. Edits rewrite `raw` of the lines they touch.
 */
import { Word, isSpaceCode, quoteArg, scanWord, scanWords, skipSpace } from './tokens';

export type Node = Blank | Comment | Directive | Section | Opaque;
export type Container = ConfigFile | Section;

export interface Diagnostic {
  readonly line: number;
  readonly message: string;
}

/** Splits a logical line's raw text into content and line ending. */
export function splitLineEnd(raw: string): [string, string] {
  if (raw.endsWith('\r\n')) return [raw.slice(0, -2), '\r\n'];
  if (raw.endsWith('\n')) return [raw.slice(0, -1), '\n'];
  return [raw, ''];
}

function leadingSpace(raw: string): number {
  let i = 0;
  while (i < raw.length && (raw.charCodeAt(i) === 32 || raw.charCodeAt(i) === 9)) i++;
  return i;
}

abstract class LineBase {
  /** The line's bytes (decoded as latin1), continuation lines and line ending included. */
  raw: string;
  /** 1-based line number in the original file; 0 for lines the tool added. */
  readonly line: number;
  parent: Container | null = null;

  constructor(raw: string, line: number) {
    this.raw = raw;
    this.line = line;
  }

  get lineEnd(): string {
    return splitLineEnd(this.raw)[1];
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
 * Shared shape of a directive line and a section's open tag: a name followed
 * by words. For a directive the words run to the end of the line; for a tag
 * they end at the last `>`.
 */
abstract class NamedLine extends LineBase {
  protected nameStart = 0;
  protected nameEnd = 0;
  private cachedArgs: Word[] | null = null;

  constructor(raw: string, line: number) {
    super(raw, line);
    this.locateName();
  }

  protected abstract locateName(): void;
  /** Raw offsets [start, end) of the argument region. */
  protected abstract argRegion(): [number, number];

  /** The name as written (continuations removed). */
  get name(): string {
    return this.raw.slice(this.nameStart, this.nameEnd).replace(/\\\r?\n/g, '');
  }

  /** Case-insensitive name test against one or more names. */
  is(...names: string[]): boolean {
    const mine = this.name.toLowerCase();
    return names.some((n) => n.toLowerCase() === mine);
  }

  get args(): readonly Word[] {
    if (this.cachedArgs === null) {
      const [start, end] = this.argRegion();
      this.cachedArgs = scanWords(this.raw, start, end);
    }
    return this.cachedArgs;
  }

  /** Argument values as httpd sees them. */
  get values(): string[] {
    return this.args.map((w) => w.value);
  }

  rename(newName: string): void {
    this.raw = this.raw.slice(0, this.nameStart) + newName + this.raw.slice(this.nameEnd);
    this.nameEnd = this.nameStart + newName.length;
    this.cachedArgs = null;
  }

  /**
   * Replaces the arguments. Values are quoted when needed; an argument whose
   * value is unchanged keeps its original spelling (quotes and all).
   */
  setArgs(values: readonly string[]): void {
    const old = this.args;
    const spelled = values.map((v, i) => (old[i] && old[i].value === v ? old[i].raw : quoteArg(v)));
    const [start] = this.argRegion();
    const end = old.length > 0 ? old[old.length - 1].end : start;
    const sep = this.raw.slice(this.nameEnd, start);
    const before = this.raw.slice(0, this.nameEnd);
    const lead = spelled.length === 0 ? '' : sep.length > 0 && !/\\\r?\n/.test(sep) ? sep : ' ';
    // what follows the last argument (trailing blanks, the line ending; `>` for a tag) stays
    this.raw = before + lead + spelled.join(' ') + this.raw.slice(end);
    this.cachedArgs = null;
  }
}

export class Directive extends NamedLine {
  readonly kind = 'directive' as const;

  protected locateName(): void {
    const [content] = splitLineEnd(this.raw);
    const start = skipSpace(this.raw, 0, content.length);
    const word = scanWord(this.raw, start, content.length);
    this.nameStart = word.start;
    this.nameEnd = word.end;
  }

  protected argRegion(): [number, number] {
    const [content] = splitLineEnd(this.raw);
    return [skipSpace(this.raw, this.nameEnd, content.length), content.length];
  }
}

/** `<Name args>` — the open line of a section. */
export class SectionOpen extends NamedLine {
  readonly kind = 'open' as const;

  protected locateName(): void {
    const [content] = splitLineEnd(this.raw);
    const lt = this.raw.indexOf('<');
    const word = scanWord(this.raw, lt + 1, content.length, 62 /* > */);
    this.nameStart = word.start;
    this.nameEnd = word.end;
  }

  /** Offset of the closing `>` (httpd takes the last one on the line), or -1. */
  get closeOffset(): number {
    const [content] = splitLineEnd(this.raw);
    const gt = content.lastIndexOf('>');
    return gt >= this.nameEnd ? gt : -1;
  }

  protected argRegion(): [number, number] {
    const gt = this.closeOffset;
    const end = gt === -1 ? splitLineEnd(this.raw)[0].length : gt;
    return [skipSpace(this.raw, this.nameEnd, end), end];
  }
}

/** `</Name>` — the close line of a section. */
export class SectionClose extends LineBase {
  readonly kind = 'close' as const;

  get name(): string {
    const [content] = splitLineEnd(this.raw);
    const lt = this.raw.indexOf('</');
    let end = lt + 2;
    while (end < content.length && content[end] !== '>' && !isSpaceCode(content.charCodeAt(end))) end++;
    return content.slice(lt + 2, end);
  }
}

export class Section {
  readonly kind = 'section' as const;
  parent: Container | null = null;

  constructor(
    readonly open: SectionOpen,
    readonly body: Node[],
    public close: SectionClose | null,
  ) {
    for (const child of body) child.parent = this;
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
  get values(): string[] {
    return this.open.values;
  }
  get indent(): string {
    return this.open.indent;
  }
  is(...names: string[]): boolean {
    return this.open.is(...names);
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
  /** A UTF-8 byte order mark (as latin1 text) kept ahead of the first line, or ''. */
  readonly bom: string;
  readonly diagnostics: Diagnostic[];

  constructor(body: Node[], bom: string, diagnostics: Diagnostic[]) {
    this.body = body;
    this.bom = bom;
    this.diagnostics = diagnostics;
    for (const child of body) child.parent = this;
  }

  print(): string {
    const out: string[] = [this.bom];
    for (const node of this.body) node.print(out);
    return out.join('');
  }
}

export function isContainer(x: Node | Container): x is Container {
  return x.kind === 'file' || x.kind === 'section';
}
