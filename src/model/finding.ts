/** info: done, tell the user. review: done, a human should look. manual: not done, a human must act. */
export type Severity = 'info' | 'review' | 'manual';

/** What a transform did or could not do, at a file and line. */
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
