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

export function isHtaccess(fileName: string): boolean {
  return fileName === '.htaccess';
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
