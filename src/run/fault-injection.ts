/**
 * Fault injection for the crash tests: with `HTTPD_CODEMOD_FAULT=stall:<point>:<n>` in the
 * environment, the n-th time this thread passes `<point>` it stops there for good, so a test can
 * SIGKILL the process at a known step of a write (`temp-written`, `target-replaced`). Unset, it
 * costs one environment lookup per call.
 */
const counts = new Map<string, number>();

export function faultPoint(point: string): void {
  const spec = process.env.HTTPD_CODEMOD_FAULT;
  if (!spec) return;
  const [kind, at, nth] = spec.split(':');
  if (kind !== 'stall' || at !== point) return;
  const n = (counts.get(point) ?? 0) + 1;
  counts.set(point, n);
  if (n !== Number(nth)) return;
  process.stderr.write(`fault injection: stalled at ${point} #${n}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
