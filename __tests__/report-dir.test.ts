/**
 * --report-dir: per server a patch `git apply` accepts, its JSON entry and its page; index.html
 * with one row per server; the same files for every --jobs; with --write, the patches are what
 * was written. The pages are checked in a real browser by browser-review.test.ts.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Finding } from '../src/model/finding';
import { diffView } from '../src/report/site/diff-view';
import { ROOT, buildReportFleet, codemod, snapshot, tempDir } from './support/report-fleet';

interface ServerJson {
  id: string;
  main: string | null;
  status: string;
  files: { path: string; status: string }[];
  findings: Finding[];
}

let tmp: string;
beforeEach(() => {
  tmp = tempDir('codemod-report-dir-');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The report fleet plus a whole Debian server (Include graph, several changed files). */
function fleetWithDebian(root: string): void {
  buildReportFleet(root);
  fs.cpSync(path.join(ROOT, 'examples', 'debian-2.2'), path.join(root, 'fleet', 'debian'), { recursive: true, verbatimSymlinks: true });
}

function copy(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

function git(cwd: string, ...args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('a fleet', () => {
  let servers: ServerJson[];

  beforeEach(() => {
    fleetWithDebian(path.join(tmp, 'a'));
    const json = codemod(path.join(tmp, 'a'), ['--format', 'json', 'fleet']);
    servers = JSON.parse(json.stdout).servers;
  });

  test('per server a page, its JSON entry and (when it changes) a patch; the index and the style sheets', () => {
    const r = codemod(path.join(tmp, 'a'), ['--report-dir', '../report', 'fleet']);
    expect(r.status).toBe(2); // broken.conf, as without --report-dir
    const dir = path.join(tmp, 'report');
    const expected = ['index.html', 'review.css', 'diff2html.min.css'];
    for (const s of servers) {
      expected.push(`${s.id}.html`, `${s.id}.json`);
      if (s.files.some((f) => f.status === 'changed')) expected.push(`${s.id}.patch`);
      expect(JSON.parse(fs.readFileSync(path.join(dir, `${s.id}.json`), 'utf8'))).toEqual(s);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(expected.sort());
    expect(fs.readFileSync(path.join(dir, 'diff2html.min.css'))).toEqual(fs.readFileSync(require.resolve('diff2html/bundles/css/diff2html.min.css')));
    // the dry run's stdout is still the diff
    expect(r.stdout).toMatch(/^diff --git a\/fleet\/debian\/apache2\.conf /m);

    // index: one row per server, in plan order, with its status and counts
    const index = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    const rows = [...index.matchAll(/<tr data-status="([a-z]+)" data-order="(\d+)"[^>]*><td><a href="([^"]+)\.html">/g)];
    expect(rows.map((m) => [m[1], m[3]])).toEqual(servers.map((s) => [s.status, s.id]));
    expect(new Set(servers.map((s) => s.status))).toEqual(new Set(['manual', 'review', 'migrated', 'unchanged', 'error']));
    const web1 = servers.find((s) => s.main === 'fleet/web1/httpd.conf') as ServerJson;
    const web1Row = index.slice(index.indexOf(`href="${web1.id}.html"`)).split('</tr>')[0];
    const count = (sev: string) => web1.findings.filter((f) => f.severity === sev).length;
    expect([...web1Row.matchAll(/data-sort="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([4, 1, count('manual'), count('review'), count('info'), 0]);

    // nothing on any page comes from the network
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.html'))) {
      const html = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html).not.toMatch(/@import|url\(\s*["']?https?:/);
    }
  });

  test('the patches apply with git apply to a copy and give what --write writes', () => {
    copy(path.join(tmp, 'a'), path.join(tmp, 'b'));
    codemod(path.join(tmp, 'a'), ['--report-dir', '../report', 'fleet']);
    codemod(path.join(tmp, 'b'), ['--write', 'fleet']);
    const patches = fs.readdirSync(path.join(tmp, 'report')).filter((n) => n.endsWith('.patch'));
    expect(patches.length).toBe(servers.filter((s) => s.files.some((f) => f.status === 'changed')).length);
    expect(patches.length).toBeGreaterThanOrEqual(4);
    for (const p of patches) {
      const check = git(path.join(tmp, 'a'), 'apply', '--check', path.join(tmp, 'report', p));
      expect(check).toEqual({ status: 0, stderr: '' });
      expect(git(path.join(tmp, 'a'), 'apply', path.join(tmp, 'report', p)).status).toBe(0);
    }
    expect(snapshot(path.join(tmp, 'a'))).toEqual(snapshot(path.join(tmp, 'b')));
  });

  test('the report is the same for --jobs 1, 2 and 3', () => {
    const dirs = ['1', '2', '3'].map((n) => {
      codemod(path.join(tmp, 'a'), ['--jobs', n, '--report-dir', `../report${n}`, 'fleet']);
      return snapshot(path.join(tmp, `report${n}`));
    });
    // several servers, each with its page, JSON entry and (when it changes) patch, plus the index and style sheets
    expect(Object.keys(dirs[0]).length).toBeGreaterThan(12);
    expect(dirs[1]).toEqual(dirs[0]);
    expect(dirs[2]).toEqual(dirs[0]);
  });

  test('with --write: the patches are what was written, the pages those of the dry run', () => {
    // the same paths (ids hash the real path), first dry, then written
    codemod(path.join(tmp, 'a'), ['--report-dir', '../dry', 'fleet']);
    const r = codemod(path.join(tmp, 'a'), ['--write', '--jobs', '2', '--report-dir', '../written', 'fleet']);
    expect(r.status).toBe(2);
    const dry = snapshot(path.join(tmp, 'dry'));
    const written = snapshot(path.join(tmp, 'written'));
    expect(Object.keys(written).sort()).toEqual(Object.keys(dry).sort());
    for (const name of Object.keys(dry).filter((n) => n !== 'index.html')) expect([name, written[name]]).toEqual([name, dry[name]]);
    expect(written['index.html']).toContain('written (--write)');
    expect(dry['index.html']).toContain('dry run');
    // reversed, each patch applies to the written tree
    for (const p of Object.keys(written).filter((n) => n.endsWith('.patch'))) {
      expect(git(path.join(tmp, 'a'), 'apply', '-R', '--check', path.join(tmp, 'written', p))).toEqual({ status: 0, stderr: '' });
    }
  });
});

test('a report directory that cannot be made is an error (exit 2); the run still reports', () => {
  buildReportFleet(tmp);
  fs.writeFileSync(path.join(tmp, 'taken'), 'a file\n');
  const r = codemod(tmp, ['--report-dir', 'taken/report', 'fleet/web2']);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^error: taken\/report: cannot write the report: /m);
  expect(r.stdout).toMatch(/^diff --git a\/fleet\/web2\/httpd\.conf /m);
});

describe('findings at their lines in the diff', () => {
  const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  const after = before.map((l, i) => (i === 9 ? 'line 10 changed' : l));
  const patch =
    'diff --git a/x.conf b/x.conf\n--- a/x.conf\n+++ b/x.conf\n@@ -7,7 +7,7 @@\n' +
    [...before.slice(6, 9).map((l) => ' ' + l), '-line 10', '+line 10 changed', ...after.slice(10, 13).map((l) => ' ' + l)].join('\n') +
    '\n';
  const finding = (line: number, file = 'x.conf'): Finding => ({ code: 'c', severity: 'review', message: `at ${line}`, file, line, transform: 't' });
  const inHunk = finding(10);
  const context = finding(8);
  const outside = finding(25);
  const fileLevel = finding(0);
  const otherFile = finding(10, 'y.conf');
  const row = (here: readonly Finding[], shadow: boolean) => `<td colspan="2">${shadow ? 'SHADOW' : ''}${here.map((f) => `[${f.message}]`).join('')}</td>`;
  const view = diffView(patch, [inHunk, context, outside, fileLevel, otherFile], row);

  test('a finding on a line of a hunk is placed there; the others are left for the list', () => {
    expect([...view.placed]).toEqual([context, inHunk]);
  });

  test('the row follows its line on the left, and an invisible copy keeps the right side aligned', () => {
    const [left, right] = view.html.split('<tbody class="d2h-diff-tbody">').slice(1).map((t) => t.split('</tbody>')[0].split('</tr>'));
    expect(left.length).toBe(right.length);
    const lineOf = (r: string) => /d2h-code-side-linenumber[^"]*">\s*(\d+)\s*</.exec(r)?.[1];
    const at10 = left.findIndex((r) => lineOf(r) === '10');
    expect(left[at10 + 1]).toMatch(/<tr class="cm-finding-row"><td colspan="2">\[at 10\]<\/td>\s*$/);
    expect(right[at10 + 1]).toMatch(/<tr class="cm-finding-row cm-shadow" aria-hidden="true"><td colspan="2">SHADOW\[at 10\]<\/td>\s*$/);
    const at8 = left.findIndex((r) => lineOf(r) === '8');
    expect(left[at8 + 1]).toContain('[at 8]');
    expect(view.html).not.toContain('[at 25]');
  });

  test('without findings the diff is diff2html\'s own output (control)', () => {
    const plain = diffView(patch, [], row);
    expect(plain.placed.size).toBe(0);
    expect(plain.html).not.toContain('cm-finding-row');
    expect(plain.html).toContain('<span class="d2h-code-line-ctn">line 11</span>');
  });
});
