// Upgrade note "Run-Time Configuration Changes / Misc": NameVirtualHost no longer has any effect.
import { directives, remove } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const removeNameVirtualHost: Transform = {
  id: 'remove-name-virtual-host',
  title: 'Remove NameVirtualHost',
  row: 'Misc: NameVirtualHost has no effect (2.4 chooses name-based hosting per address:port by itself) and warns',
  order: 300,
  triggers: { directives: ['NameVirtualHost'] },
  applyFile(tree, ctx) {
    for (const d of [...directives(tree, 'NameVirtualHost')]) {
      if (isTwoTwoOnly(d)) continue;
      ctx.note(
        d,
        'name-virtual-host-removed',
        `NameVirtualHost ${d.values.join(' ')} removed: 2.4 uses name-based virtual hosting for any address:port that several <VirtualHost> blocks share`,
        'info',
      );
      remove(d);
    }
  },
};
