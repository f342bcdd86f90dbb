/** A transform's request that a module be loaded on 2.4; the planner writes each once. */
export interface ModuleRequest {
  /** Module id as in LoadModule without `_module`, e.g. `authz_core`. */
  readonly module: string;
  readonly reason: string;
  readonly file: string;
  readonly line: number;
  readonly transform: string;
}
