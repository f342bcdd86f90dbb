/** Counts shown after every run, like jscodeshift's summary. */
import { RunResult } from '../run/runner';

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

export function summarize(result: RunResult): Summary {
  const filesWith = (severity: string) => new Set(result.findings.filter((f) => f.severity === severity).map((f) => f.file)).size;
  return {
    changed: result.files.filter((f) => f.status === 'changed').length,
    unchanged: result.files.filter((f) => f.status === 'unchanged').length,
    skipped: result.skipped.length,
    errors: result.errors.length,
    needReview: filesWith('review'),
    needManual: filesWith('manual'),
  };
}

export function summaryLine(s: Summary, verb: 'changed' | 'would change'): string {
  return (
    `${s.changed} ${verb === 'changed' ? 'changed' : 'to change'}, ${s.unchanged} unchanged, ${s.skipped} skipped, ` +
    `${s.needReview} need review, ${s.needManual} need manual action, ${s.errors} ${s.errors === 1 ? 'error' : 'errors'}`
  );
}
