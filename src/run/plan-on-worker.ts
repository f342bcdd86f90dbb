/**
 * Plans the servers on the plan worker (plan-worker.ts: why a thread of its own), parsing here the
 * texts it hands over while it plans. Where no worker can be started (a test runner on the
 * TypeScript sources without a build) or the worker fails, the plan is made here and every file is
 * read when its server runs.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { PreparedFiles } from '../server/prepared-files';
import { DiscoverOptions, Plan } from '../server/types';
import type { PlanMessage, PlanRequest } from './plan-worker';

export interface Planned {
  readonly plan: Plan;
  /** The files of a one-server plan, parsed while planning went on; null when none were handed over. */
  readonly prepared: PreparedFiles | null;
}

function script(): string | null {
  const here = __filename.endsWith('.ts') ? path.resolve(__dirname, '..', '..', 'dist', 'src', 'run') : __dirname;
  const file = path.join(here, 'plan-worker.js');
  return fs.existsSync(file) ? file : null;
}

/** Planning under way: its result, and a way to drop it (a usage error found after it started). */
export interface PlanStart {
  readonly result: Promise<Planned>;
  /** Stops the worker; the result is then never settled. */
  cancel(): void;
}

/** Plans on this thread; loaded only then (the CLI loads this module first, to start the worker). */
function planHereNow(paths: readonly string[], options: DiscoverOptions): Plan {
  const { planServers } = require('../server/plan-servers') as typeof import('../server/plan-servers');
  return planServers(paths, options);
}

export function planOnWorker(paths: readonly string[], options: DiscoverOptions): Promise<Planned> {
  return startPlan(paths, options).result;
}

/**
 * Starts planning at once. The CLI calls it before it loads the transforms and the rest of the
 * pipeline, so the worker starts, loads its few modules and reads the files while the main thread
 * loads its own (about 100 ms of a run's start).
 */
export function startPlan(paths: readonly string[], options: DiscoverOptions): PlanStart {
  const file = script();
  if (!file) return { result: Promise.resolve({ plan: planHereNow(paths, options), prepared: null }), cancel: () => undefined };
  const worker = new Worker(file, { workerData: { paths, options } satisfies PlanRequest });
  const result = new Promise<Planned>((resolve) => {
    let prepared: PreparedFiles | null = new PreparedFiles();
    let done = false;
    // a worker that cannot plan (out of memory, a failure to load): the plan is made here
    const planHere = () => {
      if (!done) resolve({ plan: planHereNow(paths, options), prepared: null });
      done = true;
      prepared = null;
    };
    worker.on('message', (message: PlanMessage) => {
      if (message.kind === 'texts') {
        try {
          for (const [identity, text] of message.texts) prepared?.add(identity, text);
        } catch {
          // whatever failed here fails again where the server loads its files, and is reported there
          prepared = null;
        }
      } else if (message.kind === 'abandon') {
        prepared = null;
      } else {
        done = true;
        resolve({ plan: message.plan, prepared: message.realPaths && prepared ? prepared.bind(message.realPaths) : null });
        prepared = null;
        void worker.terminate();
      }
    });
    worker.once('error', planHere);
    worker.once('exit', planHere);
  });
  return {
    result,
    cancel: () => {
      worker.removeAllListeners();
      void worker.terminate();
    },
  };
}
