// Upgrade note "Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7".
//
// 2.2's mod_dumpio logged at the level DumpIOLogLevel named (default debug), so its lines showed only when
// the context's LogLevel reached that level. 2.4.71 rejects DumpIOLogLevel ("Invalid command") and logs
// every dump at trace7 (measured: `[dumpio:trace7]` lines with `LogLevel warn dumpio:trace7`). So:
// - DumpIOLogLevel x → `LogLevel dumpio:trace7` in the same context (merged into the context's LogLevel
//   line, or written after a later one that would reset it: see rewrite-log-to-log-level);
// - when this context's LogLevel is visible and below x, 2.2 printed nothing: the line is only removed.
import { directives } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';
import { remove } from '../src/cst';
import { guardedBy, levelShows, visibleLevel, writeModuleLevel } from '../src/semantics/log-level';

const DUMPIO_GUARDS = ['mod_dumpio.c', 'dumpio_module'];

export const dumpIoLogLevel: Transform = {
  id: 'dump-io-log-level',
  title: 'Replace DumpIOLogLevel with LogLevel dumpio:trace7',
  row: 'Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7',
  order: 410,
  triggers: { directives: ['DumpIOLogLevel'] },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return;
    const found = [...directives(tree, 'DumpIOLogLevel')].filter((d) => !isTwoTwoOnly(d));
    // decide all before editing: a removed line must not hide a LogLevel another decision reads
    const plans = found.map((d) => {
      const wanted = (d.values[0] ?? 'debug').toLowerCase();
      const current = visibleLevel(d);
      const silent = !levelShows(current, wanted);
      return { d, wanted, current, silent };
    });
    for (const { d, wanted, current, silent } of plans) {
      if (!d.parent) continue;
      if (silent) {
        ctx.note(
          d,
          'dump-io-log-level-removed',
          `DumpIOLogLevel ${wanted} removed: with LogLevel ${current} 2.2 printed no dumpio lines here, so none are added (2.4 dumps at trace7: add LogLevel dumpio:trace7 to see them)`,
          'info',
        );
        remove(d);
        continue;
      }
      const guarded = guardedBy(d, DUMPIO_GUARDS);
      const how = writeModuleLevel(d, 'dumpio', 'trace7', true);
      if (!guarded) ctx.requireModule('dumpio', 'LogLevel dumpio:trace7 replaces DumpIOLogLevel', d);
      ctx.note(
        d,
        'dump-io-log-level-replaced',
        `DumpIOLogLevel ${wanted} is LogLevel dumpio:trace7 in 2.4 (mod_dumpio always logs at trace7)` +
          (how === 'merged' ? ', merged into the LogLevel of this context' : how === 'inserted' ? ', written after the later LogLevel of this context that would otherwise reset it' : ''),
        'info',
      );
    }
  },
};
