/**
 * What the model reads from a PCRE pattern (LocationMatch, AliasMatch, RedirectMatch, RewriteRule,
 * ProxyPassMatch, DirectoryMatch) without running it: whether it is anchored, the literal text every
 * match starts with, and whether what follows the literal accepts anything (so the pattern matches
 * exactly the strings starting with the literal). Anything it does not recognise makes the reading
 * wider (shorter literal, unanchored), never narrower.
 */

export interface RegexShape {
  /** Starts with `^` and has no top-level alternation. */
  readonly anchored: boolean;
  /** Text every match starts with (only meaningful when anchored); cut before the first letter when case-insensitive. */
  readonly literal: string;
  /**
   * What follows the literal: `any` — nothing, `.*`, `(.*)`, `(?:.*)`, with or without a final `$` (matches every
   * string starting with the literal); `seg` — `(/.*)?`, `(?:/.*)?`, with or without `$` (the literal alone or
   * followed by `/…`); `other` — anything else.
   */
  readonly tail: 'any' | 'seg' | 'other';
  /** The raw text after the literal. */
  readonly rest: string;
  /** Contains `$` outside a class (2.2 matched DirectoryMatch with REG_NOTEOL: such `$` never matched). */
  readonly dollar: boolean;
}

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

/**
 * Walks a pattern's characters outside escapes and character classes (`[^]x]` and `[]x]` included), until
 * `visit` returns true; returns whether it did.
 */
function scan(source: string, visit: (c: string, i: number) => boolean | void): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      if (source[i + 1] === ']') i++;
      continue;
    }
    if (visit(c, i)) return true;
  }
  return false;
}

/** Whether `|` occurs outside parentheses and classes. */
function topLevelAlternation(source: string): boolean {
  let depth = 0;
  return scan(source, (c) => {
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else return c === '|' && depth === 0;
  });
}

/** Whether `$` occurs outside escapes and classes (the same question transforms/directory-match-subdirectories.ts asks). */
export function hasDollar(source: string): boolean {
  return scan(source, (c) => c === '$');
}

// 2.4 compiles every pattern with DOTALL and DOLLAR_ENDONLY (AP_REG_DEFAULT, since 2.4.42; measured on
// 2.4.71: `^/rm(.*)$` matches `/rm%0Ax`), so `(.*)$` accepts every rest; 2.2 did not, which only matters to
// rules that capture URLs, and regex rules never do on 2.2 (see alias-rules.ts)
const ANY_TAILS = new Set(['', '.*', '(.*)', '(?:.*)', '.*?', '(.*?)', '.*$', '(.*)$', '(?:.*)$']);
const SEG_TAILS = new Set(['(/.*)?', '(?:/.*)?', '(/.*)?$', '(?:/.*)?$']);

export function regexShape(source: string): RegexShape {
  let s = source;
  let caseless = false;
  const flags = /^\(\?([a-zA-Z]+)\)/.exec(s);
  if (flags) {
    caseless = flags[1].includes('i');
    s = s.slice(flags[0].length);
  }
  const dollar = hasDollar(s);
  if (!s.startsWith('^') || topLevelAlternation(s)) return { anchored: false, literal: '', tail: 'other', rest: s, dollar };
  let i = 1;
  let literal = '';
  let lastStart = -1;
  while (i < s.length) {
    const c = s[i];
    let ch: string;
    let next: number;
    if (c === '\\') {
      const e = s[i + 1];
      if (e === undefined || /[0-9A-Za-z]/.test(e)) break; // \d \w \b \A \1 …: not a literal
      ch = e;
      next = i + 2;
    } else if (META.has(c)) break;
    else {
      ch = c;
      next = i + 1;
    }
    const q = s[next];
    if (q === '?' || q === '*' || q === '{') break; // this character is optional or counted: the literal ends before it
    lastStart = i;
    literal += ch;
    i = next;
    if (q === '+') break; // at least one: keep it, but what follows is no longer literal
  }
  let rest = s.slice(i);
  if (s[i] === '+' && lastStart >= 0) rest = s.slice(lastStart); // `a+…` reads as the literal then `a*…`: not a known tail
  if (caseless) {
    const letter = literal.search(/[A-Za-z]/);
    if (letter >= 0) {
      literal = literal.slice(0, letter);
      rest = '\u0000'; // forces `other`
    }
  }
  const tail = ANY_TAILS.has(rest) ? 'any' : SEG_TAILS.has(rest) && !literal.endsWith('/') ? 'seg' : 'other';
  return { anchored: true, literal, tail, rest, dollar };
}

/** The sources of the capturing groups, in order (`(?:`, look-arounds are skipped; named groups count). */
export function capturingGroups(source: string): string[] {
  const groups: { start: number; end: number }[] = [];
  const stack: { start: number; capturing: boolean }[] = [];
  scan(source, (c, i) => {
    if (c === '(') {
      const capturing = source[i + 1] !== '?' || /^\?(P?<[A-Za-z_]|')/.test(source.slice(i + 1));
      stack.push({ start: i, capturing });
      if (capturing) groups.push({ start: i, end: -1 });
    } else if (c === ')') {
      const open = stack.pop();
      const g = open?.capturing ? groups.find((x) => x.start === open.start) : undefined;
      if (g) g.end = i;
    }
  });
  return groups.map((g) => (g.end < 0 ? '' : source.slice(g.start + 1, g.end).replace(/^\?(P?<[A-Za-z_][A-Za-z0-9_]*>|'[A-Za-z_][A-Za-z0-9_]*')/, '')));
}

/**
 * Splits a substitution (`/srv/x$1`, ap_pregsub syntax: `$0`–`$9`, `&` for the whole match, `\` escapes)
 * into its literal text before the first reference, and that reference's number (null when there is none).
 */
export function substitutionHead(target: string): { literal: string; ref: number | null; rest: string } {
  let literal = '';
  for (let i = 0; i < target.length; i++) {
    const c = target[i];
    if (c === '\\' && i + 1 < target.length && (target[i + 1] === '$' || target[i + 1] === '&' || target[i + 1] === '\\')) {
      literal += target[++i];
      continue;
    }
    if (c === '&') return { literal, ref: 0, rest: target.slice(i + 1) };
    if (c === '$' && /[0-9]/.test(target[i + 1] ?? '')) return { literal, ref: Number(target[i + 1]), rest: target.slice(i + 2) };
    literal += c;
  }
  return { literal, ref: null, rest: '' };
}

/** A group's source starts with a literal `/` (so `$n` is empty only when the group did not take part). */
export function groupStartsWithSlash(group: string): boolean {
  return (group.startsWith('/') || group.startsWith('\\/')) && !topLevelAlternation(group);
}
