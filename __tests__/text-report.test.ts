/**
 * The text report of a large fleet: a 1,000-server run has some 160,000 findings, and building the
 * report with push(...lines) threw "Maximum call stack size exceeded" after all the work was done
 * (exit 2, no findings printed). The report is built without spreading its lines into one call.
 */
import { ServerOutcome } from '../src/model/server-outcome';
import { Summary } from '../src/model/run-report';
import { textReport } from '../src/report/text-report';

const FINDINGS_PER_SERVER = 160;
const SERVERS = 1000;

function fleet(): ServerOutcome[] {
  const servers: ServerOutcome[] = [];
  for (let s = 0; s < SERVERS; s++) {
    const file = `/srv/fleet/host${String(s).padStart(4, '0')}/sites-available/site`;
    servers.push({
      id: `host${s}`,
      main: `/srv/fleet/host${s}/apache2.conf`,
      status: 'migrated',
      files: [{ path: file, role: 'included', status: 'changed' }],
      findings: Array.from({ length: FINDINGS_PER_SERVER }, (_, i) => ({
        code: 'access-migrated',
        severity: 'info' as const,
        message: 'access rules rewritten as Require',
        file,
        line: FINDINGS_PER_SERVER - i,
        transform: 'access-to-require',
      })),
      modules: [],
      errors: [],
      patch: '',
    });
  }
  return servers;
}

const SUMMARY: Summary = { changed: SERVERS, unchanged: 0, skipped: 0, errors: 0, needReview: 0, needManual: 0 };

test('160,000 findings: every line is printed, sorted by file and line, and the summary last', () => {
  const text = textReport(fleet(), [], SUMMARY, 'diff');
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  expect(lines).toHaveLength(SERVERS * FINDINGS_PER_SERVER + 1);
  expect(lines[0]).toBe('/srv/fleet/host0000/sites-available/site:1: info [access-migrated] access rules rewritten as Require');
  expect(lines[lines.length - 1]).toBe('1000 to change, 0 unchanged, 0 skipped, 0 need review, 0 need manual action, 0 errors');
});

test('--check lists the files that would change, one per server', () => {
  const lines = textReport(fleet(), [], SUMMARY, 'check').trimEnd().split('\n');
  expect(lines).toHaveLength(SERVERS + 1);
  expect(lines[0]).toBe('would change: /srv/fleet/host0000/sites-available/site');
});

test('negative control: spreading that many lines into one push throws, as the report used to', () => {
  const lines = new Array<string>(SERVERS * FINDINGS_PER_SERVER).fill('x');
  expect(() => [].push(...(lines as never[]))).toThrow(RangeError);
});
