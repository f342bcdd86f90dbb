/**
 * Per-module LogLevel writing, shared by the logging transforms (rewrite-log-to-log-level,
 * dump-io-log-level, debug-level-option). Measured on httpd 2.4.71: a LogLevel that sets the main
 * level resets the module levels set before it in the same context; a module-only LogLevel keeps
 * the inherited main level.
 */
import { ConfigFile, Container, Directive, Node, NewLine, Section, ancestors, fileOf, insertAfter, remove, replaceWith, walk } from '../cst';
import { isTwoTwoOnly } from './version-guards';

/** Sections with their own log configuration (per-server or per-directory). */
const LOG_SCOPES = new Set([
  'virtualhost',
  'directory',
  'directorymatch',
  'location',
  'locationmatch',
  'files',
  'filesmatch',
  'if',
  'elseif',
  'else',
  'proxy',
  'proxymatch',
]);

/** The container whose LogLevel a directive at `node` sets: the nearest scope section, or the file (server level). */
export function logScope(node: Node): Container {
  for (const s of ancestors(node)) if (LOG_SCOPES.has(s.name.toLowerCase())) return s;
  const file = fileOf(node);
  if (!file) throw new Error(`node on line ${node.line} is not attached to a file`);
  return file;
}

/** The nearest `<VirtualHost>`, or the file: the per-server context of server-only directives. */
export function serverScope(node: Node): Container {
  for (const s of ancestors(node)) if (s.is('VirtualHost')) return s;
  return fileOf(node) as ConfigFile;
}

/** Directives of a scope, not descending into nested scopes, skipping 2.2-only branches, in file order. */
export function scopeDirectives(scope: Container, ...names: string[]): Directive[] {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const out: Directive[] = [];
  const visit = (container: Container) => {
    for (const node of container.body) {
      if (node.kind === 'section') {
        if (!LOG_SCOPES.has(node.name.toLowerCase())) visit(node);
      } else if (node.kind === 'directive' && wanted.has(node.name.toLowerCase()) && !isTwoTwoOnly(node)) {
        out.push(node);
      }
    }
  };
  visit(scope);
  return out;
}

/** A LogLevel line that sets the main level (has an argument without `module:`): it resets module levels. */
export function setsMainLevel(d: Directive): boolean {
  return d.values.some((v) => !v.includes(':'));
}

/** The main level a LogLevel line sets (lowercase), or null. */
export function mainLevelOf(d: Directive): string | null {
  const plain = d.values.filter((v) => !v.includes(':'));
  return plain.length > 0 ? plain[plain.length - 1].toLowerCase() : null;
}

/** Severity order of 2.2/2.4 levels, most severe first. */
export const LEVELS = ['emerg', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug', 'trace1', 'trace2', 'trace3', 'trace4', 'trace5', 'trace6', 'trace7', 'trace8'];

/** Document order of every node of a file (computed before editing). */
function orderOf(file: ConfigFile): Map<Node, number> {
  const order = new Map<Node, number>();
  let i = 0;
  for (const node of walk(file)) order.set(node, i++);
  return order;
}

/** Sections between `node` and `scope` (outermost first): the conditions (IfModule, IfDefine…) it sits under. */
function conditionsBetween(node: Node, scope: Container): Section[] {
  const out: Section[] = [];
  for (const s of ancestors(node)) {
    if (s === scope) break;
    out.unshift(s);
  }
  return out;
}

/** Whether `node` sits under `<IfModule X>` (not negated) for one of `names`, below `scope`. */
export function guardedBy(node: Node, names: readonly string[]): boolean {
  return ancestors(node).some((s) => s.is('IfModule') && names.includes((s.values[0] ?? '').trim()));
}

/** The direct child of `scope` that holds `node` (or `node` itself). */
function topIn(node: Node, scope: Container): Node {
  let cur: Node = node;
  while (cur.parent && cur.parent !== scope) cur = cur.parent as Section;
  return cur;
}

function withoutModule(values: readonly string[], module: string): string[] {
  const prefix = `${module.toLowerCase()}:`;
  return values.filter((v) => !v.toLowerCase().startsWith(prefix));
}

/** The LogLevel (main level, lowercase) in effect where `node` stands, when the file shows it: its scope's, else an enclosing one's. */
export function visibleLevel(node: Node): string | null {
  let scope = logScope(node);
  for (;;) {
    const mains = scopeDirectives(scope, 'LogLevel').filter(setsMainLevel);
    if (mains.length > 0) return mainLevelOf(mains[mains.length - 1]);
    if (scope.kind === 'file') return null;
    scope = logScope(scope);
  }
}

/** Whether 2.2 printed messages of `level` where `current` was the LogLevel (unknown levels: assume yes). */
export function levelShows(current: string | null, level: string): boolean {
  if (current === null || !LEVELS.includes(current) || !LEVELS.includes(level)) return true;
  return LEVELS.indexOf(current) >= LEVELS.indexOf(level);
}

/** Removes `at`, and the conditional sections it leaves empty (nothing else, not even a comment, inside). */
function removeLeavingNoEmptyShell(at: Directive, scope: Container): void {
  let parent = at.parent;
  remove(at);
  while (parent && parent !== scope && parent.kind === 'section' && parent.body.length === 0 && !LOG_SCOPES.has(parent.name.toLowerCase())) {
    const up: Container | null = parent.parent;
    remove(parent);
    parent = up;
  }
}

export type ModuleLevelWrite = 'merged' | 'replaced' | 'inserted';

/**
 * Writes `LogLevel module:level` for the context of `at`:
 * - merged into the context's last main-level LogLevel when both stand unconditionally in the context;
 * - else, when a main-level LogLevel follows `at` in the context (it would reset the module level), written
 *   after it, under the same conditions (`<IfModule>`, `<IfDefine>`…) `at` had;
 * - else in place of `at` (`replace`) or right after it.
 * `at` is removed when `replace` is true.
 */
export function writeModuleLevel(at: Directive, module: string, level: string, replace: boolean): ModuleLevelWrite {
  const spec = `${module}:${level}`;
  const scope = logScope(at);
  const file = fileOf(at) as ConfigFile;
  const order = orderOf(file);
  const mains = scopeDirectives(scope, 'LogLevel').filter((d) => d !== at && setsMainLevel(d));
  const last = mains[mains.length - 1];
  const atDirect = at.parent === scope;
  if (last && atDirect && last.parent === scope) {
    last.setArgs([...withoutModule(last.values, module), spec]);
    if (replace) remove(at);
    return 'merged';
  }
  if (last && (order.get(last) ?? 0) > (order.get(at) ?? 0)) {
    const conditions = conditionsBetween(at, scope);
    const lines: NewLine[] = [];
    conditions.forEach((s, depth) => lines.push({ text: s.open.raw.trim(), depth }));
    lines.push({ text: `LogLevel ${spec}`, depth: conditions.length });
    [...conditions].reverse().forEach((s, i) => lines.push({ text: `</${s.name}>`, depth: conditions.length - 1 - i }));
    insertAfter(topIn(last, scope), lines);
    if (replace) removeLeavingNoEmptyShell(at, scope);
    return 'inserted';
  }
  if (replace) replaceWith(at, [`LogLevel ${spec}`]);
  else insertAfter(at, [`LogLevel ${spec}`]);
  return 'replaced';
}

