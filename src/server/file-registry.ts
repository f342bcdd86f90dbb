/**
 * Every file discovery meets, keyed by identity (device + inode), so one file
 * reached through a symlink, a hardlink and its own name is read and scanned
 * once. Remembers each path it was found under, to pick the path to show.
 * Only the facts discovery needs are kept (file-facts.ts), not the text or
 * the tree: each server's files are parsed when that server is run.
 *
 * One registry lives for one planning pass, over which the file system is taken
 * to stand still: what a path is (its identity, or why it cannot be read), what
 * an Include pattern expands to and the real path of a path are each asked of
 * the disk once. A main config's Include lines are followed up to three times
 * while grouping (its closure, then with its switched-off lines), and a 3,000-vhost
 * `Include sites/*.conf` would otherwise stat every site again each time.
 */
import * as fs from 'fs';
import * as path from 'path';
import { comparePaths } from './display-path';
import { expandIncludePattern } from './expand-include-pattern';
import { FileFacts } from './file-facts';
import { RealPaths } from './real-paths';
import { describeFsError, readSource } from './read-source';

export class FoundFile {
  /** Absolute paths this file was found under, in the order met. */
  readonly paths: string[] = [];

  constructor(
    readonly identity: string,
    readonly facts: FileFacts,
    private readonly realPaths: RealPaths,
  ) {}

  private preferred: string | null = null;
  private real: string | null = null;

  addPath(absPath: string): void {
    if (this.paths.includes(absPath)) return;
    this.paths.push(absPath);
    this.preferred = null;
    this.real = null;
  }

  /**
   * The path to show: one whose last component is not a symlink (the real
   * file's own name) when one was seen, else the first found; ties by sort order.
   */
  get preferredPath(): string {
    if (this.preferred === null) {
      const direct = this.paths.filter((p) => !this.realPaths.isSymlink(p)).sort(comparePaths);
      this.preferred = direct.length > 0 ? direct[0] : this.paths[0];
    }
    return this.preferred;
  }

  /** The real path of the preferred path (symlinks resolved), or the preferred path when it does not resolve. */
  get realPath(): string {
    if (this.real === null) this.real = this.realPaths.orSelf(this.preferredPath);
    return this.real;
  }
}

export type LoadResult =
  | { readonly kind: 'file'; readonly file: FoundFile }
  | { readonly kind: 'directory' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'error'; readonly message: string };

/** What a path is, as the planning pass met it: its identity (null: not a regular file), or the result of a failure. */
type PathResult = { readonly identity: string; readonly size: number } | Exclude<LoadResult, { kind: 'file' }>;

/** Told of each file the registry reads (once per identity): its text and the path it was read under. */
export type OnRead = (file: FoundFile, text: string, absPath: string) => void;

export class FileRegistry {
  private readonly byIdentity = new Map<string, LoadResult>();
  private readonly byPath = new Map<string, PathResult>();
  private readonly expansions = new Map<string, readonly string[]>();
  /** Real paths of the files met and of the directories a server names (shared with access-file scopes). */
  readonly realPaths = new RealPaths();

  constructor(private readonly onRead?: OnRead) {}

  /** Stats a path (following symlinks) once. */
  private lookup(absPath: string): PathResult {
    let known = this.byPath.get(absPath);
    if (known === undefined) {
      let stat: fs.Stats | null = null;
      try {
        stat = fs.statSync(absPath);
      } catch (err) {
        known = { kind: 'error', message: describeFsError(err) };
      }
      if (stat) {
        if (stat.isDirectory()) known = { kind: 'directory' };
        else if (!stat.isFile()) known = { kind: 'error', message: 'not a regular file' };
        else known = { identity: `${stat.dev}:${stat.ino}`, size: stat.size };
      }
      this.byPath.set(absPath, known as PathResult);
    }
    return known as PathResult;
  }

  /** The file already met at this path's identity, without recording the path (null when not met, or not a file). */
  find(absPath: string): FoundFile | null {
    const known = this.lookup(absPath);
    if (!('identity' in known)) return null;
    const result = this.byIdentity.get(known.identity);
    return result?.kind === 'file' ? result.file : null;
  }

  /** Stats (following symlinks), then reads and scans a file the first time its identity is met. */
  load(absPath: string): LoadResult {
    const known = this.lookup(absPath);
    if (!('identity' in known)) return known;
    const identity = known.identity;
    let result = this.byIdentity.get(identity);
    if (!result) {
      const read = readSource(absPath, known.size);
      if (read.kind === 'text') {
        const file = new FoundFile(identity, FileFacts.scan(read.text), this.realPaths);
        result = { kind: 'file', file };
        this.onRead?.(file, read.text, absPath);
      } else {
        result = read;
      }
      this.byIdentity.set(identity, result);
    }
    if (result.kind === 'file') result.file.addPath(absPath);
    return result;
  }

  /** The files an (absolute) Include pattern reaches, in httpd's order (expand-include-pattern.ts), once per pattern. */
  expand(absPattern: string): readonly string[] {
    const key = path.resolve(absPattern);
    let files = this.expansions.get(key);
    if (files === undefined) this.expansions.set(key, (files = expandIncludePattern(key)));
    return files;
  }
}
