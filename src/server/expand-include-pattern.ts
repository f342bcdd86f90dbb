/**
 * Expands one Include argument (already absolute) to the files httpd would
 * read, in the order it would read them:
 * - a file is itself;
 * - a directory is every file below it, recursively, sorted per directory;
 * - wildcards (`*`, `?`, `[...]`) may stand in any path component, as 2.4
 *   allows; matches are sorted, and a wildcard never matches a leading dot
 *   (httpd uses APR_FNM_PERIOD); a matched directory is read recursively.
 * Editor backups met through a directory or a wildcard are left out.
 * Nothing matching is not an error here: the result is simply empty.
 */
import * as fs from 'fs';
import * as path from 'path';
import { comparePaths } from './display-path';
import { isEditorBackup } from './file-names';

export function hasWildcard(component: string): boolean {
  return /[*?]/.test(component) || /\[[^\]]*\]/.test(component);
}

export function expandIncludePattern(absPattern: string): string[] {
  const normalized = path.resolve(absPattern);
  const root = path.parse(normalized).root;
  const components = normalized.slice(root.length).split(path.sep).filter((c) => c !== '');

  let current = [root];
  components.forEach((component, i) => {
    const last = i === components.length - 1;
    const next: string[] = [];
    for (const dir of current) {
      if (!hasWildcard(component)) {
        const candidate = path.join(dir, component);
        if (last || isDirectory(candidate)) next.push(candidate);
        continue;
      }
      const matcher = fnmatchRegExp(component);
      for (const name of readDirectory(dir)) {
        if (!matcher.test(name) || isEditorBackup(name)) continue;
        const candidate = path.join(dir, name);
        if (last || isDirectory(candidate)) next.push(candidate);
      }
    }
    current = next;
  });

  const out: string[] = [];
  for (const p of current) {
    const stat = statOrNull(p);
    if (!stat) continue;
    if (stat.isDirectory()) listFilesBelow(p, out, new Set());
    else if (stat.isFile()) out.push(p);
  }
  return out;
}

/** Every regular file below `dir`, sorted per directory, following symlinks once (cycle-safe). */
function listFilesBelow(dir: string, out: string[], seen: Set<string>): void {
  let real: string;
  try {
    real = fs.realpathSync.native(dir);
  } catch {
    return;
  }
  if (seen.has(real)) return;
  seen.add(real);
  for (const name of readDirectory(dir)) {
    if (isEditorBackup(name)) continue;
    const p = path.join(dir, name);
    const stat = statOrNull(p);
    if (!stat) continue;
    if (stat.isDirectory()) listFilesBelow(p, out, seen);
    else if (stat.isFile()) out.push(p);
  }
}

function readDirectory(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort(comparePaths);
  } catch {
    return [];
  }
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  return statOrNull(p)?.isDirectory() ?? false;
}

/** fnmatch(3) for one path component: `*`, `?`, `[abc]`, `[a-z]`, `[!x]`/`[^x]`, `\x`. */
export function fnmatchRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRegExp(pattern[++i]);
    else if (c === '[') {
      const bracket = readBracket(pattern, i);
      if (bracket) {
        re += bracket.source;
        i = bracket.end;
      } else re += '\\[';
    } else re += escapeRegExp(c);
  }
  // a wildcard never matches a leading dot: only a literal dot does
  const leadingDotOk = pattern.startsWith('.') || pattern.startsWith('\\.');
  return new RegExp(`^${leadingDotOk ? '' : '(?!\\.)'}${re}$`, 's');
}

function readBracket(pattern: string, open: number): { source: string; end: number } | null {
  let i = open + 1;
  let negate = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negate = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === ']' && !first) return { source: `[${negate ? '^' : ''}${body}]`, end: i };
    first = false;
    if (c === '\\' && i + 1 < pattern.length) body += escapeClassChar(pattern[++i]);
    else if (c === '-' && body !== '' && pattern[i + 1] !== ']') body += '-';
    else body += escapeClassChar(c);
  }
  return null;
}

function escapeRegExp(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClassChar(c: string): string {
  return /[\]\\^-]/.test(c) ? `\\${c}` : c;
}
