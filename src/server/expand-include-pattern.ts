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

/** What a path is, when a directory listing already said so (a symlink is followed by a stat). */
type Kind = 'file' | 'directory' | 'other';

function kindOf(p: string, entry: fs.Dirent | null): Kind | null {
  if (entry && !entry.isSymbolicLink()) return entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : 'other';
  const stat = statOrNull(p);
  if (!stat) return null;
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
}

export function expandIncludePattern(absPattern: string): string[] {
  const normalized = path.resolve(absPattern);
  const root = path.parse(normalized).root;
  const components = normalized.slice(root.length).split(path.sep).filter((c) => c !== '');

  // each candidate with the directory entry it was listed under, if any (saves a stat per matched file)
  let current: { path: string; entry: fs.Dirent | null }[] = [{ path: root, entry: null }];
  components.forEach((component, i) => {
    const last = i === components.length - 1;
    const next: { path: string; entry: fs.Dirent | null }[] = [];
    for (const { path: dir } of current) {
      if (!hasWildcard(component)) {
        const candidate = path.join(dir, component);
        if (last || isDirectory(candidate)) next.push({ path: candidate, entry: null });
        continue;
      }
      const matcher = fnmatchRegExp(component);
      for (const entry of readDirectory(dir)) {
        if (!matcher.test(entry.name) || isEditorBackup(entry.name)) continue;
        const candidate = path.join(dir, entry.name);
        if (last || kindOf(candidate, entry) === 'directory') next.push({ path: candidate, entry });
      }
    }
    current = next;
  });

  const out: string[] = [];
  for (const { path: p, entry } of current) {
    const kind = kindOf(p, entry);
    if (kind === 'directory') listFilesBelow(p, out, new Set());
    else if (kind === 'file') out.push(p);
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
  for (const entry of readDirectory(dir)) {
    if (isEditorBackup(entry.name)) continue;
    const p = path.join(dir, entry.name);
    const kind = kindOf(p, entry);
    if (kind === 'directory') listFilesBelow(p, out, seen);
    else if (kind === 'file') out.push(p);
  }
}

/** A directory's entries sorted by name (code-unit order); none when it cannot be read. */
function readDirectory(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => comparePaths(a.name, b.name));
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
