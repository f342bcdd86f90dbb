/**
 * Text for standard output, which writes one byte per character (latin1, so the diff keeps the
 * files' bytes): the UTF-8 encoding of `text`, one character per byte. For reports read as
 * UTF-8 (GitHub annotations), where a message may hold "→".
 */
export function utf8Bytes(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
