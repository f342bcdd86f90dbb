/**
 * Unified diffs that `git apply` accepts: `diff --git` headers, `a/` and `b/`
 * prefixes, paths relative to the working directory, 3 lines of context.
 * Texts are latin1 strings (one character per byte), so the patch carries
 * the files' bytes unchanged (CRLF, non-UTF-8) when written as latin1.
 *
 * The hunks are the `diff` package's (`structuredPatch`, context 3), byte for byte: the edit
 * script comes from line-diff.ts, which finds the same one much faster, and is cut into hunks
 * here the way the package does it.
 */
import { structuredPatch } from 'diff';
import { ADDED, Change, KEPT, MAX_RUNS, diffLineRuns, splitLines } from './line-diff';

const CONTEXT = 3;
const NO_NEWLINE = '\\ No newline at end of file';

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** ' ', '-' or '+' and the line, line ending included (removed when the hunk is printed). */
  lines: string[];
}

/**
 * The package's hunks from an edit script (its diffLinesResultToPatch): changes with up to
 * CONTEXT kept lines around them; changes closer than 2 × CONTEXT lines share a hunk.
 */
function hunksOf(changes: readonly Change[], oldLines: readonly string[], newLines: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let oldRangeStart = 0;
  let newRangeStart = 0;
  let current: string[] = [];
  // next line of each text, 1-based, and the same as offsets into the line arrays (0-based)
  let oldLine = 1;
  let newLine = 1;
  const kept = (from: number, to: number) => {
    for (let i = from; i < to; i++) current.push(' ' + oldLines[i]);
  };
  // the package appends an empty kept run, which closes the last hunk
  const runs = [...changes, { kind: KEPT, count: 0 }];
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i];
    if (run.kind !== KEPT) {
      if (!oldRangeStart) {
        oldRangeStart = oldLine;
        newRangeStart = newLine;
        if (i > 0) {
          // the context before: the end of the kept run before this change
          const n = Math.min(CONTEXT, runs[i - 1].count);
          kept(oldLine - 1 - n, oldLine - 1);
          oldRangeStart -= n;
          newRangeStart -= n;
        }
      }
      if (run.kind === ADDED) {
        for (let j = 0; j < run.count; j++) current.push('+' + newLines[newLine - 1 + j]);
        newLine += run.count;
      } else {
        for (let j = 0; j < run.count; j++) current.push('-' + oldLines[oldLine - 1 + j]);
        oldLine += run.count;
      }
      continue;
    }
    if (oldRangeStart) {
      if (run.count <= CONTEXT * 2 && i < runs.length - 2) {
        // close enough to the next change: the whole kept run joins the hunk
        kept(oldLine - 1, oldLine - 1 + run.count);
      } else {
        const size = Math.min(run.count, CONTEXT);
        kept(oldLine - 1, oldLine - 1 + size);
        hunks.push({
          oldStart: oldRangeStart,
          oldLines: oldLine - oldRangeStart + size,
          newStart: newRangeStart,
          newLines: newLine - newRangeStart + size,
          lines: current,
        });
        oldRangeStart = 0;
        newRangeStart = 0;
        current = [];
      }
    }
    oldLine += run.count;
    newLine += run.count;
  }
  return hunks;
}

/** The package's own hunks: for the rare edit too large for line-diff.ts's memory bound. */
function packageHunks(a: string, b: string, before: string, after: string): Hunk[] {
  return structuredPatch(a, b, before, after, undefined, undefined, { context: CONTEXT }).hunks.map((h) => ({
    ...h,
    // put the line endings back, as hunksOf leaves them: printed the same way below
    lines: h.lines.flatMap((line, i, all) => (line === NO_NEWLINE ? [] : [all[i + 1] === NO_NEWLINE ? line : line + '\n'])),
  }));
}

/** The patch of one file (`maxRuns`: line-diff.ts's memory bound, lowered by tests to reach the fallback). */
export function filePatch(displayPath: string, before: string, after: string, maxRuns = MAX_RUNS): string {
  if (before === after) return '';
  const a = `a/${displayPath}`;
  const b = `b/${displayPath}`;
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const changes = diffLineRuns(oldLines, newLines, maxRuns);
  const hunks = changes ? hunksOf(changes, oldLines, newLines) : packageHunks(a, b, before, after);
  let out = `diff --git ${a} ${b}\n--- ${a}\n+++ ${b}\n`;
  for (const hunk of hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    out += `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`;
    for (const line of hunk.lines) {
      // a line without its newline is the last of its file: git's marker follows it
      out += line.endsWith('\n') ? line : line + '\n' + NO_NEWLINE + '\n';
    }
  }
  return out;
}

/** Concatenates the patches of several files. */
export function patchOf(changes: readonly { displayPath: string; before: string; after: string }[]): string {
  return changes.map((c) => filePatch(c.displayPath, c.before, c.after)).join('');
}
