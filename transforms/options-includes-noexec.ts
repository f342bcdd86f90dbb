// Upgrade notes "Misc: Options" / mod_include: Includes vs IncludesNOEXEC.
//
// Suspected change: "`Options +Includes` below a directory with IncludesNOEXEC stayed no-exec in
// 2.2 but allows #exec in 2.4". The 2.2 sources say otherwise (server/core.c set_options and
// merge_core_dir_configs, include/http_core.h):
// - httpd 2.2.0–2.2.11 (and 2.0): bits OPT_INCLUDES and OPT_INCNOEXEC; Includes = INCLUDES,
//   IncludesNOEXEC = INCLUDES|INCNOEXEC. set_options never clears INCNOEXEC on `+Includes`, but the
//   merge does: `if ((base->opts & OPT_INCNOEXEC) && (new->opts & OPT_INCLUDES))` it clears
//   INCNOEXEC. So `+Includes` below IncludesNOEXEC allowed #exec there too.
// - httpd 2.2.12 and later (CVE-2009-1195 fix; also backported by distributions) and 2.4: bits
//   OPT_INCLUDES and OPT_INC_WITH_EXEC; Includes = INCLUDES|INC_WITH_EXEC, IncludesNOEXEC =
//   INCLUDES; the merge clears INC_WITH_EXEC when the base had Includes and the child adds only
//   IncludesNOEXEC. 2.4.71 keeps that code (checked on a started server in
//   __tests__/httpd-options-bom.test.ts), so `+Includes` means the same in every 2.2 and in 2.4,
//   and rewriting it to +IncludesNOEXEC would take #exec away from pages that had it.
// What does change with the release a server ran: a line that names both Includes and
// IncludesNOEXEC (`Options Includes IncludesNOEXEC`, `Options All IncludesNOEXEC`): up to 2.2.11
// IncludesNOEXEC's extra bit won (no #exec); since 2.2.12, and in 2.4, Includes' bit wins (#exec).
// Such a line is left alone (2.4 keeps the meaning of current 2.2) and reported for review.
import { Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

/** Which 2.2 source to model: before the CVE-2009-1195 fix, or 2.2.12+ (= 2.4's merge code). */
export type Scheme = 'pre-2.2.12' | '2.2.12+';
export type Ssi = 'off' | 'noexec' | 'exec';

const IDX = 1;
const INC = 2;
const SYM = 4;
const CGI = 8;
const UNSET = 16;
/** OPT_INCNOEXEC before 2.2.12, OPT_INC_WITH_EXEC since: same bit, opposite meaning. */
const BIT32 = 32;
const OWNER = 64;
const MULTI = 128;

function bitsOf(word: string, scheme: Scheme): number | null {
  const old = scheme === 'pre-2.2.12';
  switch (word.toLowerCase()) {
    case 'indexes':
      return IDX;
    case 'includes':
      return old ? INC : INC | BIT32;
    case 'includesnoexec':
      return old ? INC | BIT32 : INC;
    case 'followsymlinks':
      return SYM;
    case 'symlinksifownermatch':
      return OWNER;
    case 'execcgi':
      return CGI;
    case 'multiviews':
      return MULTI;
    case 'runscripts':
      return MULTI | CGI;
    case 'none':
      return 0;
    case 'all':
      return old ? IDX | INC | SYM | CGI : IDX | INC | BIT32 | SYM | CGI;
    default:
      return null;
  }
}

/** A directory's core options as 2.2 keeps them: opts (with the UNSET flag when only +/- were given), opts_add, opts_remove. */
export interface OptionsConf {
  readonly opts: number;
  readonly add: number;
  readonly remove: number;
}

/** The state `Options None` leaves: what the tests' document root uses as the top of a chain. */
export const OPTIONS_NONE: OptionsConf = { opts: 0, add: 0, remove: 0 };

/** 2.2's set_options on a fresh <Directory> config (2.2 accepts mixed +/- and bare words); null for an unknown word. */
export function setOptions22(words: readonly string[], scheme: Scheme): OptionsConf | null {
  let opts = UNSET;
  let add = 0;
  let remove = 0;
  let first = true;
  for (const raw of words) {
    const action = raw.startsWith('+') || raw.startsWith('-') ? raw[0] : '';
    const opt = bitsOf(action ? raw.slice(1) : raw, scheme);
    if (opt === null) return null;
    if (action === '' && first) {
      opts = 0;
      first = false;
    }
    if (action === '-') {
      remove |= opt;
      add &= ~opt;
      opts &= ~opt;
    } else if (action === '+') {
      add |= opt;
      remove &= ~opt;
      opts |= opt;
    } else {
      opts |= opt;
    }
  }
  return { opts, add, remove };
}

/** merge_core_dir_configs, the Options part, for `child` merged onto `base`. */
export function mergeOptions(base: OptionsConf, child: OptionsConf, scheme: Scheme): OptionsConf {
  if (!(child.opts & UNSET)) return child;
  const add = (base.add & ~child.remove) | child.add;
  const remove = (base.remove & ~child.add) | child.remove;
  let opts = (base.opts & ~remove) | add;
  if (scheme === 'pre-2.2.12') {
    if (base.opts & BIT32 && child.opts & INC) opts = (opts & ~BIT32) | INC;
  } else if ((base.opts & (INC | BIT32)) === (INC | BIT32) && (child.opts & (INC | BIT32)) === INC) {
    opts &= ~BIT32;
  }
  return { opts, add, remove };
}

/** What mod_include does with `<!--#exec -->` under these options. */
export function ssiOf(conf: OptionsConf, scheme: Scheme): Ssi {
  if (!(conf.opts & INC)) return 'off';
  const exec = scheme === 'pre-2.2.12' ? !(conf.opts & BIT32) : (conf.opts & BIT32) !== 0;
  return exec ? 'exec' : 'noexec';
}

/** SSI state of the innermost directory of a chain of Options lines (outermost first), below `Options None`. */
export function chainSsi(chain: readonly (readonly string[])[], scheme: Scheme): Ssi | null {
  let conf = OPTIONS_NONE;
  for (const words of chain) {
    const own = setOptions22(words, scheme);
    if (!own) return null;
    conf = mergeOptions(conf, own, scheme);
  }
  return ssiOf(conf, scheme);
}

/** Parents a line may have: what it inherits decides the outcome of a +/- line. */
const PARENTS: readonly (readonly string[])[] = [['None'], ['IncludesNOEXEC'], ['Includes']];

/**
 * Whether 2.2.12+ (and 2.4) allow #exec where 2.2.0–2.2.11 did not, for this line under some
 * parent: the line's meaning depends on the 2.2 release.
 */
export function execDependsOnRelease(words: readonly string[]): boolean {
  for (const parent of PARENTS) {
    const before = chainSsi([parent, words], 'pre-2.2.12');
    const since = chainSsi([parent, words], '2.2.12+');
    if (before === null || since === null) return false;
    if (since === 'exec' && before !== 'exec') return true;
  }
  return false;
}

function describe(d: Directive): string {
  return `Options ${d.values.join(' ')}`;
}

export const optionsIncludesNoexec: Transform = {
  id: 'options-includes-noexec',
  title: 'Report Options lines whose SSI #exec depends on the 2.2 release',
  row: 'Misc: Options Includes / IncludesNOEXEC (mod_include #exec)',
  order: 515,
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'Options')) {
      if (isTwoTwoOnly(d)) continue;
      const words = d.values;
      if (!words.some((w) => /^[+-]?(includes|includesnoexec|all)$/i.test(w))) continue;
      if (!execDependsOnRelease(words)) continue;
      ctx.note(
        d,
        'options-includes-exec-by-release',
        `${describe(d)} combines Includes (or All) with IncludesNOEXEC: httpd 2.2.0–2.2.11 ran SSI without #exec here, ` +
          '2.2.12 and later (and 2.4) allow #exec. Left as it is, with the meaning of 2.2.12+; if this server ran ' +
          '2.2.11 or older, keep only IncludesNOEXEC',
        'review',
      );
    }
  },
};
