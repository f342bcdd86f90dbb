/**
 * Every file discovery meets, keyed by identity (device + inode), so one file
 * reached through a symlink, a hardlink and its own name is read and parsed
 * once. Remembers each path it was found under, to pick the path to show.
 * Only the facts discovery needs are kept (file-facts.ts), not the text or
 * the tree: each server's files are read again when that server is run.
 */
import * as fs from 'fs';
import { comparePaths } from './display-path';
import { FileFacts } from './file-facts';
import { describeFsError, readSource } from './read-source';

export class FoundFile {
  /** Absolute paths this file was found under, in the order met. */
  readonly paths: string[] = [];

  constructor(
    readonly identity: string,
    readonly facts: FileFacts,
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
      const direct = this.paths.filter((p) => !isSymlink(p)).sort(comparePaths);
      this.preferred = direct.length > 0 ? direct[0] : this.paths[0];
    }
    return this.preferred;
  }

  get realPath(): string {
    if (this.real === null) {
      try {
        this.real = fs.realpathSync.native(this.preferredPath);
      } catch {
        this.real = this.preferredPath;
      }
    }
    return this.real;
  }
}

export type LoadResult =
  | { readonly kind: 'file'; readonly file: FoundFile }
  | { readonly kind: 'directory' }
  | { readonly kind: 'binary' }
  | { readonly kind: 'error'; readonly message: string };

export class FileRegistry {
  private readonly byIdentity = new Map<string, LoadResult>();

  /** The file already met at this path's identity, without recording the path (null when not met, or not a file). */
  find(absPath: string): FoundFile | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absPath);
    } catch {
      return null;
    }
    const result = this.byIdentity.get(`${stat.dev}:${stat.ino}`);
    return result?.kind === 'file' ? result.file : null;
  }

  /** Stats (following symlinks), then reads and parses a file the first time its identity is met. */
  load(absPath: string): LoadResult {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(absPath);
    } catch (err) {
      return { kind: 'error', message: describeFsError(err) };
    }
    if (stat.isDirectory()) return { kind: 'directory' };
    if (!stat.isFile()) return { kind: 'error', message: 'not a regular file' };
    const identity = `${stat.dev}:${stat.ino}`;
    let result = this.byIdentity.get(identity);
    if (!result) {
      const read = readSource(absPath);
      result =
        read.kind === 'text' ? { kind: 'file', file: new FoundFile(identity, FileFacts.scan(read.text)) } : read;
      this.byIdentity.set(identity, result);
    }
    if (result.kind === 'file') result.file.addPath(absPath);
    return result;
  }
}

function isSymlink(absPath: string): boolean {
  try {
    return fs.lstatSync(absPath).isSymbolicLink();
  } catch {
    return false;
  }
}
