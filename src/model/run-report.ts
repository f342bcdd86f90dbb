/**
 * Everything one invocation produced, server by server: what every output format (text, JSON,
 * SARIF, GitHub annotations, the review site) is rendered from.
 */
import { InputError, ServerOutcome } from './server-outcome';

export type Mode = 'diff' | 'write' | 'check';

/** Counts shown after every run, like jscodeshift's summary (files, not servers). */
export interface Summary {
  readonly changed: number;
  readonly unchanged: number;
  readonly skipped: number;
  readonly errors: number;
  /** Files with at least one finding of severity review. */
  readonly needReview: number;
  /** Files with at least one finding of severity manual. */
  readonly needManual: number;
}

export interface SkippedFile {
  readonly path: string;
  readonly reason: string;
}

export interface RunReport {
  readonly mode: Mode;
  /** In a stable order (by main config path), the same for any number of workers. */
  readonly servers: readonly ServerOutcome[];
  /** Errors that belong to no server (a path on the command line that does not exist, …). */
  readonly errors: readonly InputError[];
  readonly skipped: readonly SkippedFile[];
  readonly summary: Summary;
}
