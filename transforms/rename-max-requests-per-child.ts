// Upgrade note "Run-Time Configuration Changes / MPM": MaxRequestsPerChild is now MaxConnectionsPerChild.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const renameMaxRequestsPerChild: Transform = {
  id: 'rename-max-requests-per-child',
  title: 'Rename MaxRequestsPerChild to MaxConnectionsPerChild',
  row: 'MPM: MaxRequestsPerChild → MaxConnectionsPerChild (the old name is a deprecated alias)',
  order: 210,
  triggers: { directives: ['MaxRequestsPerChild'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'MaxRequestsPerChild')) {
      if (isTwoTwoOnly(d)) continue;
      d.rename('MaxConnectionsPerChild');
      ctx.note(
        d,
        'max-requests-per-child-renamed',
        'MaxRequestsPerChild is called MaxConnectionsPerChild in 2.4 (it counts connections, as it did in 2.2)',
        'info',
      );
    }
  },
};
