/**
 * Files the plan worker read, parsed on the main thread while the worker goes on planning, so a
 * server that runs in process is neither read nor parsed after its plan arrives (run/plan-worker.ts
 * decides which texts come over: those of a run that looks like one server).
 *
 * A prepared file is the text planning read and scanned for its Include lines, parsed exactly as
 * load-server.ts parses a file it reads; it stands for the file only where nothing may have
 * changed it since (server-job.ts: no interrupted write was found, which this run could complete
 * first). Each tree is handed out once: transforms edit it in place.
 */
import { ConfigFile, parse } from '../cst';
import { writtenFor24 } from '../semantics/era';

export interface PreparedFile {
  /** The bytes as planning read them, decoded as latin1. */
  readonly text: string;
  readonly tree: ConfigFile;
  /** writtenFor24(tree), judged before any transform edits it. */
  readonly writtenFor24: boolean;
}

export class PreparedFiles {
  /** By identity (device:inode, as the plan worker's registry keys files). */
  private readonly byIdentity = new Map<string, PreparedFile>();
  private readonly byRealPath = new Map<string, PreparedFile>();

  /** Parses one file's text now (the worker is still planning). */
  add(identity: string, text: string): void {
    const tree = parse(text);
    this.byIdentity.set(identity, { text, tree, writtenFor24: writtenFor24(tree) });
  }

  /** Names the files by the real paths the plan gives them, once planning is done; files it does not name are let go. */
  bind(realPaths: readonly (readonly [identity: string, realPath: string])[]): this {
    for (const [identity, realPath] of realPaths) {
      const file = this.byIdentity.get(identity);
      if (file) this.byRealPath.set(realPath, file);
    }
    this.byIdentity.clear();
    return this;
  }

  /** The prepared file of a planned file, once (null when there is none, or it was taken). */
  take(realPath: string): PreparedFile | null {
    const file = this.byRealPath.get(realPath) ?? null;
    this.byRealPath.delete(realPath);
    return file;
  }

  get size(): number {
    return this.byIdentity.size + this.byRealPath.size;
  }
}
