/**
 * Runs every planned server, in-process or on worker threads, and hands the outcomes to the
 * caller in plan order whatever order they finish in: output is the same for any number of jobs.
 * Each worker takes the next server when it finishes one, so a large server does not hold up
 * the rest; the main thread holds only outcomes that wait for an earlier server.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ResourceLimits, Worker } from 'worker_threads';
import { ServerOutcome } from '../model/server-outcome';
import { PreparedFiles } from '../server/prepared-files';
import { ServerPlan } from '../server/types';
import { failedOutcome } from './failed-outcome';
import { SharedStrings } from './shared-strings';
import { JobSettings, processServer } from './server-job';

export type OnOutcome = (outcome: ServerOutcome, index: number) => void;

/** A batch ends once it holds this many files (a one-file fragment costs less than a message). */
const BATCH_FILES = 64;

/**
 * Heap limits of each worker. Neither is a tight bound on the work (one server of 3,000 vhosts,
 * 9.5 MB of config, peaks near 360 MB), but both change how far V8 lets a heap grow past what
 * it holds: with the old generation limited below V8's "large device" size, a collection lets
 * the heap grow to about 1.3–2 times its live data instead of 4 times, and a smaller young
 * generation keeps less garbage between scavenges. Measured on a fleet of 200 servers with
 * --jobs 2: peak RSS about 215 MB instead of about 300 MB, for about 10% more CPU time. The
 * young generation went from 16 to 8 MB once the workers' code made less garbage: peak RSS
 * 233–255 MB → 207–223 MB over three runs each, wall time within 2%.
 * A server that still needs more is run again on the main thread, without these limits.
 */
export const WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 1024 };

/**
 * With --jobs 1, several servers run one after the other on one worker, for the same reason: the
 * old generation's limit keeps V8 from growing the heap to 4 times what a server holds (measured on
 * the 200-server fleet: peak RSS about 215 MB instead of 300–445 MB in process, the same wall time).
 * The young generation keeps V8's usual size there (a smaller one costs scavenges, and with one
 * worker there is no second worker's heap to make room for). A single server runs in process (no
 * worker to start).
 */
export const SINGLE_WORKER_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 48 };

/** Cuts plans[from..] into the next batch: consecutive servers up to BATCH_FILES files (at least one server). */
function nextBatch(plans: readonly ServerPlan[], from: number): number {
  let end = from;
  let files = 0;
  while (end < plans.length && (end === from || files + plans[end].files.length <= BATCH_FILES)) {
    files += plans[end].files.length;
    end++;
  }
  return end;
}

/**
 * The compiled worker script. Under ts-jest this module is TypeScript and the worker must be the
 * build of it (the test setup builds dist/ first); null when there is none, and the run stays in-process.
 */
function workerScript(): string | null {
  const here = __filename.endsWith('.ts') ? path.resolve(__dirname, '..', '..', 'dist', 'src', 'run') : __dirname;
  const script = path.join(here, 'worker.js');
  return fs.existsSync(script) ? script : null;
}

/** One server on this thread; a failure becomes its outcome. */
async function runHere(plan: ServerPlan, settings: JobSettings, prepared: PreparedFiles | null = null): Promise<ServerOutcome> {
  try {
    return await processServer(plan, settings, prepared);
  } catch (error) {
    return failedOutcome(plan, error);
  }
}

async function inProcess(plans: readonly ServerPlan[], settings: JobSettings, onOutcome: OnOutcome, prepared: PreparedFiles | null): Promise<void> {
  for (let i = 0; i < plans.length; i++) {
    onOutcome(await runHere(plans[i], settings, prepared), i);
    // let timers (progress) and stdout drain between servers
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export async function runServers(
  plans: readonly ServerPlan[],
  settings: JobSettings,
  jobs: number,
  onOutcome: OnOutcome,
  limits: ResourceLimits = jobs > 1 ? WORKER_LIMITS : SINGLE_WORKER_LIMITS,
  prepared: PreparedFiles | null = null,
): Promise<void> {
  const script = plans.length > 1 ? workerScript() : null;
  // files parsed while planning serve only servers run here: a worker reads its own
  if (!script) return inProcess(plans, settings, onOutcome, prepared);

  const waiting = new Map<number, ServerOutcome>();
  const shared = new SharedStrings();
  let nextToEmit = 0;
  let nextToSend = 0;
  const deliver = (index: number, outcome: ServerOutcome) => {
    waiting.set(index, outcome);
    while (waiting.has(nextToEmit)) {
      const ready = waiting.get(nextToEmit) as ServerOutcome;
      waiting.delete(nextToEmit);
      onOutcome(ready, nextToEmit);
      nextToEmit++;
    }
  };

  // batches a worker could not finish, run again here (processServer is async: --verify)
  const reruns: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let running = 0;
    const start = () => {
      const worker = new Worker(script, { workerData: settings, resourceLimits: limits });
      let current: [number, number] | null = null;
      running++;
      const feed = () => {
        if (nextToSend >= plans.length) {
          current = null;
          void worker.terminate();
          return;
        }
        const end = nextBatch(plans, nextToSend);
        current = [nextToSend, end];
        worker.postMessage({ first: nextToSend, plans: plans.slice(nextToSend, end) });
        nextToSend = end;
      };
      worker.on('message', (message: { first: number; outcomes: ServerOutcome[] }) => {
        message.outcomes.forEach((outcome, i) => deliver(message.first + i, shared.own(outcome)));
        feed();
      });
      worker.on('error', (error) => {
        // a batch too large for the worker's heap runs again here; otherwise its servers fail as a
        // whole. A new worker takes the rest
        const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        const batch = current;
        current = null;
        if (batch) {
          reruns.push(
            (async () => {
              for (let i = batch[0]; i < batch[1]; i++) deliver(i, outOfMemory ? await runHere(plans[i], settings) : failedOutcome(plans[i], error));
            })(),
          );
        }
      });
      worker.on('exit', () => {
        running--;
        if (nextToSend < plans.length) start();
        else if (running === 0) resolve();
      });
      feed();
    };
    const count = Math.min(jobs, plans.length);
    for (let i = 0; i < count; i++) start();
  });
  await Promise.all(reruns);
}
