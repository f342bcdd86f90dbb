/**
 * One invocation of the tool, independent of argument parsing: plan the servers, run each through
 * the whole pipeline (server-job.ts: load, transform, patch, write, report, release) on `jobs`
 * workers, and print as outcomes arrive, in plan order. Returns the exit code: 0 nothing left to
 * do, 1 changes pending (dry run, --check) or findings a human must act on, 2 usage, I/O or parse
 * errors.
 */
import * as fs from 'fs';
import * as path from 'path';
import { selectTransforms } from '../../transforms';
import { Mode, RunReport, Summary } from '../model/run-report';
import { RunOptions } from '../model/run-options';
import { InputError, ServerOutcome, serverStatus } from '../model/server-outcome';
import { githubAnnotations } from '../report/github';
import { jsonReport } from '../report/json';
import { sarifReport } from '../report/sarif';
import { textReport } from '../report/text-report';
import { ReportSite } from '../report/site/report-site';
import { summaryLine } from '../report/summary';
import { utf8Bytes } from '../report/utf8-bytes';
import { VerifyMode } from '../verify/verify-server';
import { PlanStart, planOnWorker } from './plan-on-worker';
import { EXIT_ERROR, EXIT_OK, EXIT_PENDING } from './exit-codes';
import { defaultJobs } from './jobs';
import { runServers } from './pool';
import { JobSettings } from './server-job';

export type { Mode };

export interface MainOptions {
  readonly paths: readonly string[];
  readonly mode: Mode;
  readonly patchFile?: string;
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly format?: Format;
  /** Write the review site (index.html, and per server a page, patch and JSON entry) into this directory. */
  readonly reportDir?: string;
  readonly serverRoot?: string;
  /** --context: main configs read for the files' parents, modules and paths, never written. */
  readonly context?: readonly string[];
  readonly quiet?: boolean;
  readonly cwd?: string;
  /** Settings the transforms read (--httpd, --mpm, --pin-defaults, --dual-syntax). */
  readonly runOptions?: RunOptions;
  /** Servers run at once (worker threads); default: the machine's cores. 1 runs in-process. */
  readonly jobs?: number;
  /** `--verify` / `--verify=requests`: the user's httpd judges each server before it is written. */
  readonly verify?: VerifyMode;
  /** Told of each server as it is done (progress display). */
  readonly progress?: Progress;
  /** Planning the caller already started for these paths (startPlan), instead of starting it here. */
  readonly planning?: PlanStart;
}

export interface Progress {
  start(total: number): void;
  update(done: number, outcome: ServerOutcome): void;
  stop(): void;
}

/** What standard output carries: the diff (text), or a report for machines. */
export type Format = 'text' | 'json' | 'sarif' | 'github';

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export { EXIT_ERROR, EXIT_OK, EXIT_PENDING } from './exit-codes';
export { defaultJobs } from './jobs';

/** File counts over all servers (a file counts once per severity however many findings it has). */
export function summarize(servers: readonly ServerOutcome[], errors: readonly InputError[], skipped: number): Summary {
  const files = servers.flatMap((s) => s.files);
  const findings = servers.flatMap((s) => s.findings);
  const filesWith = (severity: string) => new Set(findings.filter((f) => f.severity === severity).map((f) => f.file)).size;
  return {
    changed: files.filter((f) => f.status === 'changed').length,
    unchanged: files.filter((f) => f.status === 'unchanged').length,
    skipped,
    errors: errors.length + servers.reduce((n, s) => n + s.errors.length, 0),
    needReview: filesWith('review'),
    needManual: filesWith('manual'),
  };
}

/** Findings that state an assumption of the whole run: said once, by the first server (in plan order) that makes it. */
const RUN_FINDINGS = ['access-context-assumed'];

/** Drops run-level findings a server before it (in plan order) already made; outcomes arrive in plan order. */
function oncePerRun(codes: readonly string[]): (server: ServerOutcome) => ServerOutcome {
  const said = new Set<string>();
  return (server) => {
    const findings = server.findings.filter((f) => {
      if (!codes.includes(f.code)) return true;
      if (said.has(f.code)) return false;
      said.add(f.code);
      return true;
    });
    if (findings.length === server.findings.length) return server;
    return { ...server, findings, status: serverStatus(server.files, findings, server.errors) };
  };
}

export async function main(options: MainOptions, out: Output): Promise<number> {
  const mode = options.mode;
  // unknown ids are a usage error before anything is planned or written (planning the CLI started is dropped)
  try {
    selectTransforms(options.only, options.skip);
  } catch (error) {
    options.planning?.cancel();
    throw error;
  }
  const { plan, prepared } = await (options.planning?.result ??
    planOnWorker(options.paths, { cwd: options.cwd, serverRoot: options.serverRoot, context: options.context }));
  const settings: JobSettings = { mode, only: options.only ?? [], skip: options.skip ?? [], runOptions: options.runOptions ?? {}, ...(options.verify ? { verify: options.verify } : {}) };
  const format = options.format ?? 'text';
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const keepPatches = format === 'json';
  const streamPatch = format === 'text' && mode === 'diff' && !options.patchFile;

  const globalErrors: InputError[] = [...plan.errors];
  let patchFd: number | null = null;
  if (options.patchFile) {
    try {
      patchFd = fs.openSync(options.patchFile, 'w');
    } catch (error) {
      globalErrors.push({ path: options.patchFile, message: `cannot write the patch: ${(error as Error).message}` });
    }
  }

  let site: ReportSite | null = null;
  if (options.reportDir) {
    try {
      site = new ReportSite(path.resolve(cwd, options.reportDir));
    } catch (error) {
      globalErrors.push({ path: options.reportDir, message: `cannot write the report: ${(error as Error).message}` });
    }
  }

  const servers: ServerOutcome[] = [];
  options.progress?.start(plan.servers.length);
  try {
    const runLevel = oncePerRun(RUN_FINDINGS);
    await runServers(plan.servers, settings, Math.max(1, options.jobs ?? defaultJobs()), (done) => {
      const outcome = runLevel(done);
      if (outcome.patch) {
        if (streamPatch) out.stdout(outcome.patch);
        if (patchFd !== null) fs.writeSync(patchFd, Buffer.from(outcome.patch, 'latin1'));
      }
      site?.addServer(outcome);
      servers.push(keepPatches ? outcome : { ...outcome, patch: '' });
      options.progress?.update(servers.length, outcome);
    }, undefined, prepared);
  } finally {
    options.progress?.stop();
    if (patchFd !== null) fs.closeSync(patchFd);
  }

  if (site) for (const e of site.finish({ mode, errors: globalErrors, skipped: plan.skipped, summary: summarize(servers, globalErrors, plan.skipped.length) })) globalErrors.push(e);
  const summary = summarize(servers, globalErrors, plan.skipped.length);
  const report: RunReport = { mode, servers, errors: globalErrors, skipped: plan.skipped, summary };
  const errors = [...globalErrors, ...servers.flatMap((s) => s.errors)];
  const changed = servers.flatMap((s) => s.files).filter((f) => f.status === 'changed');

  if (format === 'json') {
    out.stdout(jsonReport(report));
  } else if (format === 'sarif') {
    out.stdout(sarifReport(report, cwd));
  } else if (format === 'github') {
    // findings and errors are annotations on stdout; stderr keeps the summary line
    out.stdout(utf8Bytes(githubAnnotations(report, { quiet: options.quiet })));
    out.stderr(summaryLine(summary, mode === 'write' ? 'changed' : 'would change') + '\n');
  } else {
    out.stderr(textReport(servers, errors, summary, mode, { quiet: options.quiet }));
  }

  if (errors.length > 0) return EXIT_ERROR;
  if (mode === 'check') return changed.length > 0 ? EXIT_PENDING : EXIT_OK;
  if (mode === 'diff' && changed.length > 0) return EXIT_PENDING;
  return summary.needManual > 0 ? EXIT_PENDING : EXIT_OK;
}
