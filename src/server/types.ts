/**
 * What discovery hands to the runner: files grouped per server.
 */
import { ConfigFile } from '../cst';

export type FileRole =
  /** The server's main config (httpd.conf, apache2.conf, or a file that includes others). */
  | 'main'
  /** Reached from a main config by Include / IncludeOptional. */
  | 'included'
  /** A per-directory file: `.htaccess`, or a name the server's AccessFileName gives. */
  | 'htaccess'
  /** A config file not reached from any main config found (a fragment given on its own). */
  | 'fragment';

export interface SourceFile {
  /** Absolute path of the real file (symlinks resolved). */
  readonly realPath: string;
  /** Path shown to the user and used in patches: relative to the working directory when inside it. */
  readonly displayPath: string;
  readonly role: FileRole;
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

/** A file that could not be used: missing, unreadable, binary. */
export interface InputError {
  readonly path: string;
  readonly line?: number;
  readonly message: string;
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
}
