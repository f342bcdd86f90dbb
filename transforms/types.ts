/**
 * The transform contract. A transform edits one file's tree at a time
 * (`applyFile`) or a whole server once (`applyServer`), records findings
 * with `ctx.note`, and asks for cross-cutting work (`ctx.requireModule`)
 * instead of doing it inline: the module planner, which runs last, writes
 * each needed LoadModule once.
 */
import { ConfigFile, Node } from '../src/cst';
import { ServerTree, SourceFile } from '../src/server/types';
import { Finding, Severity } from '../src/model/finding';
import { ModuleRequest } from '../src/model/module-request';
import { RunOptions } from '../src/model/run-options';
import { ModulePlanEntry } from '../src/model/server-outcome';

export type { Finding, Severity, ModuleRequest, RunOptions };

export interface TransformContext {
  readonly server: ServerTree;
  /** The file being transformed (null in applyServer). */
  readonly file: SourceFile | null;
  readonly options: RunOptions;
  /** Records a finding about `node` (or the whole file when null) in the current file. */
  note(node: Node | null, code: string, message: string, severity?: Severity): void;
  /** Records a finding about a node in another file of the server (used by server-wide transforms). */
  noteIn(file: SourceFile, node: Node | null, code: string, message: string, severity?: Severity): void;
  /** Records one module of the server's plan (the module planner: what it loaded, what must be loaded elsewhere). */
  planModule(entry: ModulePlanEntry): void;
  /**
   * Asks the module planner to make sure `module` is loaded on 2.4; `at` (a node, or a file of the
   * server) says which file needs it (a file placed as if included only gets it reported).
   */
  requireModule(module: string, reason: string, at?: Node | SourceFile | null): void;
  /** Everything requireModule collected so far for this server. */
  readonly moduleRequests: readonly ModuleRequest[];
}

export interface Triggers {
  readonly directives?: readonly string[];
  readonly sections?: readonly string[];
}

export interface Transform {
  /** kebab-case, equal to the file name under transforms/. */
  readonly id: string;
  readonly title: string;
  /** The upgrade-note row (section and change) this implements. */
  readonly row: string;
  /** Lower runs first. The module planner runs at 9000. */
  readonly order: number;
  /**
   * The transform writes back what 2.2 meant (a default, a parser, a shell): files written for 2.4
   * (SourceFile.writtenFor24) mean what they say already and are not shown to it.
   */
  readonly restores22Meaning?: boolean;
  /** Ids that must run before this one; checked when the registry loads. */
  readonly runsAfter?: readonly string[];
  /**
   * The names this transform acts on, when it acts on nothing else (optional): directive names and
   * section names (`VirtualHost` for `<VirtualHost>`), compared case-insensitively. When given,
   * applyFile runs only on files that hold one of them, and applyServer only when some file of
   * the server does; a file or server with none of them is skipped. Without it, the transform
   * runs on every file and every server, as before.
   */
  readonly triggers?: Triggers;
  applyFile?(tree: ConfigFile, ctx: TransformContext): void;
  applyServer?(server: ServerTree, ctx: TransformContext): void;
}
