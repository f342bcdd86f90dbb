// Upgrade note "Misc changes / mod_dav_fs": the format of the DavLockDB file has changed for systems
// with inodes. The old DavLockDB file must be deleted on upgrade.
// Deleting files is not something a config rewrite can do: a review finding names the files. Not
// manual: the config itself is right for 2.4 (a stale database costs the locks held, it does not stop
// httpd), and a finding that stays on every later run would keep the exit code at 1 for good.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const davLockDbFormat: Transform = {
  id: 'dav-lock-db-format',
  title: 'Report the DavLockDB format change (delete the old lock database)',
  row: 'mod_dav_fs: the format of the DavLockDB file has changed; the old DavLockDB file must be deleted on upgrade',
  order: 635,
  triggers: { directives: ['DavLockDB'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'DavLockDB')) {
      if (isTwoTwoOnly(d)) continue;
      const path = d.values[0];
      if (!path) continue;
      ctx.note(
        d,
        'dav-lock-db-delete',
        `the lock database format of mod_dav_fs changed in 2.4: stop httpd 2.2 and delete its lock database ` +
          `(${path}.dir and ${path}.pag${path.startsWith('/') ? '' : ', relative to ServerRoot'}) before starting 2.4; ` +
          `locks held by clients are lost, 2.4 creates a new database`,
        'review',
      );
    }
  },
};
