// Upgrade note "Misc changes / mod_substitute": the maximum line length is now limited to 1MB.
// (SubstituteMaxLineLength, 2.4.11 and later, sets the limit; 2.2 had none.) A response with a longer
// line fails in 2.4. Whether pages have such lines is not visible here: one info finding per section
// that uses Substitute without setting SubstituteMaxLineLength.
import { Container, Directive, directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';

export const substituteLineLimit: Transform = {
  id: 'substitute-line-limit',
  title: 'Report the mod_substitute line length limit (SubstituteMaxLineLength, 1 MB)',
  row: 'mod_substitute: the maximum line length is now limited to 1MB',
  order: 630,
  triggers: { directives: ['Substitute'] },
  applyFile(tree, ctx) {
    const first = new Map<Container, Directive>();
    const limited = new Set<Container>();
    for (const d of directives(tree, 'Substitute', 'SubstituteMaxLineLength')) {
      if (isTwoTwoOnly(d) || !d.parent) continue;
      if (d.is('SubstituteMaxLineLength')) limited.add(d.parent);
      else if (!first.has(d.parent)) first.set(d.parent, d);
    }
    for (const [container, d] of first) {
      if (limited.has(container)) continue;
      ctx.note(
        d,
        'substitute-line-limit',
        'mod_substitute in 2.4 stops with an error on a line longer than 1 MB (SubstituteMaxLineLength, default 1m; 2.2 had no limit): ' +
          'the client gets a truncated or failed response. If these responses can carry longer lines (minified scripts, JSON, inline data), ' +
          'add e.g. "SubstituteMaxLineLength 10m" beside this Substitute',
        'info',
      );
    }
  },
};
