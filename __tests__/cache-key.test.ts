/**
 * cacheKey: a long-lived cache's key must not hold the config file it was cut from. Measured on
 * the heap: keys cut from large texts and kept in a map hold those texts as they are (the negative
 * control), and nothing of them once passed through cacheKey.
 */
import * as v8 from 'v8';
import * as vm from 'vm';
import { cacheKey } from '../src/semantics/cache-key';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap growth (bytes) of keeping `count` keys, each a 15-character slice of its own 100 kB text. */
function retained(keep: (key: string) => string, count = 200): number {
  const kept = new Map<string, number>();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) {
    const text = 'x'.repeat(100_000) + ` 10.231.${i % 250}.0/24 ${i}`;
    kept.set(keep(text.slice(100_001, 100_016)), i);
  }
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  expect(kept.size).toBe(count);
  return grown;
}

test('a key reads as the text it was made from', () => {
  for (const text of ['', 'short', 'mod_authz_host.c', '10.231.3.0/24', 'é\u0000"quoted value"']) expect(cacheKey(text)).toBe(text);
});

test('keys made by cacheKey do not hold their texts; slices kept as they are do', () => {
  const asSliced = retained((key) => key);
  const asKeys = retained(cacheKey);
  expect(asSliced).toBeGreaterThan(10_000_000);
  expect(asKeys).toBeLessThan(2_000_000);
});
