// Upgrade note "mod_filter: FilterProvider takes a boolean expression instead of dispatch and match".
//
// 2.2 (modules/filters/mod_filter.c, 2.2.15 and later, up to 2.2.34):
//   FilterProvider filter provider DISPATCH MATCH
// DISPATCH: `req=H` (request header), `resp=H` (response header, then err_headers_out),
// `env=V` (subprocess_env), `handler`, any other word = a response header; a response
// header named Content-Type means r->content_type. MATCH: a leading `!` negates; then
// `<N` `<=N` `>N` `>=N` `=N` integer comparisons of atoi(value), `/re/flags` a regex (ends at
// the LAST `/`; an `i` among the flags = caseless), `*` = the value exists, `$s` = the value
// contains s ignoring case, anything else = the value equals MATCH ignoring case (strcasecmp).
// An absent value never matches, so a negated MATCH always matches an absent value.
// 2.4 ap_expr reads an absent value as "": where the comparison could hold for "", the
// expression guards it with -n / -z so absent values keep their 2.2 outcome.
import { Directive, directives, quoteArg } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

type Mapped = { readonly expr: string; readonly notes: string[] } | { readonly error: string };

const NAME = /^[A-Za-z0-9._-]+$/;
const REGEX_DELIMITERS = ['#', '|', '!', '%', ',', ';', ':', '_', '^', '.', '-'];

/** The ap_expr variable for a 2.2 dispatch criterion, or an error. */
function variableFor(dispatch: string): { variable: string; note?: string } | { error: string } {
  const eq = dispatch.indexOf('=');
  let kind: 'req' | 'resp' | 'env' | 'handler';
  let name: string;
  if (eq !== -1) {
    const prefix = dispatch.slice(0, eq + 1).toLowerCase();
    if (prefix === 'env=') kind = 'env';
    else if (prefix === 'req=') kind = 'req';
    else if (prefix === 'resp=') kind = 'resp';
    else return { error: `unknown dispatch "${dispatch}" (2.2 refused it too)` };
    name = dispatch.slice(eq + 1);
  } else if (dispatch.toLowerCase() === 'handler') {
    return { variable: '%{HANDLER}' };
  } else {
    kind = 'resp';
    name = dispatch;
  }
  if (kind === 'resp' && name.toLowerCase() === 'content-type') return { variable: '%{CONTENT_TYPE}' };
  if (!NAME.test(name)) return { error: `the name "${name}" cannot be written in an ap_expr variable` };
  if (kind === 'env') return { variable: `%{reqenv:${name}}` };
  if (kind === 'req') {
    return {
      variable: `%{req:${name}}`,
      note: `2.4 adds "${name}" to the Vary response header when it reads it (use %{req_novary:${name}} to avoid that)`,
    };
  }
  return { variable: `%{resp:${name}}` };
}

/** glibc atoi on a clean integer; null when 2.2 would have read something odd or out of int range. */
function integer(text: string): number | null {
  if (!/^[+-]?\d+$/.test(text)) return null;
  const n = Number.parseInt(text, 10);
  return n >= -2147483648 && n <= 2147483647 ? n : null;
}

/** A '…' ap_expr string literal holding `text` exactly. */
function stringLiteral(text: string): string | null {
  // control characters are refused inside ap_expr strings
  if (/[\x00-\x1f\x7f]/.test(text)) return null;
  return `'${text.replace(/[\\'%$]/g, (c) => `\\${c}`)}'`;
}

function regexLiteral(source: string, caseless: boolean): string | null {
  if (/[\x00-\x1f\x7f]/.test(source)) return null;
  const flags = caseless ? 'i' : '';
  if (!source.includes('/')) return `/${source}/${flags}`;
  const delimiter = REGEX_DELIMITERS.find((d) => !source.includes(d));
  return delimiter === undefined ? null : `m${delimiter}${source}${delimiter}${flags}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Whether a regex may match the empty string (unknown syntax counts as "may"). */
function mayMatchEmpty(source: string, caseless: boolean): boolean {
  try {
    return new RegExp(source, caseless ? 'i' : '').test('');
  } catch {
    return true;
  }
}

const INT_OPS: Record<string, [string, string, (a: number, b: number) => boolean]> = {
  // 2.2 prefix: [2.4 operator, negated operator, the comparison]
  '<': ['-lt', '-ge', (a, b) => a < b],
  '<=': ['-le', '-gt', (a, b) => a <= b],
  '>': ['-gt', '-le', (a, b) => a > b],
  '>=': ['-ge', '-lt', (a, b) => a >= b],
  '=': ['-eq', '-ne', (a, b) => a === b],
};

export function mapFilterProvider(dispatch: string, matchArg: string): Mapped {
  const target = variableFor(dispatch);
  if ('error' in target) return { error: target.error };
  const v = target.variable;
  const notes = target.note ? [target.note] : [];
  let match = matchArg;
  const negated = match.startsWith('!');
  if (negated) match = match.slice(1);
  if (match === '') return { error: 'the match is empty' };

  // comparison and its negation on a present value, and whether it could hold for ""
  let positive: string;
  let negative: string;
  let holdsForEmpty: boolean;
  const intOp = /^(<=|>=|<|>|=)/.exec(match);
  if (intOp) {
    const n = integer(match.slice(intOp[1].length));
    if (n === null) return { error: `"${match}" is not a plain integer comparison` };
    const [op, notOp, compare] = INT_OPS[intOp[1]];
    positive = `${v} ${op} ${n}`;
    negative = `${v} ${notOp} ${n}`;
    holdsForEmpty = compare(0, n);
  } else if (match.startsWith('/')) {
    const end = match.lastIndexOf('/');
    if (end === 0) return { error: 'the regex has no closing "/" (2.2 refused it)' };
    const source = match.slice(1, end);
    const caseless = match.slice(end + 1).includes('i');
    const literal = regexLiteral(source, caseless);
    if (literal === null) return { error: 'the regex cannot be written as an ap_expr regex literal' };
    positive = `${v} =~ ${literal}`;
    negative = `${v} !~ ${literal}`;
    holdsForEmpty = mayMatchEmpty(source, caseless);
  } else if (match === '*') {
    return { expr: negated ? `-z ${v}` : `-n ${v}`, notes };
  } else if (match.startsWith('$')) {
    const needle = match.slice(1).toLowerCase();
    if (needle === '') return { expr: negated ? `-z ${v}` : `-n ${v}`, notes };
    const literal = regexLiteral(escapeRegex(needle), /[a-z]/.test(needle));
    if (literal === null) return { error: 'the substring cannot be written as an ap_expr regex' };
    positive = `${v} =~ ${literal}`;
    negative = `${v} !~ ${literal}`;
    holdsForEmpty = false;
  } else {
    const lower = match.toLowerCase();
    const literal = stringLiteral(/[a-z]/.test(lower) ? lower : match);
    if (literal === null) return { error: 'the value cannot be written as an ap_expr string' };
    const subject = /[a-z]/.test(lower) ? `tolower(${v})` : v;
    positive = `${subject} == ${literal}`;
    negative = `${subject} != ${literal}`;
    holdsForEmpty = false;
  }
  if (!negated) return { expr: holdsForEmpty ? `-n ${v} && ${positive}` : positive, notes };
  return { expr: holdsForEmpty ? `-z ${v} || ${negative}` : negative, notes };
}

/** Puts the expression where the dispatch and match words stood; every other byte stays. */
function replaceDispatchAndMatch(d: Directive, expr: string): void {
  const args = d.args;
  const raw = d.raw;
  d.raw = raw.slice(0, args[2].start) + quoteArg(expr) + raw.slice(args[3].end);
}

function migrate(d: Directive): Mapped | null {
  const values = d.values;
  if (values.length !== 4) return null;
  return mapFilterProvider(values[2], values[3]);
}

export const filterProviderExpression: Transform = {
  id: 'filter-provider-expression',
  title: 'Rewrite the old FilterProvider syntax as a 2.4 expression',
  row: 'mod_filter: FilterProvider takes a boolean expression instead of dispatch and match',
  order: 500,
  triggers: { directives: ['FilterProvider'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'FilterProvider')) {
      if (isTwoTwoOnly(d)) continue;
      const mapped = migrate(d);
      if (mapped === null) continue;
      const [name, provider, dispatch, match] = d.values;
      if ('error' in mapped) {
        ctx.note(
          d,
          'filter-provider-manual',
          `FilterProvider ${name} ${provider} ${dispatch} ${match} was left as it is: ${mapped.error}. ` +
            `2.4 takes one expression instead: FilterProvider ${name} ${provider} "<ap_expr>"`,
          'manual',
        );
        continue;
      }
      replaceDispatchAndMatch(d, mapped.expr);
      ctx.note(
        d,
        'filter-provider-expression',
        `FilterProvider ${dispatch} ${match} rewritten as the expression ${mapped.expr}` +
          (mapped.notes.length > 0 ? `; ${mapped.notes.join('; ')}` : ''),
        'info',
      );
    }
  },
};
