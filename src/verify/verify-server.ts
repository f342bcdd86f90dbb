/**
 * `--verify`: the user's own httpd 2.4 judges one migrated server before a byte of it is written.
 * The server is staged (stage-server.ts) in a temporary directory, `httpd -t` runs there
 * (configtest.ts), and with `--verify=requests` the staged server is also started on loopback
 * ports and a request set derived from the config is replayed against it (replay/). The stage is
 * always removed (set HTTPD_CODEMOD_KEEP_STAGE=1 to keep it for a look; its path is then noted).
 */
import * as path from 'path';
import { Verification, VerificationMessage } from '../model/server-outcome';
import { configtestStage } from './configtest';
import { findHttpd } from './find-httpd';
import { replayRequests } from './replay/replay';
import { ServerFileText, stageServer } from './stage-server';
import { createStage, removeStage } from './stage-layout';

export type VerifyMode = 'configtest' | 'requests';

export interface VerifyInput {
  readonly mode: VerifyMode;
  /** `--httpd PATH`, else found on PATH. */
  readonly httpd?: string;
  /** The main config, or null for a fragment or per-directory file run on its own. */
  readonly main: ServerFileText | null;
  /** Every loaded file of the server, main included. */
  readonly files: readonly ServerFileText[];
  readonly serverRoot: string | null;
  /** `--verify=requests`: the migrated text of a per-directory file met under the server's content (as its own run writes it). */
  readonly migratePerDirectory?: (realPath: string) => string | null;
}

function keepStage(): boolean {
  return process.env.HTTPD_CODEMOD_KEEP_STAGE === '1';
}

export async function verifyServer(input: VerifyInput): Promise<Verification> {
  const mode = input.mode;
  if (!input.main || input.serverRoot === null) {
    return {
      mode,
      verified: false,
      skipped: 'no main config in the run (a fragment or per-directory file on its own): httpd can only judge a whole server; run on the tree that holds its main config',
      messages: [],
    };
  }
  const found = findHttpd(input.httpd);
  if ('error' in found) return { mode, verified: false, messages: [{ text: found.error }] };
  const probe = found.probe;
  const judge = `${probe.binary}${probe.version ? ` (${probe.version})` : ''}`;
  const failed = (text: string, extra: Partial<Verification> = {}): Verification => ({ mode, verified: false, httpd: judge, messages: [{ text }], ...extra });

  const layout = createStage();
  const kept: string[] = [];
  try {
    let stage;
    try {
      stage = stageServer({ main: input.main, files: input.files, serverRoot: input.serverRoot, probe, layout });
    } catch (error) {
      return failed(`the server could not be staged: ${(error as Error).message}`);
    }
    if (keepStage()) kept.push(`stage kept in ${layout.dir}`);
    const test = configtestStage(probe, stage);
    const base = {
      mode,
      httpd: judge,
      staged: [...stage.notes, ...kept],
      ...(test.modules.length > 0 ? { modules: test.modules } : {}),
      ...(test.dump !== undefined ? { dump: test.dump } : {}),
    };
    if (!test.ok || mode === 'configtest') return { ...base, verified: test.ok, messages: test.messages };

    let replay;
    try {
      replay = await replayRequests({ main: input.main, files: input.files, serverRoot: input.serverRoot, probe, modules: test.modules, keep: keepStage(), migratePerDirectory: input.migratePerDirectory });
    } catch (error) {
      return { ...base, verified: false, messages: [...test.messages, { text: `the request replay failed: ${(error as Error).message}` }] };
    }
    const messages: VerificationMessage[] = [...test.messages, ...replay.messages];
    return {
      ...base,
      staged: [...base.staged, ...replay.staged],
      verified: replay.ok,
      messages,
      ...(replay.requests ? { requests: replay.requests } : {}),
    };
  } finally {
    if (!keepStage()) removeStage(layout);
  }
}

/** The message that names why a server was refused: the first one with a location, else the last. */
export function refusalCause(v: Verification): VerificationMessage | null {
  if (v.verified || v.skipped) return null;
  if (v.requests && v.requests.mismatches.length + v.requests.static.mismatches.length > 0) {
    const m = v.requests.mismatches[0] ?? v.requests.static.mismatches[0];
    const count = v.requests.mismatches.length + v.requests.static.mismatches.length;
    return { text: `${count} request${count === 1 ? '' : 's'} answered otherwise than 2.2 did, e.g. ${m.request}: 2.2 ${m.expected}, 2.4 ${m.actual}` };
  }
  return (
    v.messages.find((m) => m.file !== undefined) ??
    v.messages.find((m) => /:(error|crit|alert|emerg)\]|^AH\d+: .*(Cannot|cannot|Unable|unable|failed|invalid)/.test(m.text)) ??
    v.messages.find((m) => !/\[\w+:(warn|notice|info)\]|^AH00558:|Warning:/.test(m.text)) ??
    v.messages[v.messages.length - 1] ?? { text: `${path.basename(v.httpd ?? 'httpd')} refused the server` }
  );
}
