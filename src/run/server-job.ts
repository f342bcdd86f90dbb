/**
 * One server through the whole pipeline: settle what an interrupted write left, load, transform,
 * build its patch, write (all-or-nothing, write-transaction.ts), report; then its trees are
 * released. The result is a ServerOutcome: plain data that crosses a worker-thread boundary.
 */
import { createHash } from 'crypto';
import { selectTransforms } from '../../transforms';
import { Finding } from '../model/finding';
import { Mode } from '../model/run-report';
import { RunOptions } from '../model/run-options';
import { FileOutcome, InputError, ServerOutcome, Verification, serverStatus } from '../model/server-outcome';
import { filePatch } from '../report/patch';
import { loadServer } from '../server/load-server';
import { PreparedFiles } from '../server/prepared-files';
import { PlannedFile, ServerPlan } from '../server/types';
import { Leftover, findStages, inspect, settle } from './leftovers';
import { fileResult, runServer } from './runner';
import { stageLocations } from './stage-directory';
import { PendingWrite, writeServerFiles } from './write-transaction';
import { ServerFileText } from '../verify/stage-server';
import { VerifyMode, refusalCause, verifyServer } from '../verify/verify-server';

/** What every job of one invocation shares (plain data: it is sent to each worker once). */
export interface JobSettings {
  readonly mode: Mode;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly runOptions: RunOptions;
  /** `--verify` / `--verify=requests`: the user's httpd judges each server before it is written. */
  readonly verify?: VerifyMode;
}

/** Stable across runs of the same tree and file-name safe: the main config's path, readable, plus a hash of its real path. */
export function serverId(plan: ServerPlan): string {
  const anchor = plan.main ?? plan.files[0];
  const slug = anchor.displayPath
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(-80);
  const hash = createHash('sha1').update(anchor.realPath).digest('hex').slice(0, 8);
  return `${slug || 'server'}-${hash}`;
}

function leftoverFinding(leftover: Leftover, mode: Mode, anchor: PlannedFile, plan: ServerPlan): Finding {
  const show = (target: string) => plan.files.find((f) => f.realPath === target)?.displayPath ?? target;
  const list = (targets: readonly string[]) => {
    const shown = targets.slice(0, 5).map(show).join(', ');
    return targets.length > 5 ? `${shown} and ${targets.length - 5} more` : shown;
  };
  const base = { file: anchor.displayPath, line: 0, transform: 'write' };
  if (leftover.outcome === 'busy') {
    return { ...base, code: 'interrupted-write-busy', severity: 'review', message: `${leftover.dir} belongs to a run that is still going (process ${leftover.pid}); left alone. If no codemod runs, remove it.` };
  }
  const conflicts = leftover.conflicts.length > 0 ? `; edited since, left as they are: ${list(leftover.conflicts)}` : '';
  if (leftover.outcome === 'discarded') {
    return {
      ...base,
      code: 'interrupted-write-discarded',
      severity: 'info',
      message: mode === 'write'
        ? `removed ${leftover.dir}: temporary files of a --write (process ${leftover.pid}) interrupted before it changed any file`
        : `${leftover.dir} holds temporary files of a --write (process ${leftover.pid}) interrupted before it changed any file; the next --write removes it`,
    };
  }
  const done = leftover.completed;
  return {
    ...base,
    code: 'interrupted-write-completed',
    severity: 'review',
    message: mode === 'write'
      ? `a --write (process ${leftover.pid}) was interrupted while replacing files: completed it (${done.length} file${done.length === 1 ? '' : 's'}${done.length ? ': ' + list(done) : ''})${conflicts}`
      : `a --write (process ${leftover.pid}) was interrupted while replacing files (${done.length} still old${done.length ? ': ' + list(done) : ''})${conflicts}; the next --write completes it`,
  };
}

/**
 * Settles (--write) or reports (other modes) what interrupted writes left where this server's
 * stages go; `found` tells whether there was any (settling one may have replaced files since planning).
 */
function leftovers(plan: ServerPlan, mode: Mode): { findings: Finding[]; found: boolean } {
  const anchor = plan.main ?? plan.files[0];
  const stages = findStages(stageLocations(plan.files.map((f) => f.realPath), plan.main?.realPath ?? null));
  const findings: Finding[] = [];
  for (const stage of stages) {
    const leftover = mode === 'write' ? settle(stage) : inspect(stage);
    if (leftover) findings.push(leftoverFinding(leftover, mode, anchor, plan));
  }
  return { findings, found: stages.length > 0 };
}

/**
 * The text a per-directory file gets from its own run (it is a server of its own: discovery never
 * puts one in a main config's server), for the request replay to stage; null when it is unchanged.
 */
function migratePerDirectory(realPath: string, settings: JobSettings): string | null {
  const plan: ServerPlan = { id: realPath, main: null, serverRoot: null, files: [{ realPath, displayPath: realPath, role: 'htaccess' }], includes: new Map([[realPath, []]]) };
  const { server } = loadServer(plan);
  if (server.files.length === 0) return null;
  const run = runServer(server, selectTransforms(settings.only, settings.skip), settings.runOptions);
  const result = fileResult(server.files[0], run.failed.get(realPath));
  return result.status === 'changed' ? result.output : null;
}

/** The error that stands for a server httpd refused (exit 2); with --write nothing of it is written. */
function refusal(verification: Verification, main: string, mode: Mode): InputError {
  const cause = refusalCause(verification);
  const written = mode === 'write' ? 'nothing of it was written' : 'it would not be written';
  return {
    path: cause?.file ?? main,
    ...(cause?.line !== undefined ? { line: cause.line } : {}),
    message: `httpd refused the migrated server (--verify), ${written}: ${cause?.text ?? 'see its verification'}`,
  };
}

/**
 * `prepared`: the server's files as the main thread parsed them while planning went on (a server
 * run in process); taken unless an interrupted write was found, which may have changed files since.
 */
export async function processServer(plan: ServerPlan, settings: JobSettings, prepared: PreparedFiles | null = null): Promise<ServerOutcome> {
  const { findings: early, found } = leftovers(plan, settings.mode);
  const { server, failed } = loadServer(plan, found ? null : prepared);
  const run = runServer(server, selectTransforms(settings.only, settings.skip), settings.runOptions);

  const errors: InputError[] = failed.map((f) => f.error);
  const byPath = new Map<string, FileOutcome>();
  for (const f of failed) byPath.set(f.file.realPath, { path: f.file.displayPath, role: f.file.role, status: 'error', error: f.error });
  const writes: PendingWrite[] = [];
  const texts: ServerFileText[] = [];
  let patch = '';
  for (const file of server.files) {
    // read for context only (--context): never written, not part of the run's files
    if (file.role === 'context') {
      // staged as it is for --verify (the context is part of the server httpd judges)
      texts.push({ realPath: file.realPath, displayPath: file.displayPath, role: file.role, original: file.original, migrated: file.original });
      continue;
    }
    const result = fileResult(file, run.failed.get(file.realPath));
    if (result.error) errors.push(result.error);
    byPath.set(file.realPath, { path: file.displayPath, role: file.role, status: result.status, ...(result.error ? { error: result.error } : {}) });
    texts.push({
      realPath: file.realPath,
      displayPath: file.displayPath,
      role: file.role,
      original: file.original,
      migrated: result.status === 'changed' ? result.output : file.original,
      ...(file.asIf !== undefined ? { switchedOff: true } : {}),
    });
    if (result.status === 'changed') {
      patch += filePatch(file.displayPath, file.original, result.output);
      writes.push({ realPath: file.realPath, displayPath: file.displayPath, before: file.original, after: result.output });
    }
  }
  // --verify: judged before anything is written; a refused server is written not at all
  let verification: Verification | undefined;
  const refused = new Set<string>();
  if (settings.verify) {
    const main = server.main ? (texts.find((t) => t.realPath === server.main?.realPath) ?? null) : null;
    verification = await verifyServer({
      mode: settings.verify,
      httpd: settings.runOptions.httpd,
      main,
      files: texts,
      serverRoot: plan.serverRoot,
      migratePerDirectory: (realPath) => migratePerDirectory(realPath, settings),
    });
    if (!verification.verified && !verification.skipped) {
      errors.push(refusal(verification, (plan.main ?? plan.files[0]).displayPath, settings.mode));
      if (settings.mode === 'write') {
        for (const w of writes) {
          const f = byPath.get(w.realPath) as FileOutcome;
          byPath.set(w.realPath, { ...f, status: 'error', error: { path: w.displayPath, message: 'not written: httpd refused the migrated server (--verify)' } });
          refused.add(w.displayPath);
        }
        writes.length = 0;
      }
    }
  }
  if (settings.mode === 'write' && writes.length > 0) {
    const result = writeServerFiles(writes, plan.main?.realPath ?? null);
    for (const e of result.errors) errors.push(e);
    // a file that was not written is no longer 'changed'
    const written = new Set(result.written);
    for (const w of writes) {
      if (written.has(w.realPath)) continue;
      const f = byPath.get(w.realPath) as FileOutcome;
      const own = result.errors.find((e) => e.path === w.displayPath);
      byPath.set(w.realPath, { ...f, status: 'error', error: own ?? { path: w.displayPath, message: `not written: ${result.errors[0]?.message ?? 'unknown reason'}` } });
    }
  }
  const files = plan.files.map((p) => byPath.get(p.realPath)).filter((f): f is FileOutcome => f !== undefined);
  // a refused file keeps its findings: they say what the migration would have done
  const errorPaths = new Set(files.filter((f) => f.status === 'error' && !refused.has(f.path)).map((f) => f.path));
  const findings = [...early, ...run.findings.filter((f) => !errorPaths.has(f.file))];

  return {
    id: serverId(plan),
    main: plan.main?.displayPath ?? null,
    status: serverStatus(files, findings, errors),
    files,
    findings,
    modules: run.modulePlan,
    errors,
    patch,
    ...(verification ? { verification } : {}),
  };
}
