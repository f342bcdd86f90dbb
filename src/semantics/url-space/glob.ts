/**
 * fnmatch patterns as httpd uses them for wildcard `<Directory>` and `<Location>` paths
 * (apr_fnmatch with APR_FNM_PATHNAME): `*` any run, `?` one character, `[…]` a class (`!` or `^`
 * negates, ranges), `\` escapes; no wildcard ever matches `/`, so a path pattern is matched one
 * component at a time. These functions take ONE component (no `/`).
 */

type Token = { readonly t: 'lit'; readonly c: string } | { readonly t: 'one' } | { readonly t: 'star' } | { readonly t: 'class'; readonly test: (c: string) => boolean };

/** Whether httpd treats a path as a pattern (apr_fnmatch_test: `?`, `*`, or `[` closed by `]`; `\` escapes). */
export function hasWildcard(pattern: string): boolean {
  let open = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '?' || c === '*') return true;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') open = true;
    else if (c === ']' && open) return true;
  }
  return false;
}

/** The pattern's characters before its first wildcard, unescaped. */
export function literalHead(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '?' || c === '*' || c === '[') return out;
    if (c === '\\' && i + 1 < pattern.length) {
      out += pattern[++i];
      continue;
    }
    out += c;
  }
  return out;
}

function parseClass(p: string, start: number): { test: (c: string) => boolean; end: number } | null {
  let i = start + 1;
  let negate = false;
  if (p[i] === '!' || p[i] === '^') {
    negate = true;
    i++;
  }
  const ranges: [string, string][] = [];
  let first = true;
  while (i < p.length && (p[i] !== ']' || first)) {
    first = false;
    let lo = p[i];
    if (lo === '\\' && i + 1 < p.length) lo = p[++i];
    let hi = lo;
    if (p[i + 1] === '-' && i + 2 < p.length && p[i + 2] !== ']') {
      hi = p[i + 2];
      if (hi === '\\' && i + 3 < p.length) {
        hi = p[i + 3];
        i++;
      }
      i += 2;
    }
    ranges.push([lo, hi]);
    i++;
  }
  if (i >= p.length) return null; // no closing bracket: `[` is literal
  const test = (c: string) => ranges.some(([lo, hi]) => c >= lo && c <= hi) !== negate;
  return { test, end: i };
}

function tokenize(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') {
      if (out[out.length - 1]?.t !== 'star') out.push({ t: 'star' });
    } else if (c === '?') out.push({ t: 'one' });
    else if (c === '[') {
      const cls = parseClass(pattern, i);
      if (cls) {
        out.push({ t: 'class', test: cls.test });
        i = cls.end;
      } else out.push({ t: 'lit', c });
    } else if (c === '\\' && i + 1 < pattern.length) out.push({ t: 'lit', c: pattern[++i] });
    else out.push({ t: 'lit', c });
  }
  return out;
}

/** NFA states (token positions) reachable after reading `text`; star positions are closed over. */
function statesAfter(tokens: readonly Token[], text: string): Set<number> {
  const close = (set: Set<number>) => {
    for (const i of [...set]) {
      let j = i;
      while (j < tokens.length && tokens[j].t === 'star') set.add(++j);
    }
    return set;
  };
  let states = close(new Set([0]));
  for (const c of text) {
    const next = new Set<number>();
    for (const i of states) {
      const tok = tokens[i];
      if (!tok) continue;
      if (tok.t === 'star') next.add(i);
      else if (tok.t === 'one' || (tok.t === 'lit' && tok.c === c) || (tok.t === 'class' && tok.test(c))) next.add(i + 1);
    }
    states = close(next);
    if (states.size === 0) break;
  }
  return states;
}

/** fnmatch(pattern, name) for one component. */
export function globMatch(pattern: string, name: string): boolean {
  const tokens = tokenize(pattern);
  return statesAfter(tokens, name).has(tokens.length);
}

/** Some name starting with `prefix` matches (classes are assumed non-empty). */
export function globPrefixFeasible(pattern: string, prefix: string): boolean {
  return statesAfter(tokenize(pattern), prefix).size > 0;
}

/**
 * Every name starting with `prefix` matches. Sufficient test (a state whose rest is all `*`), exact for the
 * patterns configs use; when it answers false for a pattern with wildcards, the caller treats the answer as approximate.
 */
export function globMatchesAllWithPrefix(pattern: string, prefix: string): boolean {
  const tokens = tokenize(pattern);
  for (const i of statesAfter(tokens, prefix)) {
    if (i < tokens.length && tokens.slice(i).every((t) => t.t === 'star')) return true;
  }
  return false;
}

/** Every non-empty name matches (`*`, or `?` with stars). */
export function globMatchesEveryName(pattern: string): boolean {
  const tokens = tokenize(pattern);
  const ones = tokens.filter((t) => t.t === 'one').length;
  return tokens.every((t) => t.t === 'star' || t.t === 'one') && ones <= 1 && tokens.some((t) => t.t === 'star');
}
