/**
 * Decides conditional sections (`<IfVersion>`, `<IfModule>`) for the 2.4
 * target, so transforms leave dual-version idioms working: text in a section
 * that never applies on 2.4 (`<IfVersion < 2.4>`, `<IfModule !mod_authz_core.c>`,
 * `<IfModule !mod_version.c>`, tests no server passes) is for 2.2 and stays.
 *
 * `<IfModule X>` holds iff X is a loaded module's source name (`mod_x.c`) or
 * symbol (`x_module`), compared byte for byte (server/core.c find_module:
 * ap_find_linked_module, the prelinked symbols, mod_so's loaded symbols).
 * Measured on 2.4.71 (`apache2 -t -D DUMP_CONFIG`): `mod_access_compat.c` and
 * `access_compat_module` match once it is loaded; `mod_access_compat`,
 * `access_compat`, `mod_access_compat.so`, `MOD_ACCESS_COMPAT.C`, `mod_version`
 * never do, loaded or not.
 *
 * A few modules are made sure of on the target, so tests of them are decided:
 * mod_version (compiled into Debian's httpd; only modules/metadata/mod_version.c defines
 * `<IfVersion>`, so a 2.4 without it refuses the section),
 * mod_authz_core (Require) and mod_authz_host (Require ip/host). Whatever
 * relies on them asks the module planner for them (access-dual-version,
 * access-to-require), which writes a LoadModule line unless `--httpd` reports
 * the module built in.
 */
import { Node, Section } from '../cst';
import { isStandard22, isStandard24, readIfModule } from '../modules/knowledge';
import { sourceOf } from '../modules/table';
import { cacheKey } from './cache-key';

/** The 2.4 release the tool targets when it evaluates `<IfVersion>`. */
export const TARGET_VERSION: readonly [number, number, number] = [2, 4, 71];

function parseVersion(text: string): number[] {
  return text.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Evaluates `<IfVersion …>` arguments against a version; null when it cannot tell. */
export function ifVersionHolds(values: readonly string[], version: readonly number[] = TARGET_VERSION): boolean | null {
  let [op, ver] = values.length >= 2 ? [values[0], values[1]] : ['=', values[0] ?? ''];
  let negate = false;
  if (op.startsWith('!')) {
    negate = true;
    op = op.slice(1);
  }
  const printed = version.join('.');
  let result: boolean | null;
  if (ver.startsWith('/') && ver.endsWith('/') && ver.length >= 2) {
    result = safeRegex(ver.slice(1, -1), printed);
  } else if (op === '~') {
    result = safeRegex(ver, printed);
  } else {
    const d = compare(version, parseVersion(ver));
    const table: Record<string, boolean> = { '=': d === 0, '==': d === 0, '>': d > 0, '>=': d >= 0, '<': d < 0, '<=': d <= 0 };
    result = op in table ? table[op] : null;
  }
  return result === null ? null : result !== negate;
}

function safeRegex(source: string, subject: string): boolean | null {
  try {
    return new RegExp(source).test(subject);
  } catch {
    return null;
  }
}

/** What `<IfModule NAME>` (without `!`) gives on 2.2 and on the 2.4 target; null where the server decides. */
interface ModuleTruth {
  readonly on22: boolean | null;
  readonly on24: boolean | null;
  /** The module the 2.4 outcome relies on being loaded. */
  readonly relies?: string;
  readonly why: string;
}

/** Modules whose test is decided (the rest depend on the server's LoadModule lines). */
const DECIDED: Readonly<Record<string, ModuleTruth>> = {
  authz_core: { on22: false, on24: true, relies: 'authz_core', why: 'mod_authz_core exists only in 2.4, where it provides Require (the migration makes sure it is loaded)' },
  authz_host: { on22: true, on24: true, relies: 'authz_host', why: 'mod_authz_host is loaded on 2.2 and 2.4 (the migration keeps it loaded)' },
  version: { on22: null, on24: true, relies: 'version', why: 'mod_version is compiled into Debian\'s httpd 2.4; elsewhere the migration loads it' },
  // the httpd 2.0 module: gone in 2.2 already
  access: { on22: false, on24: false, why: 'mod_access is httpd 2.0\'s name; neither 2.2 nor 2.4 has it' },
  access_compat: {
    on22: false,
    on24: null,
    why: 'mod_access_compat does not exist in 2.2, and on 2.4 it is loaded only where old Order/Allow/Deny rules are kept',
  },
};

const knownModule = (id: string) => id === 'access' || isStandard22(id) || isStandard24(id);

/** The names httpd answers to for a module id: its source name (`mod_x.c`, or `util_ldap.c` …) and its symbol. */
const exactSpellings = (id: string) => new Set([sourceOf(id), `mod_${id}.c`, `${id}_module`]);

/**
 * A spelling that names a standard module but is neither its source name nor
 * its symbol (`mod_access_compat`, `version`, `mod_ssl.so`, `MOD_SSL.C`): no
 * loaded module answers to it, so the test is never true.
 */
function misspelledModule(word: string): string | null {
  const m = /^(?:mod_)?([a-z0-9_]+?)(?:\.c|\.so|_module)?$/i.exec(word);
  if (!m) return null;
  const id = m[1].toLowerCase();
  return knownModule(id) && !exactSpellings(id).has(word) ? id : null;
}

function moduleTruth(word: string): ModuleTruth | null {
  const test = readIfModule([word]);
  if (test.form !== 'other' && test.id && test.id in DECIDED && exactSpellings(test.id).has(word)) return DECIDED[test.id];
  const misspelled = misspelledModule(word);
  if (misspelled) {
    return {
      on22: false,
      on24: false,
      why: `"${word}" is neither the source name (${sourceOf(misspelled)}) nor the symbol (${misspelled}_module) of a module, so no server ever matches it`,
    };
  }
  return null;
}

/** What a `<IfModule>` test gives on 2.2 and on the 2.4 target. */
export interface IfModuleOutcome {
  readonly on22: boolean | null;
  readonly on24: boolean | null;
  /** The module the 2.4 outcome relies on being loaded (`version` for `<IfModule !mod_version.c>`). */
  readonly relies: string | null;
  /** Why, for findings. */
  readonly why: string;
}

/**
 * Outcomes by test: the outcome is a function of the `!` and the word httpd reads (readIfModule), which
 * the key spells unambiguously (`!word` when negated); answers are kept for the run in a plain map of
 * strings, bounded (not a weak map keyed on each line's argument array: there would be one per line).
 */
const outcomeByTest = new Map<string, IfModuleOutcome>();
/** Distinct tests a run keeps answers for (a few dozen in real configs; generated ones cannot make the maps large). */
const CACHE_LIMIT = 4096;

export function ifModuleOutcome(values: readonly string[]): IfModuleOutcome {
  const first = values[0] ?? '';
  const key = first === '!' ? `!${values[1] ?? ''}` : first;
  let outcome = outcomeByTest.get(key);
  if (outcome === undefined) {
    // moduleTruth reads only tables that never change: the answer holds for the whole run
    outcome = decideIfModule(values);
    if (outcomeByTest.size < CACHE_LIMIT) outcomeByTest.set(cacheKey(key), outcome);
  }
  return outcome;
}

function decideIfModule(values: readonly string[]): IfModuleOutcome {
  // httpd reads the first word after an optional `!`
  const { name: word, negated } = readIfModule(values);
  const truth = moduleTruth(word);
  if (!truth) return { on22: null, on24: null, relies: null, why: 'its outcome depends on the modules the server loads' };
  const flip = (b: boolean | null) => (b === null ? null : b !== negated);
  return { on22: flip(truth.on22), on24: flip(truth.on24), relies: truth.relies ?? null, why: truth.why };
}

/**
 * The module a section's 2.4 outcome relies on being loaded: `version` for
 * `<IfVersion>` (2.4 refuses the section without it) and for `<IfModule [!]mod_version.c>`,
 * `authz_core` / `authz_host` for their tests; null for anything else.
 */
export function reliesOnModule(section: Section): string | null {
  const name = section.lowerName;
  if (name === 'ifversion') return 'version';
  if (name !== 'ifmodule') return null;
  // a test that relies on nothing needs no look at the section's body (isLoadGuard)
  const relies = ifModuleOutcome(section.values).relies;
  return relies !== null && !isLoadGuard(section) ? relies : null;
}

/** True when a section's contents never apply on the 2.4 target. */
export function sectionIsTwoTwoOnly(section: Section): boolean {
  // most sections are neither: one comparison of the cached lower-case name each
  const name = section.lowerName;
  if (name === 'ifversion') return ifVersionOutcome(section.values) === false;
  if (name === 'ifmodule') return ifModuleOutcome(section.values).on24 === false && !isLoadGuard(section);
  return false;
}

/** ifVersionHolds on the target, by its operator and version (`op.length:opver`, unambiguous); bounded like the rest. */
const versionByTest = new Map<string, boolean | null>();

function ifVersionOutcome(values: readonly string[]): boolean | null {
  const [op, ver] = values.length >= 2 ? [values[0], values[1]] : ['=', values[0] ?? ''];
  const key = `${op.length}:${op}${ver}`;
  let holds = versionByTest.get(key);
  if (holds === undefined) {
    holds = ifVersionHolds(values);
    if (versionByTest.size < CACHE_LIMIT) versionByTest.set(cacheKey(key), holds);
  }
  return holds;
}

/**
 * `<IfModule !x_module> LoadModule x_module … </IfModule>` loads the module where it
 * is missing: it applies on 2.4 (it is how the module planner writes new lines), it is not a 2.2 branch.
 */
function isLoadGuard(section: Section): boolean {
  const test = readIfModule(section.values);
  if (!test.negated || !test.id) return false;
  const lines = section.body.filter((n) => n.kind === 'directive' || n.kind === 'section');
  const symbol = `${test.id}_module`.toLowerCase();
  return lines.length > 0 && lines.every((n) => n.kind === 'directive' && n.is('LoadModule') && (n.values[0] ?? '').toLowerCase() === symbol);
}

/** True when a node sits inside a section that only applies on 2.2. */
export function isTwoTwoOnly(node: Node): boolean {
  // the enclosing sections, innermost first, without building the ancestors() array
  for (let p = node.parent; p !== null && p.kind === 'section'; p = p.parent) if (sectionIsTwoTwoOnly(p)) return true;
  return false;
}

/** The negation, as a module-level test to pass to filter/some (a closure made per call is compiled again and again). */
export function appliesOn24(node: Node): boolean {
  return !isTwoTwoOnly(node);
}
