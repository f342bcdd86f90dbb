/**
 * Preloaded into the CLI by the benchmark (`node -r dist/bench/max-rss.js dist/src/cli.js …`):
 * at exit, writes the process's peak resident set size (getrusage ru_maxrss, in KB) to the file
 * named by BENCH_MAX_RSS_FILE. Worker threads live in the same process and share its address
 * space, so this one figure covers the main thread and every worker (it is what GNU time's
 * "Maximum resident set size" reports too). It changes nothing else in the run.
 */
import * as fs from 'fs';

const target = process.env.BENCH_MAX_RSS_FILE;
if (target) {
  process.on('exit', () => {
    fs.writeFileSync(target, String(process.resourceUsage().maxRSS));
  });
}
