/**
 * Reads a file once: bytes → latin1 text, with binary detection and
 * one-line, user-facing error messages.
 */
import * as fs from 'fs';

/** Bytes looked at for a NUL when deciding a file is binary (git and diff use the same rule). */
const BINARY_PROBE = 8000;

export const BINARY_MESSAGE = 'binary file (contains NUL bytes)';

export type ReadResult =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary' }
  | { readonly kind: 'error'; readonly message: string };

export function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_PROBE).includes(0);
}

/**
 * Reads a whole file. `size`, when the caller has just stat'ed the file (planning does, for its
 * identity), saves readFileSync's own fstat.
 */
export function readSource(absPath: string, size?: number): ReadResult {
  let bytes: Buffer;
  try {
    bytes = size === undefined ? fs.readFileSync(absPath) : readSized(absPath, size);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  if (isBinary(bytes)) return { kind: 'binary' };
  return { kind: 'text', text: bytes.toString('latin1') };
}

/**
 * The first `size` bytes of a file (all of it, as just stat'ed), as readFileSync reads a regular
 * file after its own fstat: up to that size, or less at its end. An empty size may be a file that
 * does not tell its size (/proc): readFileSync reads that to its end.
 */
function readSized(absPath: string, size: number): Buffer {
  if (size === 0) return fs.readFileSync(absPath);
  const fd = fs.openSync(absPath, 'r');
  try {
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const n = fs.readSync(fd, buffer, filled, size - filled, null);
      if (n === 0) break;
      filled += n;
    }
    return filled === size ? buffer : buffer.subarray(0, filled);
  } finally {
    fs.closeSync(fd);
  }
}

const MESSAGES: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error',
};

/** One line describing a file-system error, without the path (the caller names the file). */
export function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code && MESSAGES[code]) return MESSAGES[code];
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0];
}
