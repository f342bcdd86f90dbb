/**
 * What discovery hands to the runner: files grouped per server.
 */
import { ConfigFile } from '../cst';
import { FileRole, InputError } from '../model/server-outcome';

export type { FileRole, InputError };

export interface SourceFile {
  /** Absolute path of the real file (symlinks resolved). */
  readonly realPath: string;
  /** Path shown to the user and used in patches: relative to the working directory when inside it. */
  readonly displayPath: string;
  readonly role: FileRole;
  /** Set for a file no Include reaches that is migrated as if included: where and why (see PlannedFile.asIf). */
  readonly asIf?: string;
  /** For a per-directory file (role 'htaccess') of a server: the directory it is read for, as the config names paths. */
  readonly directory?: string;
  /** The file as read holds what only 2.4 knows (src/semantics/era.ts): it means what it says on 2.4 already. */
  readonly writtenFor24?: boolean;
  /** The bytes as read, decoded as latin1 (one character per byte). */
  readonly original: string;
  /** The tree, parsed once. Transforms edit it in place. */
  tree: ConfigFile;
}

export interface ServerTree {
  /** Display path of the main config, or of the fragment for a one-file group. */
  readonly id: string;
  readonly main: SourceFile | null;
  /** ServerRoot as resolved on this machine (mapped into the scanned tree when needed), or null. */
  readonly serverRoot: string | null;
  /** All files of this server in include order, main first, then .htaccess files. */
  readonly files: SourceFile[];
  /** For each file, the files its Include lines reached (by realPath). */
  readonly includes: ReadonlyMap<string, readonly string[]>;
}

/** A file of a planned server: where it is and what it is, not its text (read when the server runs). */
export interface PlannedFile {
  readonly realPath: string;
  readonly displayPath: string;
  /** 'context': read for its parents, modules and paths (--context), never written. */
  readonly role: FileRole;
  /**
   * A file of the server's tree that no Include reaches (behind a commented-out Include, in
   * sites-available/ but not enabled, …), migrated as if included where that line would put it:
   * the line, for findings. Its scopes may meet the server's on some future request, never surely.
   */
  readonly asIf?: string;
  /** For a per-directory file of a server: the directory it is read for, as the config names paths. */
  readonly directory?: string;
}

/**
 * A server as planned: its files and Include graph, without texts or trees, so a fleet's plan
 * stays small and can be handed to a worker thread (structured clone).
 */
export interface ServerPlan {
  readonly id: string;
  readonly main: PlannedFile | null;
  readonly serverRoot: string | null;
  readonly files: readonly PlannedFile[];
  readonly includes: ReadonlyMap<string, readonly string[]>;
}

export interface Plan {
  readonly servers: ServerPlan[];
  readonly errors: InputError[];
  /** Files passed over on purpose while scanning directories (binary, not config). */
  readonly skipped: { readonly path: string; readonly reason: string }[];
}

export interface Discovery {
  readonly servers: ServerTree[];
  readonly errors: InputError[];
  /** Files passed over on purpose while scanning directories (binary, not config). */
  readonly skipped: { readonly path: string; readonly reason: string }[];
}

export interface DiscoverOptions {
  /** Working directory for display paths (default process.cwd()). */
  readonly cwd?: string;
  /** Overrides ServerRoot for Include resolution. */
  readonly serverRoot?: string;
  /**
   * Main configs read for context and never written (--context): they and what they include
   * supply the parents, AllowOverride, ServerRoot and loaded modules of the files being migrated.
   */
  readonly context?: readonly string[];
}
