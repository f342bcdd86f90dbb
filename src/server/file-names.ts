/**
 * Name rules: which files a directory scan treats as configuration, which it
 * passes over as editor backups, and which names mark a main config.
 */
import * as path from 'path';

const BACKUP = [/~$/, /\.bak$/i, /\.orig$/i, /\.dpkg-[^/]*$/, /\.swp$/i, /^\.#/, /^#.*#$/];

/** Editor and package-manager leftovers: `x~`, `x.bak`, `x.orig`, `x.dpkg-old`, `.x.swp`. */
export function isEditorBackup(fileName: string): boolean {
  return BACKUP.some((re) => re.test(fileName));
}

/** httpd's default AccessFileName. */
export const DEFAULT_ACCESS_FILE_NAME = '.htaccess';

/**
 * `.htaccess` is always a per-directory file, whatever AccessFileName says:
 * no other file takes that name, and reading it as server configuration
 * would apply the wrong migrations.
 */
export function isHtaccess(fileName: string): boolean {
  return fileName === DEFAULT_ACCESS_FILE_NAME;
}

/**
 * The directory that `absPath` is the per-directory file of under the
 * AccessFileName value `name`, or null when the path does not end in that name.
 * httpd opens `<directory>/<name>` literally: case-sensitive, no wildcards, and
 * a name may hold `/` (`sub/.acl`, read for the directory above `sub`).
 */
export function accessFileDirectory(absPath: string, name: string): string | null {
  const wanted = name.split('/').filter((c) => c !== '');
  if (wanted.length === 0 || wanted.some((c) => c === '.' || c === '..')) return null;
  const parts = path.resolve(absPath).split(path.sep);
  if (parts.length <= wanted.length) return null;
  const tail = parts.slice(parts.length - wanted.length);
  if (!tail.every((c, i) => c === wanted[i])) return null;
  return parts.slice(0, parts.length - wanted.length).join(path.sep) || path.sep;
}

/** httpd.conf (upstream, RHEL) and apache2.conf (Debian) are main configs by name. */
export function isMainConfigName(fileName: string): boolean {
  return fileName === 'httpd.conf' || fileName === 'apache2.conf';
}

/** Directories whose every regular file is configuration (Debian and RHEL layouts). */
function isConfigDirectory(dirName: string): boolean {
  return dirName.startsWith('sites-') || dirName === 'conf.d' || dirName.startsWith('conf-');
}

export type ScannedKind = 'config' | 'backup' | 'other';

/** Classifies a file met while scanning a directory, by its absolute path. */
export function classifyScannedFile(absPath: string): ScannedKind {
  const name = path.basename(absPath);
  if (isEditorBackup(name)) return 'backup';
  const dir = path.basename(path.dirname(absPath));
  if (name.endsWith('.conf') || isHtaccess(name)) return 'config';
  if (name.endsWith('.load') && dir.startsWith('mods-')) return 'config';
  if (isConfigDirectory(dir)) return 'config';
  return 'other';
}
