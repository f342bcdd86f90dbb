/** `--verify=requests` (placeholder while being built). */
import { RequestReplay, VerificationMessage } from '../../model/server-outcome';
import { HttpdProbe } from '../../modules/probe';
import { ServerFileText } from '../stage-server';

export interface ReplayInput {
  readonly main: ServerFileText;
  readonly files: readonly ServerFileText[];
  readonly serverRoot: string;
  readonly probe: HttpdProbe;
  readonly modules: readonly string[];
  readonly keep: boolean;
}

export interface ReplayResult {
  readonly ok: boolean;
  readonly messages: VerificationMessage[];
  readonly staged: string[];
  readonly requests?: RequestReplay;
}

export async function replayRequests(_input: ReplayInput): Promise<ReplayResult> {
  return { ok: false, messages: [{ text: 'not yet' }], staged: [] };
}
