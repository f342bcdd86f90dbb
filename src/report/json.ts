/** The machine-readable report (`--format json`). */
import { RunResult } from '../run/runner';
import { Summary } from './summary';

export function jsonReport(result: RunResult, summary: Summary, patch: string, mode: string): string {
  return (
    JSON.stringify(
      {
        tool: 'httpd-codemod',
        mode,
        summary,
        files: result.files.map((f) => ({
          path: f.file.displayPath,
          role: f.file.role,
          status: f.status,
          ...(f.error ? { error: f.error.message, line: f.error.line ?? null } : {}),
        })),
        findings: result.findings,
        errors: result.errors,
        skipped: result.skipped,
        patch,
      },
      null,
      2,
    ) + '\n'
  );
}
