/**
 * Token scanning inside one logical line, the way httpd reads it.
 *
 * httpd joins a physical line ending in `\` + `[\r]\n` with the next one
 * (ap_cfg_getline_core), then splits words with ap_getword_conf: a word that
 * starts with `"` or `'` runs to the matching quote (`\"` and `\\` are escapes
 * inside it), any other word runs to the next white space. httpd 2.4 then turns
 * `\\` into `\` in every word, and `\"` into `"` in a `"`-quoted word
 * (substring_conf; checked against httpd 2.4.71). We scan the raw text
 * directly and treat a continuation sequence as invisible, so every offset
 * points into the raw line.
 */

export interface Word {
  /** Offset of the first raw character of the word (the quote, if quoted). */
  readonly start: number;
  /** Offset just past the word's last raw character. */
  readonly end: number;
  /** The raw text, quotes, escapes and continuations included. */
  readonly raw: string;
  /** The value httpd 2.4 sees: quotes removed, `\"` and `\\` unescaped, continuations removed. */
  readonly value: string;
  /** The quote character, or '' for a bare word. */
  readonly quote: '' | '"' | "'";
}

/** Length of a continuation sequence (`\` + `\n` or `\` + `\r\n`) at `i`, else 0. */
export function continuationAt(text: string, i: number): number {
  if (text.charCodeAt(i) !== 92 /* \ */) return 0;
  const next = text.charCodeAt(i + 1);
  if (next === 10) return 2;
  if (next === 13 && text.charCodeAt(i + 2) === 10) return 3;
  return 0;
}

/** apr_isspace: space, \t, \n, \v, \f, \r. */
export function isSpaceCode(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Skips white space and continuation sequences from `i`, never past `end`. */
export function skipSpace(text: string, i: number, end: number): number {
  while (i < end) {
    const cont = continuationAt(text, i);
    if (cont > 0) {
      i += cont;
      continue;
    }
    if (!isSpaceCode(text.charCodeAt(i))) break;
    i++;
  }
  return i;
}

/** Removes continuation sequences from a raw span. */
export function stripContinuations(raw: string): string {
  return raw.indexOf('\\') === -1 ? raw : raw.replace(/\\\r?\n/g, '');
}

/**
 * Scans one word starting at `i` (which must not be white space).
 * `stopAt` is an extra character code that ends a bare word (used for `>`
 * in section tags); -1 for none.
 */
export function scanWord(text: string, i: number, end: number, stopAt = -1): Word {
  const start = i;
  const first = text.charCodeAt(i);
  if (first === 34 /* " */ || first === 39 /* ' */) {
    const quote = first === 34 ? '"' : "'";
    let closed = false;
    i++;
    while (i < end) {
      const cont = continuationAt(text, i);
      if (cont > 0) {
        i += cont;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 92 && i + 1 < end && (text.charCodeAt(i + 1) === first || text.charCodeAt(i + 1) === 92)) {
        i += 2;
        continue;
      }
      i++;
      if (c === first) {
        closed = true;
        break;
      }
    }
    const raw = text.slice(start, i);
    const inner = stripContinuations(raw).slice(1, closed ? -1 : undefined);
    return { start, end: i, raw, value: unescape(inner, quote), quote };
  }
  i = bareWordEnd(text, i, end, stopAt);
  const raw = text.slice(start, i);
  return { start, end: i, raw, value: unescape(stripContinuations(raw), ''), quote: '' };
}

/** Where a word that does not start with a quote ends (see scanWord), without cutting it out. */
export function bareWordEnd(text: string, i: number, end: number, stopAt = -1): number {
  while (i < end) {
    const cont = continuationAt(text, i);
    if (cont > 0) {
      // a continuation joins the word only when the word goes on after it
      let j = i + cont;
      while (continuationAt(text, j) > 0) j += continuationAt(text, j);
      const next = text.charCodeAt(j);
      if (j >= end || isSpaceCode(next) || next === stopAt) break;
      i = j;
      continue;
    }
    const c = text.charCodeAt(i);
    if (isSpaceCode(c) || c === stopAt) break;
    i++;
  }
  return i;
}

/** Where the word at `i` ends (see scanWord); only a quoted word is scanned in full. */
export function wordEnd(text: string, i: number, end: number, stopAt = -1): number {
  const first = text.charCodeAt(i);
  return first === 34 /* " */ || first === 39 /* ' */ ? scanWord(text, i, end, stopAt).end : bareWordEnd(text, i, end, stopAt);
}

/** httpd 2.4's substring_conf: `\\` → `\` always, `\<quote>` → quote inside a quoted word. */
function unescape(text: string, quote: '' | '"' | "'"): string {
  if (text.indexOf('\\') === -1) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '\\' || (quote !== '' && text[i + 1] === quote))) {
      out += text[i + 1];
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * The values of the words of `text[i, end)`, as scanWords(…).map((w) => w.value) gives them, without
 * making a Word for each (most lines are only ever asked their values).
 */
export function scanValues(text: string, i: number, end: number): string[] {
  const values: string[] = [];
  i = skipSpace(text, i, end);
  while (i < end) {
    const first = text.charCodeAt(i);
    if (first === 34 /* " */ || first === 39 /* ' */) {
      const word = scanWord(text, i, end);
      values.push(word.value);
      i = skipSpace(text, word.end, end);
      continue;
    }
    const stop = bareWordEnd(text, i, end);
    values.push(unescape(stripContinuations(text.slice(i, stop)), ''));
    i = skipSpace(text, stop, end);
  }
  return values;
}

/** Splits `text[i, end)` into words. */
export function scanWords(text: string, i: number, end: number): Word[] {
  const words: Word[] = [];
  i = skipSpace(text, i, end);
  while (i < end) {
    const word = scanWord(text, i, end);
    words.push(word);
    i = skipSpace(text, word.end, end);
  }
  return words;
}

/**
 * Quotes a value for a directive argument when httpd would otherwise split or
 * alter it (white space, quotes, `\\`, a trailing `\` that would continue the
 * line). Inside the quotes, a `\` before `\`, `"` or the closing quote is doubled.
 */
export function quoteArg(value: string): string {
  if (value !== '' && !/[\s"']/.test(value) && !value.includes('\\\\') && !value.endsWith('\\')) return value;
  return '"' + value.replace(/\\(?=[\\"]|$)/g, '\\\\').replace(/"/g, '\\"') + '"';
}
