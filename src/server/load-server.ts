/**
 * Reads and parses the files of one planned server, when that server's turn comes. A file that
 * vanished or became unreadable or binary since planning is not part of the server: it comes
 * back as an error for that file, and the rest of the server runs.
 */
import { parse } from '../cst';
import { writtenFor24 } from '../semantics/era';
import { BINARY_MESSAGE, readSource } from './read-source';
import { InputError, PlannedFile, ServerPlan, ServerTree, SourceFile } from './types';

export interface LoadedServer {
  readonly server: ServerTree;
  /** Planned files that could not be loaded, with the reason. */
  readonly failed: readonly { readonly file: PlannedFile; readonly error: InputError }[];
}

function load(file: PlannedFile): SourceFile | InputError {
  const fail = (message: string): InputError => ({ path: file.displayPath, message });
  // the file may have been replaced since planning (an editor's save, or this run completing an
  // interrupted write before it loads the server): what counts is what it holds now
  const read = readSource(file.realPath);
  if (read.kind === 'error') return fail(read.message);
  if (read.kind === 'binary') return fail(BINARY_MESSAGE);
  const tree = parse(read.text);
  return {
    realPath: file.realPath,
    displayPath: file.displayPath,
    role: file.role,
    ...(file.asIf !== undefined ? { asIf: file.asIf } : {}),
    ...(file.directory !== undefined ? { directory: file.directory } : {}),
    original: read.text,
    tree,
    ...(writtenFor24(tree) ? { writtenFor24: true } : {}),
  };
}

export function loadServer(plan: ServerPlan): LoadedServer {
  const files: SourceFile[] = [];
  const failed: { file: PlannedFile; error: InputError }[] = [];
  for (const planned of plan.files) {
    const loaded = load(planned);
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
