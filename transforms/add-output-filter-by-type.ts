// Upgrade note "mod_filter: AddOutputFilterByType moved from the core to mod_filter".
// Measured on 2.4.71 without mod_filter: `Invalid command 'AddOutputFilterByType', perhaps
// misspelled or defined by a module not included in the server configuration`. The text
// stays as it is; the module planner loads mod_filter once per server.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const addOutputFilterByType: Transform = {
  id: 'add-output-filter-by-type',
  title: 'Load mod_filter for AddOutputFilterByType',
  row: 'mod_filter: AddOutputFilterByType moved from the core to mod_filter',
  order: 510,
  triggers: { directives: ['AddOutputFilterByType'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'AddOutputFilterByType')) {
      if (isTwoTwoOnly(d)) continue;
      ctx.requireModule('filter', 'AddOutputFilterByType is a mod_filter directive in 2.4', d);
      ctx.note(
        d,
        'add-output-filter-by-type-needs-filter',
        'AddOutputFilterByType needs mod_filter in 2.4 (it was a core directive in 2.2)',
        'info',
      );
    }
  },
};
