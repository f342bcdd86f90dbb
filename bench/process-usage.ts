/**
 * Preloaded into the CLI by the benchmark (`node -r dist/bench/process-usage.js dist/src/cli.js …`):
 * at exit, writes the process's peak resident set size (getrusage ru_maxrss, in KB) and its CPU
 * time (user + system, in ms, every thread) as JSON to the file named by BENCH_USAGE_FILE. Worker
 * threads live in the same process and share its address space, so these figures cover the main
 * thread, every worker and V8's own threads (compiler, collector); peak RSS is what GNU time's
 * "Maximum resident set size" reports too. It changes nothing else in the run.
 */
import * as fs from 'fs';

const target = process.env.BENCH_USAGE_FILE;
if (target) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    fs.writeFileSync(target, JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
  });
}
