// Upgrade note "Logging: RewriteLog and RewriteLogLevel are replaced by per-module LogLevel".
//
// Measured on httpd 2.4.71 (see __tests__/httpd-logging.test.ts):
// - mod_rewrite logs its level-N trace at `traceN` (APLOG_DEBUG + N), the same N that 2.2 compared with
//   RewriteLogLevel; with a RewriteMap at trace8 it emits trace2..trace6, so 2.2 levels 1..8 map to
//   trace1..trace8 one to one and 9 (2.2's maximum) is capped at trace8 (same output).
// - A LogLevel that sets the main level (`LogLevel warn`) resets the module levels set earlier in the same
//   context; `LogLevel rewrite:trace3` alone keeps (inherits) the main level. So the module level is merged
//   into the context's last main-level LogLevel when both are unconditional, else written after it.
// - `LogLevel rewrite:…` fails (`Cannot find module rewrite`) without mod_rewrite: a line that was under
//   `<IfModule mod_rewrite.c>` stays under that guard; an unguarded one schedules mod_rewrite.
// 2.2 semantics kept: no RewriteLog (or RewriteLog /dev/null, or level 0) means nothing was logged, so nothing
// is logged on 2.4 either; without `RewriteOptions inherit` a VirtualHost did not inherit the main server's
// RewriteLog/RewriteLogLevel.
import { ConfigFile, Container, Directive, directives, remove, walk } from '../src/cst';
import { SourceFile } from '../src/server/types';
import { isTwoTwoOnly } from '../src/semantics/version-guards';
import { guardedBy, scopeDirectives, serverScope, writeModuleLevel } from '../src/semantics/log-level';
import { Transform, TransformContext } from './types';

// ---------------------------------------------------------------------------
// The transform
// ---------------------------------------------------------------------------

const REWRITE_GUARDS = ['mod_rewrite.c', 'rewrite_module'];

/** 2.2's atoi() of RewriteLogLevel's argument. */
function atoi(text: string): number {
  const m = /^\s*([+-]?\d+)/.exec(text);
  return m ? Number.parseInt(m[1], 10) : 0;
}

/** A RewriteLog target that logged something in 2.2 (not empty, not /dev/null). */
function logsSomewhere(d: Directive): boolean {
  const target = (d.values[0] ?? '').trim();
  return target !== '' && target !== '/dev/null';
}

interface Context {
  readonly scope: Container;
  readonly logs: Directive[];
  readonly levels: Directive[];
}

/** RewriteLog/RewriteLogLevel lines grouped per server context (main server, each VirtualHost). */
function contextsOf(tree: ConfigFile): Context[] {
  const byScope = new Map<Container, Context>();
  for (const d of directives(tree, 'RewriteLog', 'RewriteLogLevel')) {
    if (isTwoTwoOnly(d)) continue;
    const scope = serverScope(d);
    let c = byScope.get(scope);
    if (!c) byScope.set(scope, (c = { scope, logs: [], levels: [] }));
    (d.is('RewriteLog') ? c.logs : c.levels).push(d);
  }
  return [...byScope.values()];
}

/** Server-level (outside any VirtualHost) lines of `name` in the server's other files. */
function serverLevelElsewhere(files: readonly SourceFile[], self: ConfigFile, name: string): Directive[] {
  const out: Directive[] = [];
  for (const f of files) {
    if (f.tree === self) continue;
    for (const d of directives(f.tree, name)) if (!isTwoTwoOnly(d) && serverScope(d) === f.tree) out.push(d);
  }
  return out;
}

function inheritsRewrite(scope: Container): boolean {
  return scopeDirectives(scope, 'RewriteOptions').some((d) => d.values.some((v) => v.toLowerCase() === 'inherit'));
}

function hasVirtualHosts(files: readonly SourceFile[]): boolean {
  return files.some((f) => [...walk(f.tree)].some((n) => n.kind === 'section' && n.is('VirtualHost') && !isTwoTwoOnly(n)));
}

interface Plan {
  readonly logs: Directive[];
  readonly level: number;
  readonly logKnown: boolean;
}

/** What 2.2 did in a context: the RewriteLog targets in effect, the level, whether the log target is known. Read-only. */
function planContext(tree: ConfigFile, c: Context, ctx: TransformContext): Plan {
  const isServer = c.scope.kind === 'file';
  const files = ctx.server.files;
  const levelLine = c.levels[c.levels.length - 1];
  let logs = c.logs.filter(logsSomewhere);
  let level = levelLine ? atoi(levelLine.values[0] ?? '') : 0;
  let logKnown = true;
  const mainLines = (name: string) =>
    files.flatMap((f) => [...directives(f.tree, name)].filter((d) => !isTwoTwoOnly(d) && serverScope(d) === f.tree));
  if (isServer) {
    // the main server's lines may be split over files (httpd.conf + conf.d/…)
    if (c.logs.length === 0) logs = serverLevelElsewhere(files, tree, 'RewriteLog').filter(logsSomewhere);
    if (!levelLine) {
      const otherLevels = serverLevelElsewhere(files, tree, 'RewriteLogLevel');
      if (otherLevels.length > 0) level = atoi(otherLevels[otherLevels.length - 1].values[0] ?? '');
    }
    if (!ctx.server.main && logs.length === 0 && c.logs.length === 0) logKnown = false;
  } else if (inheritsRewrite(c.scope)) {
    // `RewriteOptions inherit`: what the VirtualHost leaves unset comes from the main server
    if (c.logs.length === 0) logs = mainLines('RewriteLog').filter(logsSomewhere);
    const mainLevels = mainLines('RewriteLogLevel');
    if (level === 0 && mainLevels.length > 0) level = atoi(mainLevels[mainLevels.length - 1].values[0] ?? '');
    if (!ctx.server.main && logs.length === 0 && c.logs.length === 0) logKnown = false;
  }
  return { logs, level, logKnown };
}

function migrateContext(c: Context, plan: Plan, ctx: TransformContext): void {
  const isServer = c.scope.kind === 'file';
  const where = isServer ? 'the main server' : 'this VirtualHost';
  const files = ctx.server.files;
  const { logs, level, logKnown } = plan;
  const levelLine = c.levels[c.levels.length - 1];
  const active = level > 0 && (logs.length > 0 || !logKnown);
  const trace = `trace${Math.min(Math.max(level, 1), 8)}`;
  if (active && levelLine) {
    const guarded = guardedBy(levelLine, REWRITE_GUARDS);
    for (const d of c.levels.slice(0, -1)) {
      ctx.note(d, 'rewrite-log-removed', `${d.name} removed: a later RewriteLogLevel in this context overrides it`, 'info');
      remove(d);
    }
    const how = writeModuleLevel(levelLine, 'rewrite', trace, true);
    if (!guarded) ctx.requireModule('rewrite', `LogLevel rewrite:${trace} replaces RewriteLogLevel`, levelLine);
    const capped = level > 8 ? ` (2.2 level ${level} capped: 2.4 stops at trace8, and mod_rewrite logs nothing above trace6)` : '';
    let severity: 'info' | 'review' = 'info';
    let extra = '';
    if (!logKnown) {
      severity = 'review';
      extra = '; no RewriteLog is visible in this run: if the main config had none, 2.2 logged nothing and this line can go';
    } else if (isServer && hasVirtualHosts(files)) {
      severity = 'review';
      extra = `; VirtualHosts without their own main-level LogLevel inherit rewrite:${trace} on 2.4 (2.2 logged their rewriting only with RewriteOptions inherit)`;
    }
    const placed =
      how === 'merged'
        ? ', merged into the LogLevel of this context'
        : how === 'inserted'
          ? ', written after the later LogLevel of this context that would otherwise reset it'
          : '';
    ctx.note(levelLine, 'rewrite-log-replaced', `RewriteLogLevel ${level} is LogLevel rewrite:${trace} in 2.4${capped}${placed}${extra}`, severity);
  }
  if (active) {
    for (const d of c.logs) {
      if (logsSomewhere(d)) {
        ctx.note(
          d,
          'rewrite-log-file-gone',
          `RewriteLog ${d.values[0] ?? ''} removed: 2.4 has no separate rewrite log; the trace goes to the ErrorLog of ${where}, ` +
            `tagged [rewrite:traceN] (filter with: grep '\\[rewrite:')`,
          'review',
        );
      } else {
        ctx.note(d, 'rewrite-log-removed', `RewriteLog ${d.values[0] ?? ''} removed: it discarded the trace`, 'info');
      }
      remove(d);
    }
    return;
  }
  // nothing was logged by 2.2 in this context: nothing to keep
  const why =
    level <= 0
      ? 'RewriteLogLevel is 0 (or unset), so 2.2 logged nothing in this context'
      : c.logs.length > 0
        ? `RewriteLog ${c.logs[c.logs.length - 1].values[0] ?? ''} discarded the trace`
        : 'there is no RewriteLog for this context, so 2.2 logged nothing in this context';
  for (const d of [...c.levels, ...c.logs].sort((a, b) => a.line - b.line)) {
    ctx.note(d, 'rewrite-log-removed', `${d.name} removed: ${why}; 2.4 has no such directive`, 'info');
    remove(d);
  }
}

export const rewriteLogToLogLevel: Transform = {
  id: 'rewrite-log-to-log-level',
  title: 'Replace RewriteLog/RewriteLogLevel with LogLevel rewrite:traceN',
  row: 'Logging: RewriteLog and RewriteLogLevel are replaced by per-module LogLevel',
  order: 400,
  triggers: { directives: ['RewriteLog', 'RewriteLogLevel'] },
  applyFile(tree, ctx) {
    if (ctx.file?.role === 'htaccess') return; // server-config directives: never valid there
    // decide every context first: the main server's lines are read again for `RewriteOptions inherit`
    const plans = contextsOf(tree).map((c) => [c, planContext(tree, c, ctx)] as const);
    for (const [c, plan] of plans) migrateContext(c, plan, ctx);
  },
};
