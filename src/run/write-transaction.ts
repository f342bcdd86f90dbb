/**
 * Writes one server's changed files as close to all-or-nothing as the file system allows:
 *
 * 1. every new text goes to a temporary file in a hidden stage directory (stage-directory.ts) on
 *    the file's own file system, with the file's mode and owner, and is fsynced;
 * 2. a journal naming each target with the hashes of its old and new bytes is written and
 *    renamed into place (the commit point);
 * 3. each temporary file is renamed over its target (a file with several hard links, or whose
 *    owner cannot be kept, is rewritten in place instead, so its links and owner stay);
 * 4. the directories are fsynced and the stage is removed.
 *
 * A crash before 2 leaves only the stage (nothing httpd reads, nothing changed); a crash after 2
 * leaves a journal that the next run completes (leftovers.ts). Why not write-file-atomic, used
 * before: it puts each temporary file beside its target, where `Include dir/` loads it after a
 * crash, and it renames each file on its own, so a crash leaves a server half-written.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { InputError } from '../model/server-outcome';
import { STAGE_PREFIX, stageCandidates } from './stage-directory';
import { faultPoint } from './fault-injection';

export interface PendingWrite {
  readonly realPath: string;
  readonly displayPath: string;
  /** The text the run read (latin1): the file must still hold it, or nothing is written. */
  readonly before: string;
  readonly after: string;
}

export interface JournalEntry {
  readonly target: string;
  /** Name of the temporary file inside the stage directory. */
  readonly temp: string;
  readonly method: 'rename' | 'in-place';
  readonly before: string;
  readonly after: string;
}

export interface Journal {
  readonly tool: 'httpd-codemod';
  readonly pid: number;
  readonly host: string;
  readonly started: string;
  readonly entries: JournalEntry[];
}

export const JOURNAL = 'journal.json';

export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

interface Stage {
  readonly dir: string;
  readonly entries: JournalEntry[];
}

function makeStage(candidates: readonly string[]): string {
  let lastError: unknown = new Error('no directory on the same file system');
  for (const dir of candidates) {
    const stage = path.join(dir, `${STAGE_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      fs.mkdirSync(stage, { mode: 0o700 });
      return stage;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function fsyncPath(p: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(p, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some file systems refuse fsync on a directory: the renames still happened
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Writes a temporary file with the target's mode and owner; returns how the target must be replaced. */
function writeTemp(tempPath: string, bytes: Buffer, target: fs.Stats): 'rename' | 'in-place' {
  const fd = fs.openSync(tempPath, 'wx', 0o600);
  let method: 'rename' | 'in-place' = target.nlink > 1 ? 'in-place' : 'rename';
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    fs.fchmodSync(fd, target.mode & 0o7777);
    try {
      fs.fchownSync(fd, target.uid, target.gid);
    } catch {
      // cannot give the new file the old owner: replace the old file's bytes instead
      method = 'in-place';
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return method;
}

/** Replaces a target's bytes without replacing the file (hard links and owner stay). */
export function rewriteInPlace(target: string, bytes: Buffer): void {
  const fd = fs.openSync(target, 'r+');
  try {
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    fs.ftruncateSync(fd, bytes.length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Applies one committed journal entry; the temporary file is in `stageDir`. */
export function applyEntry(stageDir: string, entry: JournalEntry): void {
  const temp = path.join(stageDir, entry.temp);
  if (entry.method === 'rename') fs.renameSync(temp, entry.target);
  else rewriteInPlace(entry.target, fs.readFileSync(temp));
}

function writeJournal(stage: Stage): void {
  const journal: Journal = {
    tool: 'httpd-codemod',
    pid: process.pid,
    host: os.hostname(),
    started: new Date().toISOString(),
    entries: stage.entries,
  };
  const temp = path.join(stage.dir, `${JOURNAL}.tmp`);
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(journal, null, 1));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, path.join(stage.dir, JOURNAL));
  fsyncPath(stage.dir);
}

export interface WriteResult {
  /** Real paths of the files that now hold their new bytes. */
  readonly written: readonly string[];
  readonly errors: readonly InputError[];
}

/**
 * Writes a server's files. When the preparation fails (a file changed on disk, no room for a
 * temporary file), nothing is written and one error says why; after the commit point, a file
 * that cannot be replaced gets its own error and the others are still written.
 */
export function writeServerFiles(writes: readonly PendingWrite[], mainRealPath: string | null): WriteResult {
  if (writes.length === 0) return { written: [], errors: [] };
  const stages = new Map<string, Stage>();
  const removeStages = () => {
    for (const s of stages.values()) fs.rmSync(s.dir, { recursive: true, force: true });
  };

  // 1. temporary files
  try {
    for (const w of writes) {
      const target = fs.statSync(w.realPath);
      const current = fs.readFileSync(w.realPath);
      if (!current.equals(Buffer.from(w.before, 'latin1'))) {
        throw Object.assign(new Error(`${w.displayPath} changed on disk while the run was working; nothing of this server was written (run again)`), { display: w.displayPath });
      }
      const candidates = stageCandidates(w.realPath, mainRealPath);
      let stage = candidates.map((c) => [...stages.values()].find((s) => path.dirname(s.dir) === c)).find((s) => s !== undefined);
      if (!stage) {
        stage = { dir: makeStage(candidates), entries: [] };
        stages.set(stage.dir, stage);
      }
      const bytes = Buffer.from(w.after, 'latin1');
      const temp = `.ht${stage.entries.length}`;
      const method = writeTemp(path.join(stage.dir, temp), bytes, target);
      stage.entries.push({ target: w.realPath, temp, method, before: hashOf(current), after: hashOf(bytes) });
      faultPoint('temp-written');
    }
    fsyncAll([...stages.keys()]);
  } catch (error) {
    removeStages();
    const display = (error as { display?: string }).display;
    const message = error instanceof Error ? error.message : String(error);
    return { written: [], errors: [{ path: display ?? writes[0].displayPath, message: display ? message : `cannot write: ${message}; nothing of this server was written` }] };
  }

  // 2. commit: from here on, the next run completes what a crash interrupts
  for (const stage of stages.values()) writeJournal(stage);

  // 3. replace the targets
  const errors: InputError[] = [];
  const written: string[] = [];
  const touched = new Set<string>();
  for (const stage of stages.values()) {
    for (const entry of stage.entries) {
      try {
        applyEntry(stage.dir, entry);
        written.push(entry.target);
        touched.add(path.dirname(entry.target));
      } catch (error) {
        const display = writes.find((w) => w.realPath === entry.target)?.displayPath ?? entry.target;
        errors.push({ path: display, message: `cannot write: ${(error as Error).message}` });
      }
      faultPoint('target-replaced');
    }
  }
  // 4. durable, then the stage goes
  fsyncAll([...touched]);
  removeStages();
  return { written, errors };
}

function fsyncAll(dirs: readonly string[]): void {
  for (const d of dirs) fsyncPath(d);
}
