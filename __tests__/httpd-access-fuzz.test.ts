/**
 * Randomized end-to-end access differential against a real httpd 2.4 (support/access-fuzz.ts):
 * generated whole 2.2 servers migrated by the built CLI and served without mod_access_compat,
 * every sampled request answered as 2.2 meant (the tree on 2.4 + compat; for mixed seeds the
 * README's meaning), `apache2 -t` passes, a second run changes nothing.
 *
 * ACCESS_FUZZ_SEEDS=FROM-TO runs other seeds (exploration); the default is a fixed bounded set.
 */
import { FuzzOutcome, describeOutcome, generateSeed, runSeed } from './support/access-fuzz';
import { stopLayoutServers } from './support/layout-differential';

jest.setTimeout(3600000);
afterAll(() => stopLayoutServers());

function seedRange(): number[] {
  const m = /^(\d+)-(\d+)$/.exec(process.env.ACCESS_FUZZ_SEEDS ?? '');
  if (m) return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
  return Array.from({ length: 12 }, (_, i) => i + 1);
}

test('fuzz seeds: no mismatch, no problem', async () => {
  const outcomes: FuzzOutcome[] = [];
  for (const n of seedRange()) {
    const o = await runSeed(generateSeed(n));
    outcomes.push(o);
    if (process.env.ACCESS_FUZZ_VERBOSE || o.problems.length > 0 || o.mismatches.length > 0) process.stderr.write(describeOutcome(o) + '\n' + o.findings.join('\n') + '\n');
  }
  const bad = outcomes.filter((o) => o.problems.length > 0 || o.mismatches.length > 0);
  expect(bad.map((o) => describeOutcome(o))).toEqual([]);
});
