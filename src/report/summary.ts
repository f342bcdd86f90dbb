/** The summary line shown after every run, like jscodeshift's. */
import { Summary } from '../model/run-report';

export type { Summary };

export function summaryLine(s: Summary, verb: 'changed' | 'would change'): string {
  return (
    `${s.changed} ${verb === 'changed' ? 'changed' : 'to change'}, ${s.unchanged} unchanged, ${s.skipped} skipped, ` +
    `${s.needReview} need review, ${s.needManual} need manual action, ${s.errors} ${s.errors === 1 ? 'error' : 'errors'}`
  );
}
