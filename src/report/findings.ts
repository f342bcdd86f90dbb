/** Human-readable lines for findings and errors (stderr). */
import { Finding } from '../model/finding';
import { InputError } from '../server/types';

const RANK = { manual: 0, review: 1, info: 2 } as const;

export function findingLines(findings: readonly Finding[], options: { quiet?: boolean } = {}): string[] {
  return [...findings]
    .filter((f) => !options.quiet || f.severity !== 'info')
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || RANK[a.severity] - RANK[b.severity])
    .map((f) => `${f.file}${f.line > 0 ? ':' + f.line : ''}: ${f.severity} [${f.code}] ${f.message}`);
}

export function errorLine(error: InputError): string {
  return `error: ${error.path}${error.line ? ':' + error.line : ''}: ${error.message}`;
}
