// Upgrade note "Modules: renamed (mod_disk_cache → mod_cache_disk, mod_authn_alias → mod_authn_core) and removed modules".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const renameModuleReferences: Transform = {
  id: 'rename-module-references',
  title: 'Rename, drop or flag LoadModule and IfModule lines for modules 2.4 renamed or removed',
  row: 'Modules: renamed (mod_disk_cache → mod_cache_disk, mod_authn_alias → mod_authn_core) and removed modules',
  order: 8900,
};
