/**
 * Safe in-place writes. A file is written to a temporary file in the same
 * directory, fsynced and renamed over the original, keeping its mode and
 * owner (write-file-atomic). A symlink is written through: the target is
 * replaced once, the link stays. A file with several hard links is rewritten
 * in place instead (a rename would silently split the links).
 */
import * as fs from 'fs';
import writeFileAtomic from 'write-file-atomic';

export interface WriteOutcome {
  readonly path: string;
  /** 'atomic' (temp file + rename) or 'in-place' (hard-linked file). */
  readonly method: 'atomic' | 'in-place';
}

export function writeFileSafely(realPath: string, text: string): WriteOutcome {
  const bytes = Buffer.from(text, 'latin1');
  const stat = fs.statSync(realPath);
  if (stat.nlink > 1) {
    const fd = fs.openSync(realPath, 'r+');
    try {
      fs.writeSync(fd, bytes, 0, bytes.length, 0);
      fs.ftruncateSync(fd, bytes.length);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return { path: realPath, method: 'in-place' };
  }
  writeFileAtomic.sync(realPath, bytes, { fsync: true });
  return { path: realPath, method: 'atomic' };
}
