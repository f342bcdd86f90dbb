/**
 * `--format sarif`: the run as a SARIF 2.1.0 log (OASIS), for code-scanning tools.
 *
 * - One rule per finding code that occurs, sorted by code, described from the catalogue
 *   (finding-codes.ts): summary as shortDescription, meaning as fullDescription, the usual
 *   severity as defaultConfiguration.level.
 * - One result per finding: level manual → error, review → warning, info → note; the file as a
 *   URI relative to the working directory (uriBaseId %SRCROOT%, which originalUriBaseIds maps to
 *   it), or a file: URI when the file lies outside it.
 * - Line: findings about a whole file (line 0) point at line 1, because GitHub code scanning
 *   needs region.startLine on every result; properties.fileLevel says so.
 * - Files that could not be used (exit code 2) are toolExecutionNotifications of the invocation,
 *   which is then not executionSuccessful.
 */
import * as path from 'path';
import { pathToFileURL } from 'url';
import type * as Sarif from 'sarif';
import { Finding, Severity } from '../model/finding';
import { RunReport } from '../model/run-report';
import { InputError } from '../model/server-outcome';
import { asciiJson } from './ascii-json';
import { findingCode } from './finding-codes';
import { TOOL_NAME, toolVersion } from './tool-info';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';

const LEVEL: Record<Severity, Sarif.Result.level> = { manual: 'error', review: 'warning', info: 'note' };

function markdownToText(markdown: string): string {
  return markdown.replace(/`/g, '');
}

function rule(code: string): Sarif.ReportingDescriptor {
  const entry = findingCode(code);
  if (!entry) return { id: code, shortDescription: { text: code } };
  return {
    id: code,
    shortDescription: { text: entry.summary },
    fullDescription: { text: markdownToText(entry.meaning), markdown: entry.meaning },
    defaultConfiguration: { level: LEVEL[entry.severities[0]] },
    properties: { severities: [...entry.severities] },
  };
}

/** A display path (relative to cwd, or absolute) as an artifact location. */
function artifact(displayPath: string): Sarif.ArtifactLocation {
  if (path.isAbsolute(displayPath)) return { uri: pathToFileURL(displayPath).href };
  return { uri: displayPath.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function result(finding: Finding, ruleIndex: number, server: string): Sarif.Result {
  return {
    ruleId: finding.code,
    ruleIndex,
    level: LEVEL[finding.severity],
    message: { text: finding.message },
    locations: [{ physicalLocation: { artifactLocation: artifact(finding.file), region: { startLine: Math.max(1, finding.line) } } }],
    properties: { severity: finding.severity, transform: finding.transform, server, ...(finding.line > 0 ? {} : { fileLevel: true }) },
  };
}

function notification(error: InputError): Sarif.Notification {
  return {
    level: 'error',
    message: { text: error.message },
    locations: [{ physicalLocation: { artifactLocation: artifact(error.path), ...(error.line ? { region: { startLine: error.line } } : {}) } }],
  };
}

export function sarifLog(report: RunReport, cwd: string): Sarif.Log {
  const codes = [...new Set(report.servers.flatMap((s) => s.findings.map((f) => f.code)))].sort();
  const index = new Map(codes.map((code, i) => [code, i]));
  const results = report.servers.flatMap((s) => s.findings.map((f) => result(f, index.get(f.code) as number, s.id)));
  const errors = [...report.errors, ...report.servers.flatMap((s) => s.errors)];
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: TOOL_NAME, version: toolVersion(), rules: codes.map(rule) } },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(cwd).href.replace(/\/?$/, '/') } },
        invocations: [{ executionSuccessful: errors.length === 0, toolExecutionNotifications: errors.map((e) => notification(e)) }],
        results,
      },
    ],
  };
}

export function sarifReport(report: RunReport, cwd: string): string {
  return asciiJson(sarifLog(report, cwd));
}
