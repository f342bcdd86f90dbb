// Upgrade note "Run-Time Configuration Changes / MPM": MaxClients is now MaxRequestWorkers.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const renameMaxClients: Transform = {
  id: 'rename-max-clients',
  title: 'Rename MaxClients to MaxRequestWorkers',
  row: 'MPM: MaxClients → MaxRequestWorkers (the old name is a deprecated alias)',
  order: 200,
  triggers: { directives: ['MaxClients'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'MaxClients')) {
      if (isTwoTwoOnly(d)) continue;
      d.rename('MaxRequestWorkers');
      ctx.note(d, 'max-clients-renamed', 'MaxClients is called MaxRequestWorkers in 2.4', 'info');
    }
  },
};
