/**
 * cacheKey: a long-lived cache's key must not hold the config file it was cut from. Measured on
 * the heap: keys cut from large texts and kept in a map hold those texts as they are (the negative
 * control), and nothing of them once passed through cacheKey. The heap is measured in a fresh
 * `node --expose-gc` process running the built module (global-setup builds dist/): a jest worker's
 * heap also holds whatever earlier suites left for the collector, which made the figures noise.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { cacheKey } from '../src/semantics/cache-key';

const BUILT = path.join(__dirname, '..', 'dist', 'src', 'semantics', 'cache-key.js');

/** Heap growth (bytes) of keeping 200 keys, each a 15-character slice of its own 100 kB text, as they are and through cacheKey. */
function retained(): { asSliced: number; asKeys: number } {
  const script = `
    const { cacheKey } = require(${JSON.stringify(BUILT)});
    function retained(keep, count = 200) {
      const kept = new Map();
      gc();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < count; i++) {
        const text = 'x'.repeat(100000) + ' 10.231.' + (i % 250) + '.0/24 ' + i;
        kept.set(keep(text.slice(100001, 100016)), i);
      }
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      if (kept.size !== count) throw new Error('keys collided');
      return grown;
    }
    const asSliced = retained((key) => key);
    const asKeys = retained(cacheKey);
    process.stdout.write(JSON.stringify({ asSliced, asKeys }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as { asSliced: number; asKeys: number };
}

test('a key reads as the text it was made from', () => {
  for (const text of ['', 'short', 'mod_authz_host.c', '10.231.3.0/24', 'é\u0000"quoted value"']) expect(cacheKey(text)).toBe(text);
});

test('keys made by cacheKey do not hold their texts; slices kept as they are do', () => {
  const { asSliced, asKeys } = retained();
  expect(asSliced).toBeGreaterThan(10_000_000);
  expect(asKeys).toBeLessThan(2_000_000);
});
