import * as path from 'path';

/** Forward-slash path relative to `cwd` when inside it, absolute otherwise. */
export function toDisplayPath(absPath: string, cwd: string): string {
  const rel = path.relative(cwd, absPath);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return (inside ? rel : absPath).split(path.sep).join('/');
}

/** Sort order for paths: plain code-unit order, so the output never depends on locale. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
