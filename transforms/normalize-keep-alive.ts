// Upgrade note "Run-Time Configuration Changes / Misc": KeepAlive only accepts On and Off.
// httpd 2.2 treated "Off" and "0" as off and any other value as on; 2.4 rejects anything but On/Off.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const normalizeKeepAlive: Transform = {
  id: 'normalize-keep-alive',
  title: 'Normalise KeepAlive values to On/Off',
  row: 'Misc: KeepAlive accepts only On/Off (2.2 took any value but Off/0 as On)',
  order: 320,
  triggers: { directives: ['KeepAlive'] },
  applyFile(tree, ctx) {
    for (const d of directives(tree, 'KeepAlive')) {
      if (isTwoTwoOnly(d) || d.values.length !== 1) continue;
      const value = d.values[0];
      const lower = value.toLowerCase();
      if (lower === 'on' || lower === 'off') continue;
      const meant = lower === '0' ? 'Off' : 'On';
      d.setArgs([meant]);
      ctx.note(d, 'keep-alive-normalized', `KeepAlive ${value} meant ${meant} in 2.2; 2.4 accepts only On or Off`, 'info');
    }
  },
};
