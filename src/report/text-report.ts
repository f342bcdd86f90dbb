/**
 * What a text run prints on stderr after the diff: the findings (or, with --check, the files that
 * would change), the verification lines, the errors and the summary line.
 */
import { Mode, Summary } from '../model/run-report';
import { InputError, ServerOutcome } from '../model/server-outcome';
import { errorLine, findingLines } from './findings';
import { summaryLine } from './summary';
import { verificationLines } from './verification';

export function textReport(servers: readonly ServerOutcome[], errors: readonly InputError[], summary: Summary, mode: Mode, options: { quiet?: boolean } = {}): string {
  const first =
    mode === 'check'
      ? servers.flatMap((s) => s.files.filter((f) => f.status === 'changed').map((f) => `would change: ${f.path}`))
      : findingLines(
          servers.flatMap((s) => s.findings),
          options,
        );
  // concat, not push(...list): a fleet's finding lines outnumber the arguments one call can take
  // (a 1,000-server run has 160,000 of them; V8 throws past about 120,000)
  const lines = first.concat(verificationLines(servers, mode, options), errors.map(errorLine), [summaryLine(summary, mode === 'write' ? 'changed' : 'would change')]);
  return lines.map((l) => l + '\n').join('');
}
