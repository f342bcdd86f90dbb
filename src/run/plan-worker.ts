/**
 * The plan worker's script (started by plan-on-worker.ts): plans the servers on a thread of its
 * own that ends when the plan is made, and meanwhile hands the texts it reads to the main thread
 * when the run looks like one server, for the main thread to parse while planning goes on.
 *
 * Why a thread: planning a fleet reads every file once and makes a great deal of short-lived data
 * (about 110 MB of heap for 16,000 files, for a 14 MB plan), which V8 keeps as resident memory on
 * the thread that made it. A thread that exits gives it all back, so the run's peak memory is the
 * plan plus the servers being migrated.
 *
 * Why the texts: a single server runs on the main thread (pool.ts), which would otherwise wait for
 * the plan and then read and parse every file again (3,000 vhosts: ~250 ms after planning ends).
 * Texts go over only while what was read looks like one server: from the first file that can be a
 * main config (named httpd.conf / apache2.conf, or holding Include / ServerRoot lines) until a
 * second one is read (a fleet: the main thread drops what it parsed, one server's files at most)
 * or more than HANDOVER_BYTES were read. The files of a run that has no such file go over once
 * its plan is known to be one server.
 *
 * This module loads only what planning needs (not the parser's consumers, not semantics/): the
 * worker starts planning ~15 ms after it starts instead of ~90.
 */
import * as path from 'path';
import { isMainThread, parentPort, workerData } from 'worker_threads';
import { FoundFile } from '../server/file-registry';
import { isMainConfigName } from '../server/file-names';
import { planServers } from '../server/plan-servers';
import { hasServerDirectives } from '../server/resolve-includes';
import { DiscoverOptions, Plan } from '../server/types';

export interface PlanRequest {
  readonly paths: readonly string[];
  readonly options: DiscoverOptions;
}

/** What the worker posts: batches of texts (by file identity), that those already sent will not serve, then the plan. */
export type PlanMessage =
  | { readonly kind: 'texts'; readonly texts: readonly (readonly [identity: string, text: string])[] }
  | { readonly kind: 'abandon' }
  | {
      readonly kind: 'plan';
      readonly plan: Plan;
      /** The real path of each file whose text went over, when the plan is one server; else null (let them go). */
      readonly realPaths: readonly (readonly [identity: string, realPath: string])[] | null;
    };

/** Texts handed over at most (latin1: bytes): what a wrong guess can cost the main thread in parsing. */
const HANDOVER_BYTES = 32 * 1024 * 1024;
/** Texts travel in batches of about this size (one message per file would cost more than the copy). */
const BATCH_BYTES = 256 * 1024;

class Handover {
  private state: 'waiting' | 'sending' | 'abandoned' = 'waiting';
  private pending: [string, string][] = [];
  private pendingBytes = 0;
  private total = 0;
  private mains = 0;
  private readonly files: FoundFile[] = [];

  constructor(private readonly post: (message: PlanMessage) => void) {}

  read(file: FoundFile, text: string, absPath: string): void {
    if (this.state === 'abandoned') return;
    if (isMainConfigName(path.basename(absPath)) || hasServerDirectives(file.facts)) this.mains++;
    this.total += text.length;
    if (this.mains > 1 || this.total > HANDOVER_BYTES) return this.abandon();
    this.files.push(file);
    this.pending.push([file.identity, text]);
    this.pendingBytes += text.length;
    if (this.mains === 1) this.state = 'sending';
    if (this.state === 'sending' && this.pendingBytes >= BATCH_BYTES) this.flush();
  }

  /** After planning: the real paths of the texts handed over when the plan is one server (the only case they serve), else null. */
  finish(plan: Plan): [string, string][] | null {
    if (this.state === 'abandoned' || plan.servers.length !== 1) {
      this.abandon();
      return null;
    }
    this.flush();
    return this.files.map((f) => [f.identity, f.realPath]);
  }

  private flush(): void {
    if (this.pending.length > 0) this.post({ kind: 'texts', texts: this.pending });
    this.pending = [];
    this.pendingBytes = 0;
  }

  private abandon(): void {
    if (this.state === 'sending') this.post({ kind: 'abandon' });
    this.state = 'abandoned';
    this.pending = [];
    this.files.length = 0;
  }
}

if (!isMainThread && parentPort && (workerData as PlanRequest | undefined)?.paths) {
  const request = workerData as PlanRequest;
  const port = parentPort;
  const handover = new Handover((message) => port.postMessage(message));
  const plan = planServers(request.paths, request.options, (file, text, absPath) => handover.read(file, text, absPath));
  port.postMessage({ kind: 'plan', plan, realPaths: handover.finish(plan) } satisfies PlanMessage);
}
