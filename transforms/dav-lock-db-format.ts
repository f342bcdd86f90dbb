// Upgrade note "mod_dav_fs: the DavLockDB format changed; delete the old lock database".
// STUB: registered, not yet implemented.
import { Transform } from './types';

export const davLockDbFormat: Transform = {
  id: 'dav-lock-db-format',
  title: 'Report the DavLockDB format change',
  row: 'mod_dav_fs: the DavLockDB format changed; delete the old lock database',
  order: 635,
};
