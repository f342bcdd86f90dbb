/**
 * The user's httpd judges a staged server: `httpd -t` (the verdict), then, when it passes,
 * `-t -D DUMP_MODULES` (the modules loaded) and `-t -D DUMP_CONFIG` with mod_info (the
 * configuration as httpd read it; mod_info is loaded with `-C` when the config does not load it
 * and the httpd has it). All three only read: `-t` stops before logs are opened or anything starts.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { VerificationMessage } from '../model/server-outcome';
import { HttpdProbe } from '../modules/probe';
import { MessageMapper, messageTexts } from './httpd-messages';
import { mapPrefixes } from './path-prefixes';
import { Stage } from './stage-server';

export interface HttpdRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const TIMEOUT_MS = 30000;

/** Runs the httpd on the stage with extra arguments (never starts a server: callers pass -t). */
export function runOnStage(probe: HttpdProbe, stage: Stage, extra: readonly string[]): HttpdRun {
  const r = spawnSync(probe.binary, [...stage.args, ...extra], { encoding: 'latin1', env: stage.env, timeout: TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  const failure = r.error ? `\n${probe.binary}: ${r.error.message}` : r.signal ? `\n${probe.binary} ended by ${r.signal}${r.signal === 'SIGTERM' ? ` (no answer within ${TIMEOUT_MS / 1000} s)` : ''}` : '';
  return { status: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + failure };
}

export interface ConfigTestResult {
  readonly ok: boolean;
  readonly messages: VerificationMessage[];
  readonly modules: string[];
  readonly dump?: string;
}

export function configtestStage(probe: HttpdProbe, stage: Stage): ConfigTestResult {
  const mapper = new MessageMapper(stage);
  const test = runOnStage(probe, stage, ['-t']);
  const messages = messageTexts(`${test.stdout}\n${test.stderr}`).map((t) => mapper.map(t));
  if (test.status !== 0) {
    if (messages.length === 0) messages.push({ text: `${path.basename(probe.binary)} -t failed (exit ${test.status}) and printed nothing` });
    return { ok: false, messages, modules: [] };
  }
  const listed = runOnStage(probe, stage, ['-t', '-D', 'DUMP_MODULES']);
  const modules = [...listed.stdout.matchAll(/^\s*(\w+_module) \((?:static|shared)\)\s*$/gm)].map((m) => m[1]);
  const infoFile = probe.moduleDir ? path.join(probe.moduleDir, 'mod_info.so') : null;
  let dump: string | undefined;
  if (modules.includes('info_module') || (infoFile && fs.existsSync(infoFile))) {
    const load = modules.includes('info_module') ? [] : ['-C', `LoadModule info_module ${infoFile}`];
    const r = runOnStage(probe, stage, [...load, '-t', '-D', 'DUMP_CONFIG']);
    if (r.status === 0) dump = mapPrefixes(unstage(r.stdout, stage), stage.displayMaps);
  }
  return { ok: true, messages, modules, ...(dump !== undefined ? { dump } : {}) };
}

/** Staged file paths → display paths (longest first). */
function unstage(text: string, stage: Stage): string {
  let out = text;
  for (const [staged, source] of [...stage.sources].sort((a, b) => b[0].length - a[0].length)) out = out.split(staged).join(source.display);
  return out;
}
