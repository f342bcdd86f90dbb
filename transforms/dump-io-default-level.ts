// Upgrade note "Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7" — the case without a
// DumpIOLogLevel line.
//
// 2.2's mod_dumpio logged the I/O of a server (main or <VirtualHost>, per connection: c->base_server) with
// `DumpIOInput On` / `DumpIOOutput On` at DumpIOLogLevel, default `debug`, so the dump showed whenever that
// server's LogLevel (its own, else the main server's; 2.2's default `warn`) was `debug`. 2.4.71 dumps at
// trace7 (measured: `LogLevel debug` + `DumpIOInput On` logs no dumpio line at all; `LogLevel debug
// dumpio:trace7` logs the request, see __tests__/httpd-ssl-followups.test.ts). dump-io-log-level handles
// servers with a DumpIOLogLevel line; this one handles the others:
// - where 2.2 dumped (an enabled DumpIO flag, the server's LogLevel debug), `LogLevel dumpio:trace7` is
//   written for that server (merged into its LogLevel line, or a module-only line that keeps the inherited
//   level; see writeModuleLevel) and mod_dumpio is requested unless the lines sit under <IfModule mod_dumpio.c>;
// - where 2.2 printed nothing (LogLevel above debug, or the DumpIO flags Off), nothing changes;
// - where the level cannot be seen (a fragment whose server's main config is not in the run), nothing is
//   written (trace7 dumps every byte, request bodies and credentials included) and a `review` finding says
//   what to add if that server ran at debug.
// mod_dumpio merges no per-server configuration, so a <VirtualHost> does not inherit the main server's
// DumpIO flags (in 2.2 and 2.4 alike): each server is decided on its own.
import { ConfigFile, Container, Directive, directives } from '../src/cst';
import { guardedBy, levelShows, logScope, mainLevelOf, scopeDirectives, serverScope, setsMainLevel, visibleLevel, writeModuleLevel } from '../src/semantics/log-level';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { ServerTree } from '../src/server/types';
import { Transform, TransformContext } from './types';

const DUMPIO_GUARDS = ['mod_dumpio.c', 'dumpio_module'];
const DUMPIO_NAMES = ['dumpio', 'mod_dumpio.c', 'dumpio_module'];
/** 2.2's LogLevel when none is set. */
const DEFAULT_LEVEL_22 = 'warn';

/** Whether a LogLevel line of the scope already sets mod_dumpio's level (2.4 syntax: nothing to add). */
function setsDumpioLevel(scope: Container): boolean {
  return scopeDirectives(scope, 'LogLevel').some((d) =>
    d.values.some((v) => v.includes(':') && DUMPIO_NAMES.includes(v.slice(0, v.lastIndexOf(':')).toLowerCase())),
  );
}

/** The main server's LogLevel from the server's main config, when the run holds it. */
function mainServerLevel(server: ServerTree, here: ConfigFile): string | null | undefined {
  const main = server.main;
  if (!main) return undefined;
  if (main.tree === here) return DEFAULT_LEVEL_22; // the file itself was searched: no LogLevel at all
  const lines = scopeDirectives(main.tree, 'LogLevel').filter(setsMainLevel);
  return lines.length > 0 ? mainLevelOf(lines[lines.length - 1]) : DEFAULT_LEVEL_22;
}

function decide(scope: Container, flags: Directive[], tree: ConfigFile, ctx: TransformContext): void {
  // the last DumpIOInput and the last DumpIOOutput of the server decide (later lines override earlier ones)
  const last = new Map<string, Directive>();
  for (const d of flags) last.set(d.name.toLowerCase(), d);
  const on = [...last.values()].filter((d) => (d.values[0] ?? '').toLowerCase() === 'on');
  if (on.length === 0) return;
  if (scopeDirectives(scope, 'DumpIOLogLevel').length > 0) return; // dump-io-log-level's case
  if (setsDumpioLevel(scope)) return;
  const at = on.reduce((a, b) => (a.line >= b.line ? a : b));
  const what = on.map((d) => `${d.name} ${d.values[0]}`).join(', ');
  let level = visibleLevel(at);
  if (level === null) level = ctx.file?.role === 'main' ? DEFAULT_LEVEL_22 : mainServerLevel(ctx.server, tree) ?? null;
  if (level === null) {
    ctx.note(
      at,
      'dump-io-level-unknown',
      `${what}: 2.2 dumped this server's I/O at level debug when its LogLevel was debug; 2.4 dumps at trace7, so nothing is logged any more. ` +
        "The server's LogLevel is set outside the files of this run: if it is debug, add LogLevel dumpio:trace7 here",
      'review',
    );
    return;
  }
  if (!levelShows(level, 'debug')) return;
  const guarded = guardedBy(at, DUMPIO_GUARDS);
  const how = writeModuleLevel(at, 'dumpio', 'trace7', false);
  if (!guarded) ctx.requireModule('dumpio', 'LogLevel dumpio:trace7 keeps the DumpIO output 2.2 logged at debug', at);
  ctx.note(
    at,
    'dump-io-level-added',
    `${what} with LogLevel ${level}: 2.2 logged the dump at debug (the DumpIOLogLevel default); 2.4 logs it at trace7, so LogLevel dumpio:trace7 is ` +
      (how === 'merged' ? 'added to the LogLevel of this server' : how === 'inserted' ? 'written after the later LogLevel of this server that would otherwise reset it' : 'added'),
    'info',
  );
}

export const dumpIoDefaultLevel: Transform = {
  id: 'dump-io-default-level',
  title: 'Keep the DumpIO output 2.2 logged at its default level (LogLevel dumpio:trace7)',
  row: 'Logging: DumpIOLogLevel is replaced by LogLevel dumpio:trace7 (2.2 default debug, no DumpIOLogLevel line)',
  order: 412,
  runsAfter: ['dump-io-log-level'],
  triggers: { directives: ['DumpIOInput', 'DumpIOOutput'] },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return;
    const byServer = new Map<Container, Directive[]>();
    for (const d of directives(tree, 'DumpIOInput', 'DumpIOOutput')) {
      if (isTwoTwoOnly(d)) continue;
      const scope = serverScope(d);
      if (logScope(d) !== scope) continue; // not allowed inside <Directory> and the like: 2.2 refused it
      byServer.set(scope, [...(byServer.get(scope) ?? []), d]);
    }
    for (const [scope, flags] of byServer) decide(scope, flags, tree, ctx);
  },
};
