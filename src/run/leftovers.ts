/**
 * What an interrupted `--write` left behind, found and settled by the next run on the same files.
 *
 * A stage directory with a committed journal was interrupted while its targets were being
 * replaced: each target still holding its old bytes gets its new ones (the run the user asked for
 * is completed), a target already holding the new bytes is done, and a target that holds
 * anything else was edited since and is left alone (reported). A stage without a journal was
 * interrupted before anything changed and is removed. A stage whose process still runs (another
 * run on the same tree right now) is left alone.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Journal, JOURNAL, applyEntry, hashOf } from './write-transaction';
import { STAGE_PREFIX } from './stage-directory';

export interface Leftover {
  /** The stage directory. */
  readonly dir: string;
  /** completed: a committed write finished; discarded: an uncommitted one removed; busy: another live run owns it. */
  readonly outcome: 'completed' | 'discarded' | 'busy';
  /** Targets given their new bytes now. */
  readonly completed: readonly string[];
  /** Targets edited since the interrupted run: left as they are. */
  readonly conflicts: readonly string[];
  readonly pid: number;
}

function ownerPid(name: string): number {
  const m = /^\.codemod-stage-(\d+)-/.exec(name);
  return m ? Number(m[1]) : 0;
}

function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stage directories in `dirs` (not descended), except those of this process (its own writes, and stages it is settling). */
export function findStages(dirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (name.startsWith(STAGE_PREFIX) && ownerPid(name) !== process.pid) out.push(path.join(dir, name));
  }
  return out.sort();
}

function readJournal(stage: string): Journal | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(stage, JOURNAL), 'utf8')) as Journal;
  } catch {
    return null;
  }
}

function currentHash(target: string): string | null {
  try {
    return hashOf(fs.readFileSync(target));
  } catch {
    return null;
  }
}

/** Describes what settle() would do, without changing anything (dry runs). */
export function inspect(stage: string): Leftover {
  return settleOne(stage, false);
}

/**
 * Completes or removes one stage. The stage is first claimed by renaming it to a name of this
 * process (atomic), so two workers of one run never settle the same stage, and a run killed while
 * settling leaves a stage the next run settles. Returns null when another worker claimed it first.
 */
export function settle(stage: string): Leftover | null {
  const pid = ownerPid(path.basename(stage));
  if (isAlive(pid)) return { dir: stage, outcome: 'busy', completed: [], conflicts: [], pid };
  const claimed = path.join(path.dirname(stage), `${STAGE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}-settling`);
  try {
    fs.renameSync(stage, claimed);
  } catch {
    return null;
  }
  const result = settleOne(claimed, true, pid);
  return { ...result, dir: stage };
}

function settleOne(stage: string, act: boolean, claimedFrom?: number): Leftover {
  const pid = claimedFrom ?? ownerPid(path.basename(stage));
  if (!act && isAlive(pid)) return { dir: stage, outcome: 'busy', completed: [], conflicts: [], pid };
  const journal = readJournal(stage);
  const completed: string[] = [];
  const conflicts: string[] = [];
  if (journal) {
    for (const entry of journal.entries) {
      const now = currentHash(entry.target);
      if (now === entry.after) continue;
      if (now === entry.before && fs.existsSync(path.join(stage, entry.temp))) {
        if (act) applyEntry(stage, entry);
        completed.push(entry.target);
      } else {
        conflicts.push(entry.target);
      }
    }
  }
  if (act) fs.rmSync(stage, { recursive: true, force: true });
  return { dir: stage, outcome: journal ? 'completed' : 'discarded', completed, conflicts, pid };
}
