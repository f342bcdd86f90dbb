/**
 * Reads and parses the files of one planned server, when that server's turn comes. A file that
 * vanished or became unreadable or binary since planning is not part of the server: it comes
 * back as an error for that file, and the rest of the server runs. A file the main thread parsed
 * while planning went on (prepared-files.ts) is taken as it is, not read again.
 */
import { parse } from '../cst';
import { writtenFor24 } from '../semantics/era';
import { PreparedFiles } from './prepared-files';
import { BINARY_MESSAGE, readSource } from './read-source';
import { InputError, PlannedFile, ServerPlan, ServerTree, SourceFile } from './types';

export interface LoadedServer {
  readonly server: ServerTree;
  /** Planned files that could not be loaded, with the reason. */
  readonly failed: readonly { readonly file: PlannedFile; readonly error: InputError }[];
}

function sourceFile(file: PlannedFile, text: string, tree: SourceFile['tree'], for24: boolean): SourceFile {
  return {
    realPath: file.realPath,
    displayPath: file.displayPath,
    role: file.role,
    ...(file.asIf !== undefined ? { asIf: file.asIf } : {}),
    ...(file.directory !== undefined ? { directory: file.directory } : {}),
    original: text,
    tree,
    ...(for24 ? { writtenFor24: true } : {}),
  };
}

function load(file: PlannedFile, prepared: PreparedFiles | null): SourceFile | InputError {
  const ready = prepared?.take(file.realPath);
  if (ready) return sourceFile(file, ready.text, ready.tree, ready.writtenFor24);
  const fail = (message: string): InputError => ({ path: file.displayPath, message });
  // the file may have been replaced since planning (an editor's save, or this run completing an
  // interrupted write before it loads the server): what counts is what it holds now
  const read = readSource(file.realPath);
  if (read.kind === 'error') return fail(read.message);
  if (read.kind === 'binary') return fail(BINARY_MESSAGE);
  const tree = parse(read.text);
  return sourceFile(file, read.text, tree, writtenFor24(tree));
}

/** `prepared`: files parsed while planning, to take instead of reading them (only where nothing can have changed them since). */
export function loadServer(plan: ServerPlan, prepared: PreparedFiles | null = null): LoadedServer {
  const files: SourceFile[] = [];
  const failed: { file: PlannedFile; error: InputError }[] = [];
  for (const planned of plan.files) {
    const loaded = load(planned, prepared);
    if ('tree' in loaded) files.push(loaded);
    else failed.push({ file: planned, error: loaded });
  }
  const main = plan.main ? (files.find((f) => f.realPath === plan.main?.realPath) ?? null) : null;
  if (plan.main && !main) {
    // without its main config a server's files would be migrated as fragments: none of them is
    const reason = failed.find((f) => f.file.realPath === plan.main?.realPath)?.error.message ?? 'unreadable';
    for (const f of files) failed.push({ file: plan.files.find((p) => p.realPath === f.realPath)!, error: { path: f.displayPath, message: `its main config ${plan.main.displayPath} could not be read (${reason})` } });
    files.length = 0;
  }
  return { server: { id: plan.id, main, serverRoot: plan.serverRoot, files, includes: plan.includes }, failed };
}
