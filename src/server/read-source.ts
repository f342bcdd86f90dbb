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

export function readSource(absPath: string): ReadResult {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(absPath);
  } catch (err) {
    return { kind: 'error', message: describeFsError(err) };
  }
  if (isBinary(bytes)) return { kind: 'binary' };
  return { kind: 'text', text: bytes.toString('latin1') };
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
