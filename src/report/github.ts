/**
 * `--format github`: GitHub Actions workflow commands, one annotation per finding and per error
 * (`::error file=…,line=…,title=…::message`). manual → error, review → warning, info → notice.
 * A finding about a whole file (line 0) has no line property. Escaping as the runner reads it:
 * in the message %, CR and LF; in property values also : and ,.
 */
import { Finding, Severity } from '../model/finding';
import { RunReport } from '../model/run-report';
import { InputError } from '../model/server-outcome';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { manual: 'error', review: 'warning', info: 'notice' };

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function annotation(command: string, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${command}${props ? ' ' + props : ''}::${escapeData(message)}\n`;
}

function findingAnnotation(f: Finding): string {
  return annotation(COMMAND[f.severity], { file: f.file, line: f.line > 0 ? f.line : undefined, title: `${f.code} (${f.severity})` }, f.message);
}

function errorAnnotation(e: InputError): string {
  return annotation('error', { file: e.path, line: e.line || undefined, title: 'httpd-codemod error' }, e.message);
}

/** Annotations for every finding (in server order, each server's in its order) and then every error. */
export function githubAnnotations(report: RunReport, options: { quiet?: boolean } = {}): string {
  const findings = report.servers.flatMap((s) => s.findings).filter((f) => !options.quiet || f.severity !== 'info');
  const errors = [...report.errors, ...report.servers.flatMap((s) => s.errors)];
  return findings.map(findingAnnotation).join('') + errors.map(errorAnnotation).join('');
}
