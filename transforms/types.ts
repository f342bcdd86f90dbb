/**
 * The transform contract. A transform edits one file's tree at a time
 * (`applyFile`) or a whole server once (`applyServer`), records findings
 * with `ctx.note`, and asks for cross-cutting work (`ctx.requireModule`)
 * instead of doing it inline: the module planner, which runs last, writes
 * each needed LoadModule once.
 */
import { ConfigFile, Node } from '../src/cst';
import { ServerTree, SourceFile } from '../src/server/types';

/** info: done, tell the user. review: done, a human should look. manual: not done, a human must act. */
export type Severity = 'info' | 'review' | 'manual';

export interface Finding {
  /** Stable kebab-case code, e.g. `name-virtual-host-removed`. */
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  /** Display path of the file. */
  readonly file: string;
  /** 1-based line in the original file; 0 when the finding is about the file or server as a whole. */
  readonly line: number;
  /** Id of the transform that reported it. */
  readonly transform: string;
}

export interface ModuleRequest {
  /** Module id as in LoadModule without `_module`, e.g. `authz_core`. */
  readonly module: string;
  readonly reason: string;
  readonly file: string;
  readonly line: number;
  readonly transform: string;
}

export interface RunOptions {
  /** `--httpd PATH`: a 2.4 httpd binary to probe (-l, -V) for built-in modules and the module directory. */
  readonly httpd?: string;
  /** `--mpm`: the MPM to load when the 2.2 config names none (2.2 compiled it in). Default prefork. */
  readonly mpm?: 'prefork' | 'worker' | 'event';
  /** `--pin-defaults`: write the 2.2 values of settings whose default changed in 2.4. */
  readonly pinDefaults?: boolean;
  /** `--dual-syntax`: access rules that work on both 2.2 and 2.4 (IfModule mod_authz_core.c pairs). */
  readonly dualSyntax?: boolean;
}

export interface TransformContext {
  readonly server: ServerTree;
  /** The file being transformed (null in applyServer). */
  readonly file: SourceFile | null;
  readonly options: RunOptions;
  /** Records a finding about `node` (or the whole file when null) in the current file. */
  note(node: Node | null, code: string, message: string, severity?: Severity): void;
  /** Records a finding about a node in another file of the server (used by server-wide transforms). */
  noteIn(file: SourceFile, node: Node | null, code: string, message: string, severity?: Severity): void;
  /** Asks the module planner to make sure `module` is loaded on 2.4. */
  requireModule(module: string, reason: string, node?: Node | null): void;
  /** Everything requireModule collected so far for this server. */
  readonly moduleRequests: readonly ModuleRequest[];
}

export interface Transform {
  /** kebab-case, equal to the file name under transforms/. */
  readonly id: string;
  readonly title: string;
  /** The upgrade-note row (section and change) this implements. */
  readonly row: string;
  /** Lower runs first. The module planner runs at 9000. */
  readonly order: number;
  /** Ids that must run before this one; checked when the registry loads. */
  readonly runsAfter?: readonly string[];
  applyFile?(tree: ConfigFile, ctx: TransformContext): void;
  applyServer?(server: ServerTree, ctx: TransformContext): void;
}
