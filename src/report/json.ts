/**
 * The machine-readable report (`--format json`): per server (`servers`: id, main config, status,
 * files, findings, module plan, errors) and, as before, flat lists over all servers (`files`,
 * `findings`, `errors`, `skipped`) and the whole `patch`.
 */
import { RunReport } from '../model/run-report';
import { ServerOutcome } from '../model/server-outcome';
import { asciiJson } from './ascii-json';

/** One server's entry: in `servers` here, and `<id>.json` in a --report-dir. */
export function serverEntry(s: ServerOutcome): object {
  return {
    id: s.id,
    main: s.main,
    status: s.status,
    files: s.files,
    findings: s.findings,
    modules: s.modules,
    errors: s.errors,
    ...(s.verification ? { verified: s.verification.skipped ? null : s.verification.verified, verification: s.verification } : {}),
  };
}

export function jsonReport(report: RunReport): string {
  const servers = report.servers;
  return asciiJson({
    tool: 'httpd-codemod',
    mode: report.mode,
    summary: report.summary,
    servers: servers.map(serverEntry),
    files: servers.flatMap((s) =>
      s.files.map((f) => ({
        path: f.path,
        role: f.role,
        status: f.status,
        ...(f.error ? { error: f.error.message, line: f.error.line ?? null } : {}),
      })),
    ),
    findings: servers.flatMap((s) => s.findings),
    errors: [...report.errors, ...servers.flatMap((s) => s.errors)],
    skipped: report.skipped,
    patch: servers.map((s) => s.patch).join(''),
  });
}
