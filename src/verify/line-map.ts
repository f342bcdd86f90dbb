/**
 * Lines of a migrated text back to the original: httpd names lines of the migrated file it read;
 * the user has the original (a refused server is not written). A line the migration kept maps to
 * its original number; a line it wrote maps to none.
 */
import { diffArrays } from 'diff';

function lines(text: string): string[] {
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** For each line of `migrated` (1-based index), its line in `original`, or 0 when the migration wrote it. */
export function migratedToOriginal(original: string, migrated: string): number[] {
  const map = [0];
  let oldLine = 0;
  for (const part of diffArrays(lines(original), lines(migrated))) {
    const n = part.count ?? part.value.length;
    if (part.removed) oldLine += n;
    else if (part.added) for (let i = 0; i < n; i++) map.push(0);
    else for (let i = 0; i < n; i++) map.push(++oldLine);
  }
  return map;
}
