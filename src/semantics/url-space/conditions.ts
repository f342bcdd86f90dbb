/**
 * Whether a line under conditional sections (`<IfModule>`, `<IfDefine>`, `<IfVersion>`, `<IfFile>`,
 * `<IfDirective>`, `<IfSection>`) takes effect, for the URL-space model. `<IfModule>` is true when the
 * server's own LoadModule lines (outside conditions) load the module, or for modules always compiled in;
 * every other test the model cannot decide is `maybe`, naming the section's line.
 */
import { Section } from '../../cst';
import { ALWAYS_BUILTIN, readIfModule } from '../../modules/knowledge';
import { SourceFile } from '../../server/types';
import { ifVersionHolds, TARGET_VERSION } from '../version-guards';
import { Cause } from './types';

export type Certainty = { readonly kind: 'yes' } | { readonly kind: 'no' } | { readonly kind: 'maybe'; readonly causes: readonly Cause[] };

export const CERTAIN: Certainty = { kind: 'yes' };
export const NEVER: Certainty = { kind: 'no' };

/** Which httpd the answers hold for: 2.2, the 2.4 target, or both (the default: the migration compares them). */
export type Version = '2.2' | '2.4' | 'both';

/** The 2.2 release `<IfVersion>` is evaluated against. */
const VERSION_22: readonly number[] = [2, 2, 34];

export function both(a: Certainty, b: Certainty): Certainty {
  if (a.kind === 'no' || b.kind === 'no') return NEVER;
  if (a.kind === 'yes') return b;
  if (b.kind === 'yes') return a;
  return { kind: 'maybe', causes: [...a.causes, ...b.causes] };
}

export const CONDITIONAL_SECTIONS = new Set(['ifmodule', 'ifdefine', 'ifversion', 'iffile', 'ifdirective', 'ifsection']);

export interface ConditionContext {
  readonly loaded: ReadonlySet<string>;
  readonly version: Version;
}

/** How a conditional section's contents apply; null when the section is not a conditional one. */
export function conditionOf(section: Section, file: SourceFile, ctx: ConditionContext): Certainty | null {
  const name = section.lowerName;
  if (!CONDITIONAL_SECTIONS.has(name)) return null;
  const maybe = (why: string): Certainty => ({ kind: 'maybe', causes: [{ file, line: section.line, why }] });
  if (name === 'ifmodule') {
    const test = readIfModule(section.values);
    if (test.id === null) return test.negated ? CERTAIN : NEVER;
    const loaded = ctx.loaded.has(test.id) || ALWAYS_BUILTIN.has(test.id);
    if (loaded) return test.negated ? NEVER : CERTAIN;
    return maybe(`<IfModule ${section.values.join(' ')}>: whether the module is loaded is not known`);
  }
  if (name === 'ifversion') {
    const on22 = ctx.version === '2.4' ? null : ifVersionHolds(section.values, VERSION_22);
    const on24 = ctx.version === '2.2' ? null : ifVersionHolds(section.values, TARGET_VERSION);
    const answers = [on22, on24].filter((v, i) => (i === 0 ? ctx.version !== '2.4' : ctx.version !== '2.2'));
    if (answers.every((v) => v === true)) return CERTAIN;
    if (answers.every((v) => v === false)) return NEVER;
    return maybe(`<IfVersion ${section.values.join(' ')}>: true on one httpd version and not the other`);
  }
  return maybe(`<${section.name} ${section.values.join(' ')}>: depends on how httpd is started or installed`);
}
