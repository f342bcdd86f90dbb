import * as os from 'os';

/** Servers run at once by default: the machine's cores. */
export function defaultJobs(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}
