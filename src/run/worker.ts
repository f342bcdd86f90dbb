/**
 * Worker-thread entry: runs the servers the pool sends, one at a time, and posts their outcomes
 * back. The job settings arrive once, as workerData.
 */
import { parentPort, workerData } from 'worker_threads';
import { ServerPlan } from '../server/types';
import { JobSettings, processServer } from './server-job';
import { failedOutcome } from './failed-outcome';

/** A batch of consecutive servers (small servers travel together: one message each way). */
export interface JobMessage {
  readonly first: number;
  readonly plans: readonly ServerPlan[];
}

const settings = workerData as JobSettings;
parentPort?.on('message', async (message: JobMessage) => {
  const outcomes = [];
  for (const plan of message.plans) {
    try {
      outcomes.push(await processServer(plan, settings));
    } catch (error) {
      outcomes.push(failedOutcome(plan, error));
    }
  }
  parentPort?.postMessage({ first: message.first, outcomes });
});
