/**
 * Unified diffs that `git apply` accepts: `diff --git` headers, `a/` and `b/`
 * prefixes, paths relative to the working directory, 3 lines of context.
 * Texts are latin1 strings (one character per byte), so the patch carries
 * the files' bytes unchanged (CRLF, non-UTF-8) when written as latin1.
 */
import { structuredPatch } from 'diff';

export function filePatch(displayPath: string, before: string, after: string): string {
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

/** Concatenates the patches of several files. */
export function patchOf(changes: readonly { displayPath: string; before: string; after: string }[]): string {
  return changes.map((c) => filePatch(c.displayPath, c.before, c.after)).join('');
}
