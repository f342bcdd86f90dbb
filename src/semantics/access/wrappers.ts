/**
 * What a conditional wrapper (`<IfModule>`, `<IfVersion>`, `<IfDefine>`)
 * inside an access scope means for the access model, on httpd 2.2 and on the
 * 2.4 target. `<IfModule>` is true iff its argument is a loaded module's source
 * name (`mod_x.c`) or symbol (`x_module`), case-sensitive
 * (docs/research/httpd24-facts.md §4).
 *
 * - `both`: true on 2.2 and 2.4 (`mod_authz_host.c`: the module exists in both
 *   and migrated rules need it loaded anyway): read through, and removable as a
 *   whole when it held nothing but access rules;
 * - `dead`: false on both (`mod_access.c` is the httpd 2.0 name; 2.2 and 2.4 have no
 *   such module): its contents never applied and are left alone;
 * - `only24`: true on 2.4 only (`mod_authz_core.c`, `<IfVersion >= 2.4>`): read
 *   through as 2.4 configuration; kept when rules inside it are rewritten, so the
 *   dual-version idiom keeps working;
 * - `only22`: true on 2.2 only (`!mod_authz_core.c`, `<IfVersion < 2.4>`): not read,
 *   never touched;
 * - `unknown`: depends on the server (`<IfDefine>`, modules the model cannot
 *   know are loaded): access rules inside cannot be migrated safely.
 */
import { Section } from '../../cst';
import { ifVersionHolds } from '../version-guards';

export type WrapperKind = 'both' | 'dead' | 'only24' | 'only22' | 'unknown';

export interface WrapperVerdict {
  readonly kind: WrapperKind;
  /** Module the 2.4 side must load for the verdict to hold (`authz_host`). */
  readonly needs?: string;
  /** Why, for findings. */
  readonly why: string;
}

/** Truth of `<IfModule NAME>` on [2.2, 2.4]; undefined when the model does not know. */
const MODULE_TRUTH: Record<string, { on22: boolean; on24: boolean; needs?: string }> = {
  authz_core: { on22: false, on24: true },
  authz_host: { on22: true, on24: true, needs: 'authz_host' },
  // the httpd 2.0 module: gone in 2.2 already
  access: { on22: false, on24: false },
};

/** `mod_x.c` or `x_module` → `x`; anything else (wrong case, `.so`, bare names never match) → null. */
function moduleId(arg: string): string | null {
  const source = /^mod_([a-z0-9_]+)\.c$/.exec(arg);
  if (source) return source[1];
  const symbol = /^([a-z0-9_]+)_module$/.exec(arg);
  return symbol ? symbol[1] : null;
}

function fromTruth(on22: boolean | null, on24: boolean | null, why: string, needs?: string): WrapperVerdict {
  if (on22 === null || on24 === null) return { kind: 'unknown', why };
  if (on22 && on24) return { kind: 'both', why, needs };
  if (!on22 && !on24) return { kind: 'dead', why };
  return { kind: on24 ? 'only24' : 'only22', why };
}

export function wrapperVerdict(section: Section): WrapperVerdict | null {
  if (section.is('IfModule')) {
    let arg = section.values.join('');
    const negate = arg.startsWith('!');
    if (negate) arg = arg.slice(1);
    const id = moduleId(arg);
    const truth = id ? MODULE_TRUTH[id] : undefined;
    const label = `<IfModule ${section.values.join(' ')}>`;
    if (!truth) return { kind: 'unknown', why: `${label}, whose outcome depends on the modules the server loads` };
    const on22 = negate ? !truth.on22 : truth.on22;
    const on24 = negate ? !truth.on24 : truth.on24;
    return fromTruth(on22, on24, `${label} is ${on22 ? 'true' : 'false'} on 2.2 and ${on24 ? 'true' : 'false'} on 2.4`, on24 ? truth.needs : undefined);
  }
  if (section.is('IfVersion')) {
    const on24 = ifVersionHolds(section.values);
    const on22 = ifVersionHolds(section.values, [2, 2, 34]);
    // a test that tells 2.2.x releases apart (rare) is unknown
    const on22early = ifVersionHolds(section.values, [2, 2, 0]);
    const label = `<IfVersion ${section.values.join(' ')}>`;
    const known = on22 === on22early ? on22 : null;
    return fromTruth(known, on24, known === null || on24 === null ? `${label}, whose outcome differs between 2.2 releases` : `${label} (${known} on 2.2, ${on24} on 2.4.71)`);
  }
  if (section.is('IfDefine')) {
    return { kind: 'unknown', why: `<IfDefine ${section.values.join(' ')}>, whose outcome depends on how httpd is started` };
  }
  return null;
}

/**
 * For a wrapper whose outcome the model cannot know, the name of the unknown
 * (`define:SSL`, `module:ssl`) and whether the wrapper tests its negation; the
 * transform can then read the scope once per outcome.
 */
export function unknownKey(section: Section): { readonly key: string; readonly negate: boolean } | null {
  if (wrapperVerdict(section)?.kind !== 'unknown') return null;
  let arg = section.values.join('');
  const negate = arg.startsWith('!');
  if (negate) arg = arg.slice(1);
  if (section.is('IfDefine')) return { key: `define:${arg}`, negate };
  if (section.is('IfModule')) return { key: `module:${arg}`, negate };
  return null;
}

/** Outcomes assumed for unknown wrappers (key from unknownKey → is the name defined / loaded). */
export type Assumptions = ReadonlyMap<string, boolean>;

/** The verdict with assumptions applied: an assumed unknown wrapper is read through (true) or skipped (false). */
export function assumedVerdict(section: Section, assume?: Assumptions): WrapperVerdict | null {
  const verdict = wrapperVerdict(section);
  if (!verdict || verdict.kind !== 'unknown' || !assume) return verdict;
  const k = unknownKey(section);
  if (!k || !assume.has(k.key)) return verdict;
  const holds = assume.get(k.key) !== k.negate;
  return { kind: holds ? 'both' : 'dead', why: verdict.why };
}
