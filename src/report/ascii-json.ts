/**
 * JSON text with every character outside ASCII written as a \u escape. Standard output carries
 * the diff's bytes (latin1, one character per byte), so a report printed there must not depend
 * on an encoding: ASCII is the same bytes in latin1 and UTF-8, and parsers read the escapes back
 * to the same strings (messages with "→", file bytes above 0x7f).
 */
export function asciiJson(value: unknown): string {
  return (
    JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')) + '\n'
  );
}
