/**
 * Plans the servers on a worker thread of its own that ends when the plan is made: planning a
 * fleet reads every file once and makes a great deal of short-lived data (about 110 MB of heap for
 * 16,000 files, for a 14 MB plan), which V8 keeps as resident memory on the thread that made it.
 * A thread that exits gives it all back, so the run's peak memory is the plan plus the servers
 * being migrated. Where no worker can be started (a test runner on the TypeScript sources without
 * a build), the plan is made here.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Worker, isMainThread, parentPort, workerData } from 'worker_threads';
import { DiscoverOptions, Plan } from '../server/types';
import { planServers } from '../server/plan-servers';

interface PlanRequest {
  readonly paths: readonly string[];
  readonly options: DiscoverOptions;
}

function script(): string | null {
  const here = __filename.endsWith('.ts') ? path.resolve(__dirname, '..', '..', 'dist', 'src', 'run') : __dirname;
  const file = path.join(here, 'plan-worker.js');
  return fs.existsSync(file) ? file : null;
}

export function planOnWorker(paths: readonly string[], options: DiscoverOptions): Promise<Plan> {
  const file = script();
  if (!file) return Promise.resolve(planServers(paths, options));
  return new Promise((resolve) => {
    const worker = new Worker(file, { workerData: { paths, options } satisfies PlanRequest });
    let done = false;
    worker.once('message', (plan: Plan) => {
      done = true;
      resolve(plan);
      void worker.terminate();
    });
    // a worker that cannot plan (out of memory, a failure to load): the plan is made here
    worker.once('error', () => {
      if (!done) resolve(planServers(paths, options));
      done = true;
    });
    worker.once('exit', () => {
      if (!done) resolve(planServers(paths, options));
      done = true;
    });
  });
}

if (!isMainThread && parentPort && (workerData as PlanRequest | undefined)?.paths) {
  const request = workerData as PlanRequest;
  parentPort.postMessage(planServers(request.paths, request.options));
}
