// Upgrade note "Misc: Options with a mix of +/- and bare options is a syntax error".
//
// 2.2 (server/core.c set_options): the FIRST bare word on the line resets the set to None
// (the line becomes absolute); every bare word then adds its bits; `+X` adds X to the set and
// to opts_add, `-X` removes X from the set and adds it to opts_remove. When the line holds a bare
// word, merging copies the set as it is: a `+X` before the first bare word is lost for this
// directory (opts_add still carries it into children whose own Options are all +/-), and `None`
// or `All` may stand anywhere (`Options Indexes None` = Indexes).
// 2.4.71 refuses a signed word after a bare one (unless the bare one is a leading None/All), a
// bare word after a signed one, None/All that are not first, and +/-All, +/-None.
// A refused line is rewritten to the 2.4 line with the same effect: all bare words when it had a
// bare word (exact when its +X are in the result and its -X are not, so children that add or
// remove options inherit the same), or the +/- words without ±None / with -All spelled out.
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

const IDX = 1;
const INC = 2;
const SYM = 4;
const EXEC = 8;
const NOEXEC = 16; // 2.2's OPT_INCNOEXEC
const MULTI = 32;
const OWNER = 64;
const ALL = IDX | INC | SYM | EXEC; // 2.2's OPT_ALL

const BITS22: Record<string, number> = {
  indexes: IDX,
  includes: INC,
  includesnoexec: INC | NOEXEC,
  followsymlinks: SYM,
  symlinksifownermatch: OWNER,
  execcgi: EXEC,
  multiviews: MULTI,
  runscripts: MULTI | EXEC,
  none: 0,
  all: ALL,
};

interface Word {
  readonly sign: '' | '+' | '-';
  /** As written, without the sign. */
  readonly name: string;
  readonly key: string;
}

function split(values: readonly string[]): Word[] | null {
  const words: Word[] = [];
  for (const v of values) {
    const sign = v.startsWith('+') || v.startsWith('-') ? (v[0] as '+' | '-') : '';
    const name = sign ? v.slice(1) : v;
    const key = name.toLowerCase();
    if (!(key in BITS22)) return null; // illegal in 2.2 and 2.4 alike: not ours
    words.push({ sign, name, key });
  }
  return words.length > 0 ? words : null;
}

interface State22 {
  readonly absolute: boolean;
  readonly opts: number;
  readonly add: number;
  readonly remove: number;
}

/** 2.2's set_options, from an unset directory config. */
function run22(words: readonly Word[]): State22 {
  let absolute = false;
  let opts = 0;
  let add = 0;
  let remove = 0;
  for (const w of words) {
    const opt = BITS22[w.key];
    if (w.sign === '' && !absolute) {
      absolute = true;
      opts = 0;
    }
    if (w.sign === '-') {
      remove |= opt;
      add &= ~opt;
      opts &= ~opt;
    } else if (w.sign === '+') {
      add |= opt;
      remove &= ~opt;
      opts |= opt;
    } else {
      opts |= opt;
    }
  }
  return { absolute, opts, add, remove };
}

/** Whether 2.4.71 accepts the words (measured rules, see the header). */
function accepted24(words: readonly Word[]): boolean {
  let first = true;
  let merge = false;
  let allNone = false;
  for (const w of words) {
    if (w.sign !== '') {
      if (!merge && !first && !allNone) return false;
      merge = true;
    } else if (!first && merge) {
      return false;
    }
    if (w.key === 'none' || w.key === 'all') {
      if (!first || merge) return false;
      allNone = true;
    }
    first = false;
  }
  return true;
}

/** 2.4 bits: the SSI state is Includes (with exec), IncludesNOEXEC, or none. */
const SSI_FULL = 128;
const BITS24: Record<string, number> = {
  indexes: IDX,
  includes: INC | SSI_FULL,
  includesnoexec: INC,
  followsymlinks: SYM,
  symlinksifownermatch: OWNER,
  execcgi: EXEC,
  multiviews: MULTI,
  runscripts: MULTI | EXEC,
};

/** The 2.4 set equivalent to a 2.2 set (INC+NOEXEC = IncludesNOEXEC; INC alone = Includes). */
function to24(opts22: number): number {
  let out = opts22 & (IDX | SYM | OWNER | EXEC | MULTI);
  if (opts22 & INC) out |= opts22 & NOEXEC ? INC : INC | SSI_FULL;
  return out;
}

function bare24(names: readonly string[]): number {
  return names.reduce((acc, n) => acc | (BITS24[n.toLowerCase()] ?? 0), 0);
}

function canonical(target: number): string[] {
  const out: string[] = [];
  if (target & IDX) out.push('Indexes');
  if (target & INC) out.push(target & SSI_FULL ? 'Includes' : 'IncludesNOEXEC');
  if (target & SYM) out.push('FollowSymLinks');
  if (target & OWNER) out.push('SymLinksIfOwnerMatch');
  if (target & EXEC) out.push('ExecCGI');
  if (target & MULTI) out.push('MultiViews');
  return out.length > 0 ? out : ['None'];
}

/**
 * `edits` holds, per argument, undefined to keep it, its new text, or null to drop it; without
 * edits, `words` replaces every argument. `words` is the resulting option list.
 */
type Plan =
  | { readonly words: string[]; readonly canonical: boolean; readonly edits: (string | null | undefined)[] | null }
  | { readonly reason: string };

/** The 2.4 words for a line 2.4 refuses, or why there are none. */
export function planOptions(values: readonly string[]): Plan | null {
  const words = split(values);
  if (!words || accepted24(words)) return null;
  const state = run22(words);
  if (!state.absolute) {
    // only +/- words: drop ±None (no effect in 2.2), spell out -All; +All changes meaning
    if (words.some((w) => w.key === 'all' && w.sign === '+')) {
      return { reason: "2.2's +All added Includes without touching an inherited IncludesNOEXEC; 2.4's +Includes would allow exec" };
    }
    const out: string[] = [];
    const edits: (string | null | undefined)[] = [];
    for (const w of words) {
      if (w.key === 'none') {
        edits.push(null);
      } else if (w.key === 'all') {
        out.push('-Indexes', '-Includes', '-FollowSymLinks', '-ExecCGI');
        edits.push('-Indexes -Includes -FollowSymLinks -ExecCGI');
      } else {
        out.push(w.sign + w.name);
        edits.push(undefined); // unchanged
      }
    }
    if (out.length === 0) return { reason: 'the line has no effect in 2.2 (only +None/-None); remove it' };
    return { words: out, canonical: false, edits };
  }
  if ((state.add & ~state.opts) !== 0) {
    return {
      reason:
        'a +option before the first bare option had no effect on this directory in 2.2, but was still added ' +
        'for subdirectories whose own Options are all +/-; 2.4 has no line with that effect',
    };
  }
  if ((state.remove & state.opts) !== 0) {
    return { reason: 'an option both removed with - and set by a later bare word: subdirectories would differ' };
  }
  if ((state.opts & NOEXEC) !== 0 && (state.opts & INC) === 0) {
    return { reason: 'IncludesNOEXEC was half removed (-Includes): subdirectories that add +Includes would differ' };
  }
  const target = to24(state.opts);
  const kept: string[] = [];
  const edits: (string | null | undefined)[] = [];
  for (const w of words) {
    const bits = BITS24[w.key] ?? -1;
    const fits =
      bits !== -1 &&
      (w.key === 'includes' || w.key === 'includesnoexec' ? (target & (INC | SSI_FULL)) === bits : (bits & ~target) === 0);
    if (fits && !kept.some((k) => k.toLowerCase() === w.key)) {
      kept.push(w.name);
      edits.push(w.sign === '' ? undefined : w.name);
    } else {
      edits.push(null);
    }
  }
  if (kept.length > 0 && bare24(kept) === target) return { words: kept, canonical: false, edits };
  return { words: canonical(target), canonical: true, edits: null };
}

/**
 * Rewrites arguments in place: `undefined` keeps one as written, a string replaces it, null drops
 * it with the blanks before it (after it, for the first). Blanks, continuations and the line's
 * tail stay as they were.
 */
function editWords(d: Directive, edits: readonly (string | null | undefined)[]): void {
  const args = d.args;
  const raw = d.raw;
  const firstKept = edits.findIndex((e) => e !== null);
  let out = raw.slice(0, args[0].start);
  for (let i = 0; i < args.length; i++) {
    const edit = edits[i];
    if (edit === null) continue;
    // the blanks before a kept word: the ones that preceded it, unless it is now the first
    if (i !== firstKept) out += raw.slice(args[i - 1].end, args[i].start);
    out += edit === undefined ? args[i].raw : edit;
  }
  out += raw.slice(args[args.length - 1].end);
  d.raw = out;
}

function describe(values: readonly string[]): string {
  return `Options ${values.join(' ')}`;
}

export const optionsMixedSigns: Transform = {
  id: 'options-mixed-signs',
  title: 'Fix Options lines that mix +/- and bare options',
  row: 'Misc: Options with a mix of +/- and bare options is a syntax error',
  order: 520,
  applyFile(tree, ctx) {
    const htaccess = ctx.file?.role === 'htaccess';
    for (const d of directives(tree, 'Options')) {
      if (isTwoTwoOnly(d)) continue;
      rewrite(d);
    }

    function rewrite(d: Directive): void {
      const values = d.values;
      const plan = planOptions(values);
      if (plan === null) return;
      if ('reason' in plan) {
        ctx.note(d, 'options-mixed-signs-manual', `${describe(values)} is refused by 2.4 and was left as it is: ${plan.reason}`, 'manual');
        return;
      }
      if (plan.edits) editWords(d, plan.edits);
      else d.setArgs(plan.words);
      const review = htaccess && plan.canonical;
      ctx.note(
        d,
        'options-signs-normalized',
        `${describe(values)} (refused by 2.4) rewritten as ${describe(plan.words)}, which is what 2.2 did with it` +
          (review ? '; check that AllowOverride Options=… on this directory allows each of these options' : ''),
        review ? 'review' : 'info',
      );
    }
  },
};
