/**
 * The patch builder (src/report/patch.ts, src/report/line-diff.ts) against the `diff` package it
 * replaces: byte-identical patches on random edits of texts full of repeated lines (where a
 * minimal diff is not unique and only the package's own search order gives its answer), with
 * CRLF, mixed line endings, no final newline and latin1 bytes; on every corpus file as the
 * pipeline migrates it; through the package fallback; and `git apply` takes what it writes.
 * Negative control: a diff that finds minimal scripts in another order is told apart.
 */
import { execFileSync } from 'child_process';
import { structuredPatch } from 'diff';
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { filePatch } from '../src/report/patch';
import { ADDED, KEPT, REMOVED, diffLineRuns, splitLines } from '../src/report/line-diff';
import { transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { CORPUS_DIR } from './support/corpus';

jest.setTimeout(300000);

/** What src/report/patch.ts was: the package's structuredPatch, printed with git's headers. */
function packagePatch(displayPath: string, before: string, after: string): string {
  if (before === after) return '';
  const a = `a/${displayPath}`;
  const b = `b/${displayPath}`;
  const { hunks } = structuredPatch(a, b, before, after, undefined, undefined, { context: 3 });
  const out = [`diff --git ${a} ${b}`, `--- ${a}`, `+++ ${b}`];
  for (const hunk of hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out.push(`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return out.join('\n') + '\n';
}

// Lines that repeat in real configs, so that many equally short diffs exist.
const BODY = ['', '</Directory>', 'Allow from all', 'Order allow,deny', '    Require all granted', '#', 'x', 'caf\xe9 \xff\x80', 'a\rb'];
const eol = fc.constantFrom('\n', '\n', '\r\n');
const line = fc.tuple(fc.constantFrom(...BODY), eol).map(([t, e]) => t + e);
const text = fc
  .tuple(fc.array(line, { maxLength: 40 }), fc.boolean(), fc.constantFrom(...BODY))
  .map(([lines, cut, last]) => lines.join('') + (cut ? last : ''));

type Edit = { at: number; remove: number; insert: string[] };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(45),
  remove: fc.nat(4),
  insert: fc.array(line, { maxLength: 4 }),
});

/** Applies edits to the text's lines (positions wrap); may also drop or add the final newline. */
function applyEdits(before: string, edits: readonly Edit[], toggleFinal: boolean): string {
  const lines = splitLines(before);
  for (const e of edits) {
    const at = lines.length === 0 ? 0 : e.at % (lines.length + 1);
    lines.splice(at, e.remove, ...e.insert);
  }
  let after = lines.join('');
  if (toggleFinal) after = after.endsWith('\n') ? after.replace(/\r?\n$/, '') : after + '\n';
  return after;
}

describe('the patch builder gives the diff package\'s patch', () => {
  test('random edits: repeated lines, CRLF and LF, no final newline, latin1 bytes', () => {
    fc.assert(
      fc.property(text, fc.array(edit, { maxLength: 6 }), fc.boolean(), (before, edits, toggle) => {
        const after = applyEdits(before, edits, toggle);
        expect(filePatch('f.conf', before, after)).toBe(packagePatch('f.conf', before, after));
      }),
      { numRuns: 3000 },
    );
  });

  test('unrelated texts (large edit scripts), and empty ones', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(filePatch('f.conf', before, after)).toBe(packagePatch('f.conf', before, after));
      }),
      { numRuns: 1000 },
    );
    for (const [a, b] of [['', 'x\n'], ['x\n', ''], ['x', 'x\n'], ['x\n', 'x'], ['\r\n', '\n'], ['', '']]) {
      expect(filePatch('f.conf', a, b)).toBe(packagePatch('f.conf', a, b));
    }
  });

  test('the corpus, as the pipeline migrates each file (and with random edits)', () => {
    const files = fs.readdirSync(CORPUS_DIR, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !/\.(tsv|md)$/.test(e.name));
    expect(files.length).toBeGreaterThan(50);
    let changed = 0;
    for (const entry of files) {
      const before = fs.readFileSync(path.join(entry.parentPath ?? entry.path, entry.name), 'latin1');
      const { output } = transformText(before, TRANSFORMS, {}, entry.name);
      if (output !== before) changed++;
      expect(filePatch(entry.name, before, output)).toBe(packagePatch(entry.name, before, output));
      const edited = applyEdits(before, [{ at: 7, remove: 2, insert: ['\n', 'Allow from all\n'] }, { at: 30, remove: 1, insert: [] }], false);
      expect(filePatch(entry.name, before, edited)).toBe(packagePatch(entry.name, before, edited));
    }
    expect(changed).toBeGreaterThan(20);
  });

  test('an edit script too large for its memory bound falls back to the package', () => {
    const before = 'a\r\nb\nc\n'.repeat(50) + 'tail';
    const after = 'b\nx\r\n'.repeat(60) + 'tail\n';
    expect(diffLineRuns(splitLines(before), splitLines(after), 10)).toBeNull();
    expect(filePatch('f.conf', before, after, 10)).toBe(packagePatch('f.conf', before, after));
  });

  test('git apply takes the patch and gives the new bytes (CRLF, latin1, no final newline)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codemod-patch-'));
    try {
      const before = '<Directory /x>\r\n    Order allow,deny\r\n    Allow from all\r\n</Directory>\r\n# caf\xe9\n\nlast';
      const after = '<Directory /x>\r\n    Require all granted\r\n</Directory>\r\n# caf\xe9\n\nlast\n';
      fs.writeFileSync(path.join(dir, 'site.conf'), before, 'latin1');
      fs.writeFileSync(path.join(dir, 'fix.patch'), filePatch('site.conf', before, after), 'latin1');
      execFileSync('git', ['apply', 'fix.patch'], { cwd: dir });
      expect(fs.readFileSync(path.join(dir, 'site.conf'), 'latin1')).toBe(after);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('negative control: an equally short script found in another order is told apart', () => {
    // the same search over the reversed texts finds a minimal script too, where lines repeat often another one
    const script = (a: readonly string[], b: readonly string[]): string[] => {
      const marks: string[] = [];
      let i = 0;
      let j = 0;
      for (const r of diffLineRuns(a, b) ?? []) {
        for (let n = 0; n < r.count; n++) {
          if (r.kind === KEPT) marks.push(' ' + a[i++] + b[j++].slice(0, 0));
          else if (r.kind === REMOVED) marks.push('-' + a[i++]);
          else if (r.kind === ADDED) marks.push('+' + b[j++]);
        }
      }
      return marks;
    };
    const samples = fc.sample(fc.tuple(text, fc.array(edit, { maxLength: 6 })), { numRuns: 500, seed: 42 });
    const differing = samples.filter(([before, edits]) => {
      const a = splitLines(before);
      const b = splitLines(applyEdits(before, edits, false));
      const forward = script(a, b);
      const backward = script([...a].reverse(), [...b].reverse()).reverse();
      expect(backward.length).toBe(forward.length);
      return forward.join('') !== backward.join('');
    });
    expect(differing.length).toBeGreaterThan(20);
  });
});
