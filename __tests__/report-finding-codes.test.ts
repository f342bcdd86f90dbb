/**
 * The finding-code catalogue (src/report/finding-codes.ts) is the one source of the README's
 * Findings tables and of SARIF's rule descriptions: the README holds exactly its rendering, and
 * every finding the tool reports on the fixtures, the examples and the corpus has an entry that
 * lists its severity.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FINDING_GROUPS, findingCode } from '../src/report/finding-codes';
import { ROOT, codemod } from './support/report-fleet';

// the README's rendering (npm run build && node scripts/render-finding-tables.js rewrites it)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { renderTables } = require('../scripts/render-finding-tables') as { renderTables: () => string };

test('the README Findings tables are the catalogue, rendered', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const rendered = renderTables();
  // one code table per group, in the catalogue's order
  expect(rendered.split('\n| code | severity | meaning |').length - 1).toBe(FINDING_GROUPS.length);
  expect(readme).toContain(rendered);
});

test('codes are unique, kebab-case, with a one-line summary and a meaning', () => {
  const codes = FINDING_GROUPS.flatMap((g) => g.codes);
  expect(new Set(codes.map((c) => c.code)).size).toBe(codes.length);
  for (const c of codes) {
    expect(c.code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
    expect(c.severities.length).toBeGreaterThan(0);
    expect(c.summary.length).toBeGreaterThan(0);
    expect(c.summary.length).toBeLessThanOrEqual(80);
    expect(c.summary).not.toMatch(/\n|`/);
    expect(c.meaning.length).toBeGreaterThan(0);
  }
  expect(findingCode('no-such-code')).toBeUndefined();
});

test('every finding on the fixtures, examples and corpus is catalogued with its severity', () => {
  const r = codemod(ROOT, ['--format', 'json', '--jobs', '2', '__tests__/fixtures', 'examples', '__tests__/corpus']);
  const report = JSON.parse(r.stdout) as { findings: { code: string; severity: string; message: string }[] };
  expect(report.findings.length).toBeGreaterThan(1000);
  const missing = new Set<string>();
  for (const f of report.findings) {
    const entry = findingCode(f.code);
    // a manual finding in a file the server does not read today is reported as review (src/run/runner.ts)
    const softened = f.severity === 'review' && f.message.startsWith('not read by the server today') && entry?.severities.includes('manual');
    if (!entry || (!(entry.severities as readonly string[]).includes(f.severity) && !softened)) missing.add(`${f.code} (${f.severity})`);
  }
  expect([...missing]).toEqual([]);
});

test('every code a fixture expects is catalogued with its severity', () => {
  const dir = path.join(ROOT, '__tests__', 'fixtures');
  const expected = fs
    .readdirSync(dir)
    .flatMap((t) => fs.readdirSync(path.join(dir, t)).filter((f) => f.endsWith('.findings.json')).map((f) => path.join(dir, t, f)))
    .flatMap((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as [string, string, number][]);
  expect(expected.length).toBeGreaterThan(50);
  const missing = expected.filter(([code, severity]) => !(findingCode(code)?.severities as readonly string[] | undefined)?.includes(severity));
  expect(missing).toEqual([]);
});
