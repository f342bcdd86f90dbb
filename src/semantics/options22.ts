/**
 * httpd's Options as 2.2 and 2.4 compute them: the OPT_* bits, set_options on one line and the
 * merge of a child directory onto its parent (server/core.c, include/http_core.h), for both 2.2
 * schemes: before the CVE-2009-1195 fix (2.2.0–2.2.11, OPT_INCNOEXEC) and since (2.2.12+, which is
 * also 2.4's code, OPT_INC_WITH_EXEC). And which lines 2.4.71 accepts at all (it refuses a line
 * mixing +/- and bare words, measured). Used by options-mixed-signs and options-includes-noexec.
 */

/** Which 2.2 source to model: before the CVE-2009-1195 fix, or 2.2.12+ (= 2.4's merge code). */
export type Scheme = 'pre-2.2.12' | '2.2.12+';
export type Ssi = 'off' | 'noexec' | 'exec';

// httpd's OPT_* bits (include/http_core.h)
export const IDX = 1;
export const INC = 2;
export const SYM = 4;
export const CGI = 8;
/** OPT_UNSET: the line held only +/- words (incremental). */
export const UNSET = 16;
/** OPT_INCNOEXEC before 2.2.12, OPT_INC_WITH_EXEC since: same bit, opposite meaning. */
export const BIT32 = 32;
export const OWNER = 64;
export const MULTI = 128;

/** An option word's bits (any case, without sign) under a scheme; null for a word httpd does not know. */
export function bitsOf(word: string, scheme: Scheme): number | null {
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

export interface Word {
  readonly sign: '' | '+' | '-';
  /** As written, without the sign. */
  readonly name: string;
  readonly key: string;
}

export function splitOptions(values: readonly string[]): Word[] | null {
  const words: Word[] = [];
  for (const v of values) {
    const sign = v.startsWith('+') || v.startsWith('-') ? (v[0] as '+' | '-') : '';
    const name = sign ? v.slice(1) : v;
    const key = name.toLowerCase();
    if (bitsOf(key, '2.2.12+') === null) return null; // illegal in 2.2 and 2.4 alike: not ours
    words.push({ sign, name, key });
  }
  return words.length > 0 ? words : null;
}

/** Whether 2.4.71 accepts the words (its set_options, measured; see the header). */
export function accepted24(values: readonly string[]): boolean {
  const words = splitOptions(values);
  if (!words) return true; // not an Options line this transform can judge
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

