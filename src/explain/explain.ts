/**
 * `codemod explain "<message>"`: from an httpd 2.4 error or warning message,
 * the cause, the transform that fixes it, and the manual remedy.
 *
 * The message is taken as the user pastes it: whole stderr lines with the
 * `AH00526: Syntax error on line N of FILE:` line before the message, the
 * read-phase form `apache2: Syntax error on line N of A: Syntax error on line M of B: <message>`,
 * error-log lines with `[time] [module:level] [pid N]` prefixes, `(2)No such file…:` errno
 * prefixes, AH numbers, quotes and trailing text. The table of messages is data (messages.ts).
 */
import { MESSAGES, MessageEntry } from './messages';

export interface Explanation {
  /** Text to print. */
  readonly text: string;
  /** Whether any known message matched. */
  readonly matched: boolean;
}

export interface Match {
  readonly entry: string;
  /** The message line it matched (prefixes removed). */
  readonly message: string;
  /** FILE and line named by the wrapper, when there was one. */
  readonly where: { readonly file: string; readonly line: number } | null;
  readonly cause: string;
  readonly transforms: readonly string[];
  readonly remedy: string;
}

interface Line {
  readonly text: string;
  readonly where: Match['where'];
}

const LOG_PREFIX = /^(?:\[[^\]]*\]\s*)+/;
const ERRNO_PREFIX = /^\(\d+\)[^:]*:\s*/;
const AH_PREFIX = /^AH\d{5}:\s*/;
const PROGRAM_PREFIX = /^(?:apache2|httpd|apache|apachectl)(?:\.exe)?:\s*/i;
const WRAPPER = /^Syntax error on line (\d+) of (\S+?):(?:\s+|$)/i;

/** A line pasted inside quotes ("…" or '…' or `…`) loses them. */
function unquote(text: string): string {
  const q = text[0];
  return text.length >= 2 && (q === '"' || q === "'" || q === '`') && text[text.length - 1] === q ? text.slice(1, -1).trim() : text;
}

/** Splits pasted text into message lines without their prefixes; a wrapper's FILE:line goes to the message after it. */
export function normalize(pasted: string): Line[] {
  const out: Line[] = [];
  let pending: Match['where'] = null;
  for (const raw of pasted.replace(/\r\n?/g, '\n').split('\n')) {
    let text = unquote(raw.trim());
    if (text === '') continue;
    let where: Match['where'] = null;
    for (let guard = 0; guard < 20; guard++) {
      const before = text;
      text = text.replace(LOG_PREFIX, '').replace(ERRNO_PREFIX, '').replace(AH_PREFIX, '').replace(PROGRAM_PREFIX, '');
      const w = WRAPPER.exec(text);
      if (w) {
        where = { file: w[2], line: Number(w[1]) };
        text = text.slice(w[0].length);
      }
      if (text === before) break;
    }
    text = text.trim();
    if (text === '') {
      // `AH00526: Syntax error on line N of FILE:` alone: the message is on the next line
      if (where) pending = where;
      continue;
    }
    out.push({ text, where: where ?? pending });
    pending = null;
  }
  if (pending) out.push({ text: '', where: pending });
  return out;
}

function resolve<T>(value: T | ((m: RegExpExecArray) => T), m: RegExpExecArray): T {
  return typeof value === 'function' ? (value as (m: RegExpExecArray) => T)(m) : value;
}

function matchEntry(entry: MessageEntry, line: Line): Match | null {
  const pattern = new RegExp(entry.pattern.source, entry.pattern.flags.includes('i') ? entry.pattern.flags : entry.pattern.flags + 'i');
  const m = pattern.exec(line.text);
  if (!m) return null;
  return {
    entry: entry.id,
    message: line.text,
    where: line.where,
    cause: resolve(entry.cause, m),
    transforms: resolve(entry.transforms, m),
    remedy: resolve(entry.remedy, m),
  };
}

/** Every table entry that matches the pasted text, in the order of its lines. */
export function matchMessages(pasted: string): Match[] {
  const lines = normalize(pasted);
  const found: Match[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    for (const entry of MESSAGES) {
      if (entry.id === 'syntax-error-location') continue;
      const m = matchEntry(entry, line);
      if (!m) continue;
      const key = `${m.entry}\0${m.cause}`;
      if (seen.has(key)) continue;
      seen.add(key);
      found.push(m);
      if (entry.id === 'bom') break; // the BOM entry explains its "Invalid command" line fully
    }
  }
  if (found.length === 0) {
    // only a wrapper: say where, and that the reason is on the next line
    const located = lines.find((l) => l.where);
    const entry = MESSAGES.find((e) => e.id === 'syntax-error-location');
    if (located && located.where && entry) {
      const m = entry.pattern.exec(`Syntax error on line ${located.where.line} of ${located.where.file}:`);
      if (m) found.push({ entry: entry.id, message: located.text, where: located.where, cause: resolve(entry.cause, m), transforms: [], remedy: resolve(entry.remedy, m) });
    }
  }
  return found;
}

function render(m: Match): string {
  const lines = [`message:  ${m.message || '(syntax error)'}`];
  if (m.where) lines.push(`where:    ${m.where.file}, line ${m.where.line}`);
  lines.push(`cause:    ${m.cause}`);
  if (m.transforms.length > 0) lines.push(`fixed by: ${m.transforms.join(', ')} (codemod --only ${m.transforms.join(',')} PATH)`);
  else lines.push('fixed by: no transform; fix it by hand');
  lines.push(`by hand:  ${m.remedy}`);
  return lines.join('\n') + '\n';
}

export function explain(message: string): Explanation {
  const found = matchMessages(message);
  if (found.length === 0) return { text: `no explanation known for: ${message.trim()}\n`, matched: false };
  return { text: found.map(render).join('\n'), matched: true };
}
