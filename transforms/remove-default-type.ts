// Upgrade note "Run-Time Configuration Changes / Misc": DefaultType no longer has any effect (other than `none`, it warns).
import { directives, remove } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const removeDefaultType: Transform = {
  id: 'remove-default-type',
  title: 'Remove DefaultType',
  row: 'Misc: DefaultType has no effect; other than `DefaultType none` it logs a deprecation warning',
  order: 310,
  triggers: { directives: ['DefaultType'] },
  applyFile(tree, ctx) {
    for (const d of [...directives(tree, 'DefaultType')]) {
      if (isTwoTwoOnly(d)) continue;
      const value = d.values[0] ?? '';
      if (value.toLowerCase() === 'none') {
        ctx.note(d, 'default-type-removed', 'DefaultType none removed: it is the 2.4 behaviour', 'info');
      } else {
        ctx.note(
          d,
          'default-type-removed',
          `DefaultType ${value} removed: 2.4 sends no Content-Type for files of unknown type. ` +
            `If clients relied on "${value}", map the file names with AddType or ForceType ` +
            `(e.g. <FilesMatch "^[^.]+$"> ForceType ${value} </FilesMatch>)`,
          'review',
        );
      }
      remove(d);
    }
  },
};
