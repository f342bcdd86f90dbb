/**
 * The directive → module table of httpd 2.4, generated from a real 2.4.71
 * (`apache2 -L` with every module of /usr/lib/apache2/modules loaded, per MPM) by
 * `scripts/gen-directive-modules.sh --compact > src/modules/directive-modules.generated.json`.
 * Module ids are as in LoadModule without `_module` (`cache_disk`, `mpm_event`).
 */
import generated from './directive-modules.generated.json';

interface GeneratedModule {
  readonly file: string;
  readonly source: string | null;
  readonly mpm?: boolean;
  readonly loadError?: boolean;
}

interface GeneratedDirective {
  readonly module: string | null;
  readonly alsoDefinedBy?: readonly string[];
  readonly context: string;
}

interface GeneratedTable {
  readonly generatedFrom: string;
  readonly moduleDir: string;
  readonly builtinModules: Readonly<Record<string, string>>;
  readonly modules: Readonly<Record<string, GeneratedModule>>;
  readonly directives: Readonly<Record<string, GeneratedDirective>>;
}

const TABLE = generated as unknown as GeneratedTable;

/** `Server version: …` of the httpd the table was generated from. */
export const TABLE_VERSION = TABLE.generatedFrom;

/** Module ids compiled into the httpd the table came from (Debian: core so watchdog http log_config logio version unixd). */
export const TABLE_BUILTINS: ReadonlySet<string> = new Set(Object.keys(TABLE.builtinModules));

const byLowerName = new Map<string, GeneratedDirective>();
for (const [name, entry] of Object.entries(TABLE.directives)) {
  // -L prints a few names lowercase (order, allow, deny); lookups are case-insensitive like httpd's
  if (!byLowerName.has(name.toLowerCase())) byLowerName.set(name.toLowerCase(), entry);
}

/**
 * The modules that define a directive on 2.4, primary first; `name` is a
 * directive name or a section name written `<Name`. Null when 2.4 has no such directive.
 */
export function directiveModules(name: string): readonly string[] | null {
  // a name in lower case already (a node's lowerName) is looked up as it is
  return modulesByLowerName.get(name) ?? modulesByLowerName.get(name.toLowerCase()) ?? null;
}

/** directiveModules' answers, made once from the table (frozen: every caller shares them). */
const modulesByLowerName = new Map<string, readonly string[]>();
for (const [name, entry] of byLowerName) {
  if (entry.module) modulesByLowerName.set(name, Object.freeze([entry.module, ...(entry.alsoDefinedBy ?? [])]));
}

/** Whether httpd 2.4 (core or any module of the table) knows a directive. */
export function isKnownDirective24(name: string): boolean {
  return byLowerName.has(name.toLowerCase());
}

/** The ids of all loadable 2.4 modules in the table (MPMs included). */
export const TABLE_MODULES: ReadonlySet<string> = new Set(Object.keys(TABLE.modules));

/** The shared object file name of a 2.4 module (`mod_cache_disk.so`); `mod_<id>.so` when the table does not list it. */
export function moduleFile(id: string): string {
  return TABLE.modules[id]?.file ?? `mod_${id}.so`;
}

const sourceToId = new Map<string, string>();
for (const [id, source] of Object.entries(TABLE.builtinModules)) sourceToId.set(source, id);
for (const [id, m] of Object.entries(TABLE.modules)) if (m.source) sourceToId.set(m.source, id);

/** The source name (`mod_cache_disk.c`, `event.c`, `util_ldap.c`) that `<IfModule>` and `-l` use for a module id. */
export function sourceOf(id: string): string {
  return TABLE.builtinModules[id] ?? TABLE.modules[id]?.source ?? `mod_${id}.c`;
}

/** The module id for a source name printed by `-l` or tested by `<IfModule>`; null when unknown. */
export function idOfSource(source: string): string | null {
  return sourceToId.get(source) ?? null;
}
