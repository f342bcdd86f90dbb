/**
 * Parser: text (bytes decoded as latin1) → ConfigFile. Never throws.
 *
 * Works on logical lines (physical lines joined by `\` + newline, as httpd
 * joins them). A line is blank, a comment (`#` first after white space: an
 * inline `#` is an argument), a section open `<Name …>`, a section close
 * `</Name>`, or a directive. Unbalanced sections become diagnostics: a stray
 * closer is an Opaque line, an unclosed section has `close === null`.
 */
import {
  Blank,
  Comment,
  ConfigFile,
  Diagnostic,
  Directive,
  Node,
  Opaque,
  Section,
  SectionClose,
  SectionOpen,
} from './nodes';

const BOM = '\xEF\xBB\xBF';

interface Frame {
  open: SectionOpen;
  body: Node[];
}

/** Physical lines the logical line last measured by logicalLineEnd spans (kept here: no tuple per line). */
let spanned = 0;

/** End offset (exclusive) of the logical line starting at `start`; sets `spanned`. */
function logicalLineEnd(text: string, start: number): number {
  let pos = start;
  let lines = 0;
  // httpd tests for `\` at the end of its joined buffer, from which each
  // continuation's `\` is removed: after `x\\` + newline, an empty physical
  // line continues too. `pending` counts the buffer's trailing backslashes.
  let pending = 0;
  const len = text.length;
  for (;;) {
    const nl = text.indexOf('\n', pos);
    if (nl === -1) {
      spanned = lines + 1;
      return len;
    }
    lines++;
    const lineStart = pos;
    pos = nl + 1;
    let back = nl - 1;
    if (back >= lineStart && text.charCodeAt(back) === 13) back--;
    let k = back;
    while (k >= lineStart && text.charCodeAt(k) === 92 /* \ */) k--;
    pending = k >= lineStart ? back - k : pending + (back - k);
    if (pending === 0) {
      spanned = lines;
      return pos;
    }
    pending--;
  }
}

/** Offset of the first character of text[start, end) that is neither white space nor a continuation (end when none). */
function firstNonSpace(text: string, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 11 || c === 12 || c === 13) {
      i++;
      continue;
    }
    // a continuation right at the start of a line is invisible to httpd
    if (c === 92 && i + 1 < end) {
      const n = text.charCodeAt(i + 1);
      if (n === 10) {
        i += 2;
        continue;
      }
      if (n === 13 && i + 2 < end && text.charCodeAt(i + 2) === 10) {
        i += 3;
        continue;
      }
    }
    return i;
  }
  return end;
}

export interface ParseOptions {
  /** Lines made by the tool: their line numbers are 0. */
  readonly synthetic?: boolean;
}

/** What a logical line is, from its first characters alone (the parser then checks tags for their `>`). */
export type LineKind = 'blank' | 'comment' | 'close' | 'open' | 'directive';

/**
 * Walks the logical lines of a text (after a BOM). After each `next()` that returns true, the line
 * is text[start, end), its first physical line is `line`, `first` is the offset of its first
 * character that is neither white space nor a continuation, and `kind` what it is. The parser is
 * built on it; discovery uses it to read a few facts without building a tree (and without cutting
 * out the lines it does not want).
 */
export class LineCursor {
  start = 0;
  end = 0;
  line = 0;
  first = 0;
  kind: LineKind = 'blank';
  private pos: number;
  private physical = 1;

  constructor(private readonly text: string) {
    this.pos = text.startsWith(BOM) ? BOM.length : 0;
  }

  next(): boolean {
    const text = this.text;
    if (this.pos >= text.length) return false;
    const start = this.pos;
    const end = logicalLineEnd(text, start);
    this.start = start;
    this.end = end;
    this.line = this.physical;
    this.pos = end;
    this.physical += spanned;
    const i = firstNonSpace(text, start, end);
    this.first = i;
    const c = i < end ? text.charCodeAt(i) : -1;
    if (i >= end || c === 10) this.kind = 'blank';
    else if (c === 35 /* # */) this.kind = 'comment';
    else if (c === 60 /* < */) this.kind = i + 1 < end && text.charCodeAt(i + 1) === 47 /* / */ ? 'close' : 'open';
    else this.kind = 'directive';
    return true;
  }
}

export function parse(text: string, options: ParseOptions = {}): ConfigFile {
  const bom = text.startsWith(BOM) ? BOM : '';
  const diagnostics: Diagnostic[] = [];
  const root: Node[] = [];
  const stack: Frame[] = [];
  let body = root;

  const cursor = new LineCursor(text);
  while (cursor.next()) {
    const raw = text.slice(cursor.start, cursor.end);
    const line = options.synthetic ? 0 : cursor.line;
    const kind = cursor.kind;
    if (kind === 'blank') {
      body.push(new Blank(raw, line));
    } else if (kind === 'comment') {
      body.push(new Comment(raw, line));
    } else if (kind === 'directive') {
      body.push(new Directive(raw, line));
    } else if (kind === 'close') {
      const close = new SectionClose(raw, line);
      if (close.word !== `</${close.name}>`) {
        // httpd takes the whole first word as the tag: `</Directory></VirtualHost>`, `</Directory` + ` >`
        diagnostics.push({ line, message: `expected </${close.name}> but saw ${close.word}` });
      }
      const depth = matchingFrame(stack, close.name);
      if (depth === -1) {
        diagnostics.push({ line, message: `</${close.name}> without matching <${close.name}>` });
        body.push(new Opaque(raw, line, 'unmatched section close'));
        continue;
      }
      while (stack.length - 1 > depth) {
        const inner = stack[stack.length - 1];
        diagnostics.push({
          line,
          message: `expected </${inner.open.name}> but saw </${close.name}> (<${inner.open.name}> opened on line ${inner.open.line})`,
        });
        body = closeFrame(stack, null);
      }
      body = closeFrame(stack, close);
    } else {
      const open = new SectionOpen(raw, line);
      if (!isTag(open)) {
        diagnostics.push({ line, message: `<${open.name}> directive missing closing '>'` });
        body.push(new Opaque(raw, line, 'section tag without >'));
        continue;
      }
      stack.push({ open, body: [] });
      body = stack[stack.length - 1].body;
    }
  }
  while (stack.length > 0) {
    const inner = stack[stack.length - 1];
    diagnostics.push({ line: inner.open.line, message: `<${inner.open.name}> is never closed` });
    closeFrame(stack, null);
  }
  return new ConfigFile(root, bom, diagnostics);

  function closeFrame(frames: Frame[], close: SectionClose | null): Node[] {
    const frame = frames.pop() as Frame;
    const section = new Section(frame.open, frame.body, close);
    const outer = frames.length > 0 ? frames[frames.length - 1].body : root;
    outer.push(section);
    return outer;
  }
}

/** Whether an open line is a section tag (a name and a closing `>`); else the parser keeps it as an opaque line. */
export function isTag(open: SectionOpen): boolean {
  return open.closeOffset !== -1 && open.name !== '';
}

function matchingFrame(stack: Frame[], name: string): number {
  const wanted = name.toLowerCase();
  for (let d = stack.length - 1; d >= 0; d--) {
    if (stack[d].open.name.toLowerCase() === wanted) return d;
  }
  return -1;
}

/** Parses a file's bytes. */
export function parseBytes(bytes: Buffer): ConfigFile {
  return parse(bytes.toString('latin1'));
}
