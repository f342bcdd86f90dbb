// Upgrade note "Logging: DebugLevel option of CharsetOptions and ExtFilterOptions is replaced by per-module LogLevel".
//
// 2.4.71 rejects the option: `Invalid CharsetOptions option: DebugLevel=4`,
// `Invalid ExtFilterOptions option: DebugLevel=1` (measured, see __tests__/httpd-logging.test.ts).
// The 2.2 thresholds and the 2.4 levels of the same messages (from the modules' sources):
// - mod_charset_lite: 2 (misconfiguration) → debug, 4 (request flow) → trace3, 9 (gory) → trace6;
//   1 enabled nothing extra.
// - mod_ext_filter: 1 (options shown) → trace1, 9 (gory: child I/O) → trace6.
// The option is dropped from the list (the directive goes when nothing is left) and, where n enabled
// messages, `LogLevel charset_lite:LEVEL` / `ext_filter:LEVEL` goes beside it in the same section.
// LogLevel is not allowed in .htaccess: there the option is dropped and a finding says where to set it.
import { Directive, directives, remove } from '../src/cst';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { Transform } from './types';
import { guardedBy, levelShows, visibleLevel, writeModuleLevel } from '../src/semantics/log-level';

interface ModuleInfo {
  readonly module: string;
  readonly guards: readonly string[];
  level(n: number): string | null;
}

const MODULES: Record<string, ModuleInfo> = {
  charsetoptions: {
    module: 'charset_lite',
    guards: ['mod_charset_lite.c', 'charset_lite_module'],
    level: (n) => (n >= 9 ? 'trace6' : n >= 4 ? 'trace3' : n >= 2 ? 'debug' : null),
  },
  extfilteroptions: {
    module: 'ext_filter',
    guards: ['mod_ext_filter.c', 'ext_filter_module'],
    level: (n) => (n >= 9 ? 'trace6' : n >= 1 ? 'trace1' : null),
  },
};

const DEBUG_LEVEL = /^debuglevel=/i;

/** 2.2 read the number with atoi(). */
function levelOf(value: string): number {
  const m = /^\s*([+-]?\d+)/.exec(value.slice(value.indexOf('=') + 1));
  return m ? Number.parseInt(m[1], 10) : 0;
}

export const debugLevelOption: Transform = {
  id: 'debug-level-option',
  title: 'Replace the DebugLevel= option of CharsetOptions/ExtFilterOptions with per-module LogLevel',
  row: 'Logging: DebugLevel option of CharsetOptions and ExtFilterOptions is replaced by per-module LogLevel',
  order: 420,
  triggers: { directives: ['CharsetOptions', 'ExtFilterOptions'] },
  applyFile(tree, ctx) {
    const htaccess = ctx.file?.role === 'htaccess';
    const found: Directive[] = [...directives(tree, 'CharsetOptions', 'ExtFilterOptions')].filter(
      (d) => !isTwoTwoOnly(d) && d.values.some((v) => DEBUG_LEVEL.test(v)),
    );
    for (const d of found) {
      const info = MODULES[d.name.toLowerCase()];
      const options = d.values.filter((v) => DEBUG_LEVEL.test(v));
      const n = levelOf(options[options.length - 1]);
      const level = info.level(n);
      const rest = d.values.filter((v) => !DEBUG_LEVEL.test(v));
      const dropped = rest.length === 0;
      const what = `${d.name} ${options.join(' ')}`;
      const current = htaccess ? null : visibleLevel(d);
      const silent = level !== null && !levelShows(current, 'debug');
      if (level === null || htaccess || silent) {
        if (dropped) remove(d);
        else d.setArgs(rest);
        if (silent) {
          ctx.note(
            d,
            'debug-level-removed',
            `${what} removed: 2.4 has no DebugLevel option, and with LogLevel ${current} 2.2 printed none of these debug messages here ` +
              `(to see them on 2.4: LogLevel ${info.module}:${level})`,
            'info',
          );
        } else if (level !== null) {
          ctx.note(
            d,
            'debug-level-htaccess',
            `${what} removed: 2.4 has no DebugLevel option and LogLevel is not allowed in .htaccess; ` +
              `to keep these messages add "LogLevel ${info.module}:${level}" to the <Directory> of this .htaccess in the server config`,
            'review',
          );
        } else {
          ctx.note(d, 'debug-level-removed', `${what} removed: 2.4 has no DebugLevel option, and level ${n} enabled no messages in 2.2`, 'info');
        }
        continue;
      }
      const guarded = guardedBy(d, info.guards);
      let how;
      if (dropped) {
        how = writeModuleLevel(d, info.module, level, true);
      } else {
        d.setArgs(rest);
        how = writeModuleLevel(d, info.module, level, false);
      }
      if (!guarded) ctx.requireModule(info.module, `LogLevel ${info.module}:${level} replaces ${d.name} DebugLevel=`, d);
      ctx.note(
        d,
        'debug-level-replaced',
        `${what} is LogLevel ${info.module}:${level} in 2.4 (2.2 showed these messages only when LogLevel was debug)` +
          (how === 'merged' ? ', merged into the LogLevel of this section' : how === 'inserted' ? ', written after the later LogLevel of this section that would otherwise reset it' : ''),
        'info',
      );
    }
  },
};
