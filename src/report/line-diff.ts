/**
 * The line diff of the `diff` package (jsdiff 9, `diffLines` without options), computed the same
 * way and so with the same result, at a fraction of its cost: the search keeps its paths in typed
 * arrays (allocated once and reused) instead of one object per step, and compares lines as strings,
 * as jsdiff does (a migrated file has few changes, so the search compares each line about once:
 * numbering every line first through a map cost more than the comparisons it saved). The patch of a migrated file must stay byte for byte what the package
 * produced (reviewers' tools, `git apply`, tests), and a minimal line diff is not unique: where
 * lines repeat (blank lines, `</Directory>`, `Allow from all`), which of the equal lines count as
 * removed depends on the order the search visits them. So the search is jsdiff's own: Myers'
 * greedy forward search, diagonals from -d to d, a path taken from the diagonal above (an
 * insertion) only when that reaches further into the old text, the same pruning at the edges.
 * __tests__/patch-builder.test.ts compares the two on random edits and on the corpus.
 */

/** A run of lines in the edit script: kept (both texts), removed (old text) or added (new text). */
export const KEPT = 0;
export const ADDED = 1;
export const REMOVED = 2;
export type ChangeKind = typeof KEPT | typeof ADDED | typeof REMOVED;

export interface Change {
  readonly kind: ChangeKind;
  readonly count: number;
}

/** Lines as jsdiff tokenizes them: each with its line ending (`\n` or `\r\n`); a last line may have none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    lines.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** A growable pool of edit-script runs, linked backwards (jsdiff's `lastComponent` chain). */
class Runs {
  count = new Int32Array(1024);
  kind = new Uint8Array(1024);
  prev = new Int32Array(1024);
  size = 0;

  /** Empties the pool for another search (its arrays are kept). */
  reset(): this {
    this.size = 0;
    return this;
  }

  add(count: number, kind: ChangeKind, prev: number): number {
    if (this.size === this.count.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.count = grow(this.count, (n) => new Int32Array(n));
      this.kind = grow(this.kind, (n) => new Uint8Array(n));
      this.prev = grow(this.prev, (n) => new Int32Array(n));
    }
    const id = this.size++;
    this.count[id] = count;
    this.kind[id] = kind;
    this.prev[id] = prev;
    return id;
  }
}

/** Above this many runs (of 9 bytes) the search stops and the caller falls back to the package itself (huge rewrites only). */
export const MAX_RUNS = 1 << 23;

/**
 * The edit script turning `oldLines` into `newLines`, as jsdiff's diffLines finds it (runs of
 * kept, removed and added lines, in order), or null when the search would need more than `maxRuns`
 * runs of memory.
 */
export function diffLineRuns(oldLines: readonly string[], newLines: readonly string[], maxRuns = MAX_RUNS): Change[] | null {
  try {
    return search(oldLines, newLines, maxRuns);
  } finally {
    releaseLarge();
  }
}

function search(oldLines: readonly string[], newLines: readonly string[], maxRuns: number): Change[] | null {
  const a = oldLines;
  const b = newLines;
  const oldLen = a.length;
  const newLen = b.length;
  // one search at a time (collect() copies the script out before the next one starts)
  const runs = sharedRuns.reset();

  // bestPath[k] for diagonal k = oldPos - newPos, stored at k + offset; run -1 = no run yet
  const offset = oldLen + newLen + 1;
  const { pathOld, pathRun, alive } = paths(2 * offset + 1);

  /** Slides along equal lines from (oldPos, oldPos - k); returns the new oldPos and records a kept run. */
  const slide = (k: number, oldPos: number, run: number): [number, number] => {
    let o = oldPos;
    let n = oldPos - k;
    let common = 0;
    while (n + 1 < newLen && o + 1 < oldLen && a[o + 1] === b[n + 1]) {
      n++;
      o++;
      common++;
    }
    return [o, common > 0 ? runs.add(common, KEPT, run) : run];
  };
  /** jsdiff's addToPath: one more added or removed line, merged into the last run when it is of the same kind. */
  const step = (run: number, kind: ChangeKind): number => {
    if (run !== -1 && runs.kind[run] === kind) return runs.add(runs.count[run] + 1, kind, runs.prev[run]);
    return runs.add(1, kind, run);
  };

  const [o0, r0] = slide(0, -1, -1);
  if (o0 + 1 >= oldLen && o0 + 1 >= newLen) return collect(runs, r0);
  pathOld[offset] = o0;
  pathRun[offset] = r0;
  alive[offset] = 1;

  let minK = -Infinity;
  let maxK = Infinity;
  for (let d = 1; d <= oldLen + newLen; d++) {
    for (let k = Math.max(minK, -d); k <= Math.min(maxK, d); k += 2) {
      const removeAt = k - 1 + offset;
      const addAt = k + 1 + offset;
      const hasRemove = alive[removeAt] === 1;
      const hasAdd = alive[addAt] === 1;
      const removeOld = pathOld[removeAt];
      const addOld = pathOld[addAt];
      if (hasRemove) alive[removeAt] = 0; // no one else reads it
      let canAdd = false;
      if (hasAdd) {
        const newPosAfterAdd = addOld - k;
        canAdd = newPosAfterAdd >= 0 && newPosAfterAdd < newLen;
      }
      const canRemove = hasRemove && removeOld + 1 < oldLen;
      if (!canAdd && !canRemove) {
        alive[k + offset] = 0;
        continue;
      }
      let oldPos: number;
      let run: number;
      // the path that reaches further into the old text; an insertion only when it is strictly further
      if (!canRemove || (canAdd && removeOld < addOld)) {
        oldPos = addOld;
        run = step(pathRun[addAt], ADDED);
      } else {
        oldPos = removeOld + 1;
        run = step(pathRun[removeAt], REMOVED);
      }
      [oldPos, run] = slide(k, oldPos, run);
      if (runs.size > maxRuns) return null;
      const newPos = oldPos - k;
      if (oldPos + 1 >= oldLen && newPos + 1 >= newLen) return collect(runs, run);
      pathOld[k + offset] = oldPos;
      pathRun[k + offset] = run;
      alive[k + offset] = 1;
      if (oldPos + 1 >= oldLen) maxK = Math.min(maxK, k - 1);
      if (newPos + 1 >= newLen) minK = Math.max(minK, k + 1);
    }
  }
  return null; // unreachable: d = oldLen + newLen always reaches the end
}

let sharedRuns = new Runs();

/** Arrays kept between searches up to this many entries; a larger search (a huge rewrite) leaves its arrays to the collector. */
const KEEP = 1 << 16;

/**
 * The search's diagonal arrays, kept between searches and grown when a text pair needs more. Only
 * `alive` must start cleared: pathOld and pathRun are read for a diagonal only once it is alive.
 */
let diagonals = { pathOld: new Int32Array(1024), pathRun: new Int32Array(1024), alive: new Uint8Array(1024) };

function releaseLarge(): void {
  if (sharedRuns.count.length > KEEP) sharedRuns = new Runs();
  if (diagonals.alive.length > KEEP) diagonals = { pathOld: new Int32Array(1024), pathRun: new Int32Array(1024), alive: new Uint8Array(1024) };
}

function paths(size: number): typeof diagonals {
  if (diagonals.alive.length < size) {
    const n = Math.max(size, diagonals.alive.length * 2);
    diagonals = { pathOld: new Int32Array(n), pathRun: new Int32Array(n), alive: new Uint8Array(n) };
  } else {
    diagonals.alive.fill(0, 0, size);
  }
  return diagonals;
}

function collect(runs: Runs, last: number): Change[] {
  const out: Change[] = [];
  for (let r = last; r !== -1; r = runs.prev[r]) out.push({ kind: runs.kind[r] as ChangeKind, count: runs.count[r] });
  return out.reverse();
}
