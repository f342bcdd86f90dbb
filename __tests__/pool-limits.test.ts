/**
 * Workers run with heap limits (src/run/pool.ts WORKER_LIMITS). A batch that outgrows them is run
 * again on the main thread: the outcomes are those of an in-process run, in plan order. Negative
 * control: with the limits that tight, workers do run out of memory (the retry is what saves the
 * run), which the pool's own error path would otherwise turn into failed servers.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import { ServerOutcome } from '../src/model/server-outcome';
import { runServers } from '../src/run/pool';
import { JobSettings } from '../src/run/server-job';
import { planServers } from '../src/server/discover';
import { vhostTree } from '../bench/generate';

jest.setTimeout(120000);

const TIGHT = { maxOldGenerationSizeMb: 12, maxYoungGenerationSizeMb: 2 };
const settings: JobSettings = { mode: 'diff', only: [], skip: [], runOptions: {} };

describe('workers out of heap', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-pool-'));
    // one server large enough to outgrow the tight limits, and small ones beside it
    vhostTree(path.join(tmp, 'big'), 400);
    for (let i = 0; i < 4; i++) vhostTree(path.join(tmp, `small${i}`), 2);
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  async function outcomes(jobs: number, limits?: typeof TIGHT): Promise<ServerOutcome[]> {
    const plan = planServers([tmp], { cwd: tmp });
    const got: ServerOutcome[] = [];
    await runServers(plan.servers, settings, jobs, (o) => got.push(o), limits);
    return got;
  }

  test('a worker out of memory: its servers run again here, output as in process', async () => {
    const here = await outcomes(1);
    expect(here).toHaveLength(5);
    expect(here.every((o) => o.errors.length === 0 && o.patch !== '')).toBe(true);
    expect(await outcomes(2, TIGHT)).toEqual(here);
    expect(await outcomes(2)).toEqual(here);
  });

  test('negative control: those limits do exhaust a worker on the large server', async () => {
    const plan = planServers([path.join(tmp, 'big')], { cwd: tmp });
    const script = path.resolve(__dirname, '..', 'dist', 'src', 'run', 'worker.js');
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const worker = new Worker(script, { workerData: settings, resourceLimits: TIGHT });
      worker.once('message', () => {
        void worker.terminate();
        resolve(null);
      });
      worker.once('error', (e) => resolve(e as NodeJS.ErrnoException));
      worker.postMessage({ first: 0, plans: plan.servers });
    });
    expect(error?.code).toBe('ERR_WORKER_OUT_OF_MEMORY');
  });
});
