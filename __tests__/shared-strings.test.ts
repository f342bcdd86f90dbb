/**
 * The main thread shares the repeated words and paths of the outcomes workers send (run/shared-strings.ts).
 * What it keeps must be the outcome itself: same fields, same values, same key order (the JSON report
 * prints them as they are), for outcomes of real servers and for the optional fields a run can set.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { ServerOutcome } from '../src/model/server-outcome';
import { processServer } from '../src/run/server-job';
import { SharedStrings } from '../src/run/shared-strings';
import { planServers } from '../src/server/discover';

jest.setTimeout(60000);

const EXAMPLES = path.join(__dirname, '..', 'examples');
const BUILT = path.join(__dirname, '..', 'dist', 'src', 'run', 'shared-strings.js');

async function examplesOutcomes(): Promise<ServerOutcome[]> {
  const plan = planServers([EXAMPLES], { cwd: EXAMPLES });
  const out: ServerOutcome[] = [];
  for (const p of plan.servers) out.push(await processServer(p, { mode: 'diff', only: [], skip: [], runOptions: {} }));
  return out;
}

test('outcomes of the bundled servers come out as they went in, key order included', async () => {
  const outcomes = await examplesOutcomes();
  expect(outcomes.length).toBeGreaterThan(2);
  expect(outcomes.reduce((n, o) => n + o.findings.length, 0)).toBeGreaterThan(50);
  const shared = new SharedStrings();
  for (const o of outcomes) {
    // a copy, as a worker's message delivers it
    const copy = structuredClone(o);
    expect(JSON.stringify(shared.own(copy))).toBe(JSON.stringify(o));
  }
});

test('optional fields (file errors, verification) are kept', () => {
  const o: ServerOutcome = {
    id: 'x-1',
    main: 'conf/httpd.conf',
    status: 'error',
    files: [
      { path: 'conf/httpd.conf', role: 'main', status: 'error', error: { path: 'conf/httpd.conf', line: 3, message: 'bad' } },
      { path: 'conf/a.conf', role: 'included', status: 'changed' },
    ],
    findings: [{ code: 'c', severity: 'review', message: 'm', file: 'conf/a.conf', line: 2, transform: 't' }],
    modules: [],
    errors: [{ path: 'conf/httpd.conf', line: 3, message: 'bad' }],
    patch: '--- a\n+++ b\n',
    verification: { verified: true, skipped: false, mode: 'configtest', httpd: '/usr/sbin/apache2', messages: [] } as unknown as NonNullable<ServerOutcome['verification']>,
  };
  expect(JSON.stringify(new SharedStrings().own(structuredClone(o)))).toBe(JSON.stringify(o));
});

test('negative control: a changed field is seen', async () => {
  const [o] = await examplesOutcomes();
  const shared = new SharedStrings();
  const copy = structuredClone(o);
  const altered = shared.own({ ...copy, findings: copy.findings.map((f, i) => (i === 0 ? { ...f, line: f.line + 1 } : f)) });
  expect(JSON.stringify(altered)).not.toBe(JSON.stringify(o));
});

/**
 * Heap held by 200 outcomes of 100 findings each, as workers deliver them (every word and path its own
 * copy) and after sharing; measured in a fresh `node --expose-gc` process on the built module, as the
 * cache-key test does (a jest worker's heap holds what other suites left).
 */
function heldBytes(): { copies: number; shared: number } {
  const script = `
    const { SharedStrings } = require(${JSON.stringify(BUILT)});
    // each outcome as a worker's message delivers it: a structured clone, its own copy of every string
    function delivered() {
      const out = [];
      for (let s = 0; s < 200; s++) {
        const file = '/srv/fleet/host' + s + '/conf/sites/site.conf';
        const findings = [];
        for (let i = 0; i < 100; i++) findings.push({ code: 'access-migrated', severity: 'info', message: 'm' + i, file, line: i, transform: 'access-to-require' });
        out.push(structuredClone({ id: 'h' + s, main: null, status: 'migrated', files: [{ path: file, role: 'included', status: 'changed' }], findings, modules: [], errors: [], patch: '' }));
      }
      return out;
    }
    function held(keep) {
      gc();
      const before = process.memoryUsage().heapUsed;
      const kept = keep(delivered());
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      if (kept.length !== 200) throw new Error('lost outcomes');
      return grown;
    }
    const copies = held((list) => list);
    const shared = new SharedStrings();
    const sharedBytes = held((list) => list.map((o) => shared.own(o)));
    process.stdout.write(JSON.stringify({ copies, shared: sharedBytes }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as { copies: number; shared: number };
}

test('a fleet-sized run keeps one copy of each word and path: the copies (negative control) hold megabytes more', () => {
  const { copies, shared } = heldBytes();
  // 20,000 findings x 4 words of 4 to 40 characters: about 3 MB of copies
  expect(copies - shared).toBeGreaterThan(2_000_000);
  expect(shared).toBeLessThan(copies * 0.7);
});
