// Upgrade note "Misc: Options with a mix of +/- and bare options is a syntax error".
//
// 2.2 (server/core.c set_options): the FIRST bare word on the line resets the set to None
// (the line becomes absolute); every bare word then adds its bits; `+X` adds X to the set and
// to opts_add, `-X` removes X from the set and adds it to opts_remove. When the line holds a bare
// word, merging copies the set as it is: a `+X` before the first bare word is lost for this
// directory (opts_add still carries it into children whose own Options are all +/-), and `None`
// or `All` may stand anywhere (`Options Indexes None` = Indexes).
// The option bits are those of 2.2.12 and later (CVE-2009-1195 fix, also backported by
// distributions to older 2.2 packages), which 2.4 keeps: Includes = OPT_INCLUDES|OPT_INC_WITH_EXEC,
// IncludesNOEXEC = OPT_INCLUDES, All = Indexes|Includes|FollowSymLinks|ExecCGI (with #exec, without
// MultiViews and SymLinksIfOwnerMatch), and the merge drops INC_WITH_EXEC when the parent had
// Includes and the child's own +/- line only IncludesNOEXEC. 2.2.0–2.2.11 had OPT_INCNOEXEC
// instead (IncludesNOEXEC = INCLUDES|INCNOEXEC, no exec whenever that bit is set), so a line naming
// both Includes and IncludesNOEXEC meant no #exec there and #exec since 2.2.12
// (`options-includes-noexec.ts` models both; its code is reused here).
// 2.4.71 refuses a signed word after a bare one (unless the bare one is a leading None/All), a
// bare word after a signed one, None/All that are not first, and +/-All, +/-None.
// A refused line is rewritten to the 2.4 line with the same effect under 2.2.12+: all bare words
// when it had a bare word (exact when its +X are in the result and its -X are not, so children
// that add or remove options inherit the same), or the +/- words without ±None and with ±All
// spelled out. Every rewrite is checked against the 2.2.12+ set_options/merge code below a set of
// parents and in subdirectories adding/removing each option: it must be exact in the directory and
// one level down; two levels down it may only grant less (the one case found: a `+Includes` kept in
// opts_add let 2.2.12+ restore #exec below a subdirectory's `+IncludesNOEXEC`, measured on 2.4 with
// `None +Indexes +Includes`; the plain `Indexes Includes` does not), and the finding names it.
// Where 2.2.0–2.2.11 read the original line differently (SSI #exec), the finding says so (review).
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import {
  BIT32,
  CGI,
  IDX,
  INC,
  MULTI,
  OPTIONS_NONE,
  OWNER,
  OptionsConf,
  SYM,
  Scheme,
  Ssi,
  UNSET,
  Word,
  accepted24,
  bitsOf,
  mergeOptions,
  setOptions22,
  splitOptions,
  ssiOf,
} from '../src/semantics/options22';
import { Transform } from './types';

/** OPT_INC_WITH_EXEC: the 2.2.12+ and 2.4 meaning of bit 32. */
const WITH_EXEC = BIT32;
/** The bits whose effect does not depend on the 2.2 release. */
const PLAIN = IDX | SYM | CGI | OWNER | MULTI;

/** An option word's bits as 2.2.12+ and 2.4 read it (the words reaching here are known ones). */
const bitsOf24 = (key: string): number => bitsOf(key, '2.2.12+') ?? 0;

/** ±All written out: 2.4 refuses `+All`/`-All`, and All is exactly these four (2.2.12+ and 2.4). */
const ALL_WORDS = ['Indexes', 'Includes', 'FollowSymLinks', 'ExecCGI'];

function canonical(target: number): string[] {
  const out: string[] = [];
  if (target & IDX) out.push('Indexes');
  if (target & INC) out.push(target & WITH_EXEC ? 'Includes' : 'IncludesNOEXEC');
  if (target & SYM) out.push('FollowSymLinks');
  if (target & OWNER) out.push('SymLinksIfOwnerMatch');
  if (target & CGI) out.push('ExecCGI');
  if (target & MULTI) out.push('MultiViews');
  return out.length > 0 ? out : ['None'];
}

// ---------------------------------------------------------------------------------------------
// Checking a rewrite: what a directory and its subdirectories get, below various parents.

/** Parents of the line (Options lines outermost first, below `Options None`): what a +/- line inherits. */
const PARENTS: readonly (readonly (readonly string[])[])[] = [
  [],
  [['IncludesNOEXEC']],
  [['Includes']],
  [['All']],
  [['Indexes', 'FollowSymLinks', 'SymLinksIfOwnerMatch', 'ExecCGI', 'MultiViews']],
  [['IncludesNOEXEC'], ['+Includes']],
  [['Includes'], ['+IncludesNOEXEC']],
  [['All'], ['-Includes']],
];

const NAMES = ['Indexes', 'Includes', 'IncludesNOEXEC', 'FollowSymLinks', 'SymLinksIfOwnerMatch', 'ExecCGI', 'MultiViews'];
/** Subdirectory lines: none, or one +X / -X (a bare line would replace everything). */
const CHILDREN: readonly (readonly string[] | null)[] = [null, ...NAMES.flatMap((n) => [[`+${n}`], [`-${n}`]])];

export interface Context {
  readonly parents: readonly (readonly string[])[];
  readonly child: readonly string[] | null;
  readonly grandchild: readonly string[] | null;
}

/** Every parent × child × grandchild, simplest first (the first difference found is the one reported). */
const CONTEXTS: readonly Context[] = PARENTS.flatMap((parents) =>
  CHILDREN.flatMap((child) => (child === null ? [null] : CHILDREN).map((grandchild) => ({ parents, child, grandchild }))),
)
  .map((c, i) => ({ c, i, weight: (c.grandchild ? 4 : 0) + (c.child ? 2 : 0) + (c.parents.length > 0 ? 1 : 0) }))
  .sort((a, b) => a.weight - b.weight || a.i - b.i)
  .map((x) => x.c);

export interface Outcome {
  /** The bits whose meaning is the same in every 2.2 release and in 2.4. */
  readonly plain: number;
  readonly ssi: Ssi;
}

function outcome(line: readonly string[], context: Context, scheme: Scheme): Outcome | null {
  let conf: OptionsConf = OPTIONS_NONE;
  const levels = [...context.parents, line, ...(context.child ? [context.child] : []), ...(context.grandchild ? [context.grandchild] : [])];
  for (const words of levels) {
    const own = setOptions22(words, scheme);
    if (!own) return null;
    conf = mergeOptions(conf, own, scheme);
  }
  return { plain: conf.opts & PLAIN, ssi: ssiOf(conf, scheme) };
}

const same = (a: Outcome | null, b: Outcome | null): boolean => a !== null && b !== null && a.plain === b.plain && a.ssi === b.ssi;

function where(context: Context): string {
  let text = 'in this directory';
  if (context.child && context.grandchild) {
    text = `two levels down, with Options ${context.child.join(' ')} then Options ${context.grandchild.join(' ')}`;
  } else if (context.child) {
    text = `in a subdirectory with Options ${context.child.join(' ')}`;
  }
  if (context.parents.length > 0) text += ` below ${context.parents.map((p) => `Options ${p.join(' ')}`).join(' then ')}`;
  return text;
}

const SSI_TEXT: Record<Ssi, string> = { off: 'no SSI', noexec: 'SSI without #exec', exec: 'SSI with #exec' };

/** A context where 2.2.12+ (and the 2.4 line) give the original line another meaning than 2.2.0–2.2.11 did. */
export function releaseDifference(original: readonly string[], rewritten: readonly string[]): string | null {
  for (const context of CONTEXTS) {
    const before = outcome(original, context, 'pre-2.2.12');
    const since = outcome(original, context, '2.2.12+');
    // a difference the rewritten line shows as well on 2.2.0–2.2.11 comes from the other lines (e.g.
    // 2.2.0–2.2.11's `+IncludesNOEXEC` below IncludesNOEXEC allowing #exec), not from this line
    if (!before || !since || same(before, since) || same(before, outcome(rewritten, context, 'pre-2.2.12'))) continue;
    return `${where(context)}: ${SSI_TEXT[before.ssi]} on 2.2.0–2.2.11, ${SSI_TEXT[since.ssi]} on 2.2.12+ and 2.4`;
  }
  return null;
}

const SSI_RANK: Record<Ssi, number> = { off: 0, noexec: 1, exec: 2 };

/** Whether `a` grants nothing that `b` does not. */
const within = (a: Outcome, b: Outcome): boolean => (a.plain & ~b.plain) === 0 && SSI_RANK[a.ssi] <= SSI_RANK[b.ssi];

/**
 * Whether the 2.4 line has the 2.2.12+ effect of the original: exactly in the directory and in
 * subdirectories with their own +/- line, below every parent; one level deeper it may only grant
 * less. Returns null when it does not, else the first deeper difference with both outcomes.
 */
export function compare(
  original: readonly string[],
  rewritten: readonly string[],
): { readonly deeper: { context: Context; before: Outcome; after: Outcome } | null } | null {
  let deeper: { context: Context; before: Outcome; after: Outcome } | null = null;
  for (const context of CONTEXTS) {
    const before = outcome(original, context, '2.2.12+');
    const after = outcome(rewritten, context, '2.2.12+');
    if (same(before, after)) continue;
    if (!before || !after || context.grandchild === null || !within(after, before)) return null;
    deeper ??= { context, before, after };
  }
  return { deeper };
}

function describeOutcome(o: Outcome): string {
  const names: string[] = [];
  if (o.plain & IDX) names.push('Indexes');
  if (o.plain & SYM) names.push('FollowSymLinks');
  if (o.plain & OWNER) names.push('SymLinksIfOwnerMatch');
  if (o.plain & CGI) names.push('ExecCGI');
  if (o.plain & MULTI) names.push('MultiViews');
  return [SSI_TEXT[o.ssi], ...names].join(', ');
}

// ---------------------------------------------------------------------------------------------

/**
 * `edits` holds, per argument, undefined to keep it, its new text, or null to drop it; without
 * edits, `words` replaces every argument. `words` is the resulting option list.
 */
type Plan =
  | { readonly words: string[]; readonly canonical: boolean; readonly edits: (string | null | undefined)[] | null }
  | { readonly reason: string };

function planWords(words: readonly Word[], values: readonly string[]): Plan {
  const state = setOptions22(values, '2.2.12+');
  if (!state) return { reason: 'an unknown option' }; // not reached: splitOptions() checked the words
  if (state.opts & UNSET) {
    // only +/- words: drop ±None (no effect in 2.2), spell out ±All, leaving out the options a
    // later word on the line adds or removes again (`+All -ExecCGI`: +ExecCGI -ExecCGI = -ExecCGI)
    const out: string[] = [];
    const edits: (string | null | undefined)[] = [];
    for (const [i, w] of words.entries()) {
      if (w.key === 'none') {
        edits.push(null);
      } else if (w.key === 'all') {
        const later = new Set(words.slice(i + 1).map((x) => x.key));
        const spelled = ALL_WORDS.filter((n) => !later.has(n.toLowerCase())).map((n) => w.sign + n);
        if (spelled.length === 0) {
          edits.push(null);
          continue;
        }
        out.push(...spelled);
        edits.push(spelled.join(' '));
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
  if ((state.opts & (INC | WITH_EXEC)) === WITH_EXEC) {
    return {
      reason:
        "Includes was half removed (-IncludesNOEXEC): 2.2.12+ kept Includes' #exec permission, so subdirectories adding " +
        '+IncludesNOEXEC got #exec; 2.4 has no line with that effect',
    };
  }
  const target = state.opts;
  const kept: string[] = [];
  const edits: (string | null | undefined)[] = [];
  for (const w of words) {
    const bits = w.key === 'none' || w.key === 'all' ? -1 : bitsOf24(w.key);
    const fits =
      bits !== -1 &&
      (w.key === 'includes' || w.key === 'includesnoexec' ? (target & (INC | WITH_EXEC)) === bits : (bits & ~target) === 0);
    if (fits && !kept.some((k) => k.toLowerCase() === w.key)) {
      kept.push(w.name);
      edits.push(w.sign === '' ? undefined : w.name);
    } else {
      edits.push(null);
    }
  }
  const keptBits = kept.reduce((acc, n) => acc | bitsOf24(n), 0);
  if (kept.length > 0 && keptBits === target) return { words: kept, canonical: false, edits };
  return { words: canonical(target), canonical: true, edits: null };
}

type Result =
  | {
      readonly words: string[];
      readonly canonical: boolean;
      readonly edits: (string | null | undefined)[] | null;
      /** How 2.2.0–2.2.11 read the original line differently, if they did. */
      readonly release: string | null;
      /** Where, deeper down, the 2.4 line grants less than 2.2.12+ did, if anywhere. */
      readonly deeper: string | null;
    }
  | { readonly reason: string };

/** The 2.4 words for a line 2.4 refuses (with how 2.2.0–2.2.11 differed, if they did), or why there are none. */
export function planOptions(values: readonly string[]): Result | null {
  const words = splitOptions(values);
  if (!words || accepted24(values)) return null;
  const plan = planWords(words, values);
  if ('reason' in plan) return plan;
  const check = accepted24(plan.words) ? compare(values, plan.words) : null;
  if (!check) return { reason: 'no 2.4 line found with the same effect on this directory and its subdirectories' };
  let deeper: string | null = null;
  if (check.deeper) {
    const { context, before, after } = check.deeper;
    const text = (o: Outcome) => (before.plain === after.plain ? SSI_TEXT[o.ssi] : describeOutcome(o));
    deeper = `${where(context)}: ${text(before)} on 2.2.12+, ${text(after)} with the 2.4 line`;
  }
  return { ...plan, release: releaseDifference(values, plan.words), deeper };
}

function describe(values: readonly string[]): string {
  return `Options ${values.join(' ')}`;
}

export const optionsMixedSigns: Transform = {
  id: 'options-mixed-signs',
  title: 'Fix Options lines that mix +/- and bare options',
  row: 'Misc: Options with a mix of +/- and bare options is a syntax error',
  order: 520,
  triggers: { directives: ['Options'] },
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
      if (plan.edits) d.editArgs(plan.edits);
      else d.setArgs(plan.words);
      let message = `${describe(values)} (refused by 2.4) rewritten as ${describe(plan.words)}, which is what 2.2 did with it`;
      if (plan.release) {
        message =
          `${describe(values)} (refused by 2.4) rewritten as ${describe(plan.words)}, which is what httpd 2.2.12 and later did ` +
          `with it; 2.2.0–2.2.11 read it otherwise (${plan.release}). If this server ran 2.2.11 or older, ` +
          'adjust Includes/IncludesNOEXEC here by hand';
      }
      if (plan.deeper) message += `; the only difference found is stricter and deeper down: ${plan.deeper}`;
      const overrides = htaccess && plan.canonical;
      if (overrides) message += '; check that AllowOverride Options=… on this directory allows each of these options';
      if (plan.release) ctx.note(d, 'options-signs-exec-by-release', message, 'review');
      else ctx.note(d, 'options-signs-normalized', message, overrides ? 'review' : 'info');
    }
  },
};
