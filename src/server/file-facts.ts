/**
 * The few directives discovery needs from a file (Include lines, ServerRoot, and what decides
 * where per-directory files are read), kept once the file's tree is gone: planning a fleet must
 * not hold every tree of every server at once.
 */
import { Container, Directive, LineCursor, SectionOpen, isTag, walk } from '../cst';
import { cacheKey } from '../semantics/cache-key';

export interface DirectiveFact {
  readonly values: readonly string[];
  /** 1-based line of the directive. */
  readonly line: number;
}

/** Directive names (lower case) discovery reads, and `<Directory` for its path argument. */
export const FACT_NAMES = ['include', 'includeoptional', 'serverroot', 'accessfilename', 'documentroot', 'alias', 'scriptalias', '<directory'];
const WANTED = new Set(FACT_NAMES);
/** First letters (lower case) of the wanted directive names: other lines are passed over unread. */
const FIRST_LETTERS = new Set([...WANTED].filter((n) => !n.startsWith('<')).map((n) => n.charCodeAt(0)));
/** Lengths of the wanted directive names: a line whose name has another length is passed over without cutting it out. */
const WANTED_LENGTHS = new Set([...WANTED].filter((n) => !n.startsWith('<')).map((n) => n.length));
const D = 'd'.charCodeAt(0);
const BACKSLASH = 92;
/** A comment that may be a commented-out Include: `#`, white space (as `\s` reads it), then an i (a prefilter: the full test follows). */
const MAY_BE_INCLUDE = /\s*i/iy;

/**
 * End of a directive's name (a bare word: up to white space) starting at `from`, or -1 when a
 * backslash stands in it (a continuation may split the name: the Directive node finds it then).
 */
function bareNameEnd(text: string, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) break;
    if (c === BACKSLASH) return -1;
    i++;
  }
  return i;
}

/**
 * Keeps a fact, its values copied out of the file's text (cacheKey): a value read from a line is a
 * view into the whole text, and the facts outlive the text. Kept as views, a fleet's facts held
 * every file's text while it was planned (the 200-server bench fleet: 22 MB of texts; 1,000
 * servers: a 450 MB planning thread).
 */
function addFact(byName: Map<string, DirectiveFact[]>, name: string, values: readonly string[], line: number): void {
  const fact: DirectiveFact = { values: values.map(cacheKey), line };
  const list = byName.get(name);
  if (list) list.push(fact);
  else byName.set(name, [fact]);
}

/** The fact name of a commented-out `#Include path` line (Apache's own httpd.conf switches its extra/ files on this way). */
export const COMMENTED_INCLUDE = '#include';
const COMMENTED_INCLUDE_LINE = /^\s*(?:Include|IncludeOptional)\s+("[^"]+"|\S+)\s*$/i;

/** Most files of a fleet hold none of the wanted lines: they share one empty map (a Map costs some 500 bytes). */
const NO_FACTS: ReadonlyMap<string, readonly DirectiveFact[]> = new Map();

export class FileFacts {
  private readonly byName: ReadonlyMap<string, readonly DirectiveFact[]>;

  private constructor(byName: ReadonlyMap<string, readonly DirectiveFact[]>) {
    this.byName = byName.size === 0 ? NO_FACTS : byName;
  }

  /** Facts of every directive (any depth, in file order) named one of `names`; `<Directory` gives the section's arguments. */
  get(...names: string[]): DirectiveFact[] {
    if (names.length === 1) return [...(this.byName.get(names[0].toLowerCase()) ?? [])];
    const lists: (readonly DirectiveFact[])[] = [];
    for (const name of names) {
      const list = this.byName.get(name.toLowerCase());
      if (list) lists.push(list);
    }
    // most files hold none of the names, or one of them: nothing to merge
    if (lists.length <= 1) return lists.length === 0 ? [] : [...lists[0]];
    return lists.flat().sort((a, b) => a.line - b.line);
  }

  /**
   * The facts of a file's text, as `of(parse(text))` finds them, without building its tree: a
   * line's kind does not depend on the lines around it, so each line is looked at alone, and
   * only lines that can be one of the wanted names are read further. Planning a fleet reads every
   * file this way.
   */
  static scan(text: string): FileFacts {
    const byName = new Map<string, DirectiveFact[]>();
    const at = new LineCursor(text);
    while (at.next()) {
      if (at.kind === 'directive') {
        // a lower-case letter for a letter; nothing else maps onto one
        if (!FIRST_LETTERS.has(text.charCodeAt(at.first) | 0x20)) continue;
        const nameEnd = bareNameEnd(text, at.first, at.end);
        if (nameEnd !== -1 && (!WANTED_LENGTHS.has(nameEnd - at.first) || !WANTED.has(text.slice(at.first, nameEnd).toLowerCase()))) continue;
        const d = new Directive(text.slice(at.start, at.end), at.line);
        if (WANTED.has(d.lowerName)) addFact(byName, d.lowerName, d.values, at.line);
      } else if (at.kind === 'open') {
        const c = at.first + 1 < at.end ? text.charCodeAt(at.first + 1) : -1;
        if ((c | 0x20) !== D && c !== BACKSLASH) continue; // a tag name may start after a continuation
        const open = new SectionOpen(text.slice(at.start, at.end), at.line);
        if (isTag(open) && open.lowerName === 'directory') addFact(byName, '<directory', open.values, at.line);
      } else if (at.kind === 'comment') {
        MAY_BE_INCLUDE.lastIndex = at.first + 1;
        if (!MAY_BE_INCLUDE.test(text)) continue;
        const body = text.slice(at.first + 1, at.end);
        const m = COMMENTED_INCLUDE_LINE.exec(body.replace(/\r?\n$/, ''));
        if (m) addFact(byName, COMMENTED_INCLUDE, [m[1].replace(/^"(.*)"$/, '$1')], at.line);
      }
    }
    return new FileFacts(byName);
  }

  static of(tree: Container): FileFacts {
    const byName = new Map<string, DirectiveFact[]>();
    for (const node of walk(tree)) {
      if (node.kind === 'directive') {
        const name = node.name.toLowerCase();
        if (WANTED.has(name)) addFact(byName, name, node.values, node.line);
      } else if (node.kind === 'section' && node.name.toLowerCase() === 'directory') {
        addFact(byName, '<directory', node.values, node.line);
      } else if (node.kind === 'comment') {
        const m = COMMENTED_INCLUDE_LINE.exec(node.text);
        if (m) addFact(byName, COMMENTED_INCLUDE, [m[1].replace(/^"(.*)"$/, '$1')], node.line);
      }
    }
    return new FileFacts(byName);
  }
}
