/**
 * What a conditional wrapper (`<IfModule>`, `<IfVersion>`, `<IfDefine>`)
 * inside an access scope means for the access model, on httpd 2.2 and on the
 * 2.4 target. The outcome of each test is decided in version-guards.ts
 * (`<IfModule>` matches only a loaded module's `mod_x.c` or `x_module`,
 * byte for byte: measured on 2.4.71).
 *
 * - `both`: true on 2.2 and 2.4 (`mod_authz_host.c`; `!mod_access_compat`, a bare
 *   name no module answers to): read through, and removable as a whole when it
 *   held nothing but access rules;
 * - `dead`: false on both (`mod_access.c` is the httpd 2.0 name; `mod_access_compat`
 *   without `.c` never matches): its contents never applied and are left alone;
 * - `only24`: true on 2.4, false or not relied upon on 2.2 (`mod_authz_core.c`,
 *   `mod_version.c`, `<IfVersion >= 2.4>`): read through as 2.4 configuration;
 *   kept when rules inside it are rewritten, so the dual-version idiom keeps working;
 * - `only22`: false on 2.4 (`!mod_authz_core.c`, `!mod_version.c`, `<IfVersion < 2.4>`):
 *   not read, never touched — it is the 2.2 branch;
 * - `unknown`: depends on the server (`<IfDefine>`, modules the model cannot
 *   know are loaded, `mod_access_compat.c`, which is loaded only if this migration
 *   keeps old rules somewhere): access rules inside cannot be migrated safely.
 *
 * A verdict that relies on a module being loaded on 2.4 names it in `needs`
 * (`version`, `authz_core`, `authz_host`); access-dual-version and
 * access-to-require ask the module planner for it, so the verdict holds.
 */
import { Section } from '../../cst';
import { ifModuleOutcome, ifVersionHolds } from '../version-guards';

export type WrapperKind = 'both' | 'dead' | 'only24' | 'only22' | 'unknown';

export interface WrapperVerdict {
  readonly kind: WrapperKind;
  /** Module the 2.4 side must load for the verdict to hold (`authz_host`, `version`). */
  readonly needs?: string;
  /** Why, for findings. */
  readonly why: string;
}

function kindOf(on22: boolean | null, on24: boolean | null): WrapperKind {
  if (on24 === null) return 'unknown';
  if (on24) return on22 === true ? 'both' : 'only24';
  return on22 === false ? 'dead' : 'only22';
}

const said = (b: boolean | null) => (b === null ? 'server-dependent' : String(b));

/**
 * Verdicts by section, with the open line they were read from: a verdict depends on nothing but
 * that line (the section's name and arguments), which an edit replaces with a new string. The
 * access reader asks for a section's verdict many times (scopes, rules, Require blocks, removal).
 */
const verdicts = new WeakMap<Section, { readonly raw: string; readonly verdict: WrapperVerdict | null }>();

export function wrapperVerdict(section: Section): WrapperVerdict | null {
  const raw = section.open.raw;
  const known = verdicts.get(section);
  if (known !== undefined && known.raw === raw) return known.verdict;
  const verdict = judge(section);
  verdicts.set(section, { raw, verdict });
  return verdict;
}

function judge(section: Section): WrapperVerdict | null {
  if (section.is('IfModule')) {
    const label = `<IfModule ${section.values.join(' ')}>`;
    const o = ifModuleOutcome(section.values);
    if (o.on24 === null) return { kind: 'unknown', why: `${label}, whose outcome depends on the modules the server loads (${o.why})` };
    const kind = kindOf(o.on22, o.on24);
    const why = `${label} is ${said(o.on22)} on 2.2 and ${o.on24} on 2.4 (${o.why})`;
    return o.on24 && o.relies ? { kind, why, needs: o.relies } : { kind, why };
  }
  if (section.is('IfVersion')) {
    const on24 = ifVersionHolds(section.values);
    const on22 = ifVersionHolds(section.values, [2, 2, 34]);
    // a test that tells 2.2.x releases apart (rare) is unknown
    const on22early = ifVersionHolds(section.values, [2, 2, 0]);
    const label = `<IfVersion ${section.values.join(' ')}>`;
    const known = on22 === on22early ? on22 : null;
    if (known === null || on24 === null) return { kind: 'unknown', why: `${label}, whose outcome differs between 2.2 releases` };
    const kind = kindOf(known, on24);
    const why = `${label} (${known} on 2.2, ${on24} on 2.4.71)`;
    // a kept <IfVersion> needs mod_version on 2.4 (without it, 2.4 refuses the section)
    return on24 ? { kind, why, needs: 'version' } : { kind, why };
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
