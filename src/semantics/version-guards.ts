/**
 * Recognises sections that only take effect on httpd 2.2 (or only on 2.4), so
 * transforms leave dual-version idioms working: text under
 * `<IfVersion < 2.4>` or `<IfModule !mod_authz_core.c>` is for 2.2 and stays.
 */
import { Node, Section, ancestors } from '../cst';

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

const AUTHZ_CORE = new Set(['mod_authz_core.c', 'authz_core_module']);

/** True when a section's contents never apply on the 2.4 target. */
export function sectionIsTwoTwoOnly(section: Section): boolean {
  if (section.is('IfVersion')) return ifVersionHolds(section.values) === false;
  if (section.is('IfModule')) {
    const arg = section.values[0] ?? '';
    return arg.startsWith('!') && AUTHZ_CORE.has(arg.slice(1)) && !isLoadGuard(section);
  }
  return false;
}

/**
 * `<IfModule !authz_core_module> LoadModule authz_core_module … </IfModule>` loads the module where it
 * is missing: it applies on 2.4 (it is how the module planner writes new lines), it is not a 2.2 branch.
 */
function isLoadGuard(section: Section): boolean {
  const lines = section.body.filter((n) => n.kind === 'directive' || n.kind === 'section');
  return lines.length > 0 && lines.every((n) => n.kind === 'directive' && n.is('LoadModule') && /^authz_core_module$/i.test(n.values[0] ?? ''));
}

/** True when a node sits inside a section that only applies on 2.2. */
export function isTwoTwoOnly(node: Node): boolean {
  return ancestors(node).some(sectionIsTwoTwoOnly);
}
