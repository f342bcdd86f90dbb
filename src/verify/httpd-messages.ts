/**
 * httpd's output on a staged server, as messages about the user's files: `Syntax error on line N
 * of <stage file>` becomes the original file's display path and line (the migrated line too, and
 * whether the migration wrote it), stage paths in the text become the paths they stand for, and
 * each message gets the `codemod explain` entry that knows it.
 */
import { matchMessages } from '../explain/explain';
import { VerificationMessage } from '../model/server-outcome';
import { migratedToOriginal } from './line-map';
import { PrefixMap, mapPrefixes } from './path-prefixes';
import { StagedSource } from './stage-server';

export interface MessageContext {
  readonly sources: ReadonlyMap<string, StagedSource>;
  readonly displayMaps: readonly PrefixMap[];
}

const WRAPPER = /Syntax error on line (\d+) of (\S+?):(?=\s|$)/g;
const LOG_NOISE = /^\[[^\]]*\d{4}\] |\s\[pid \d+(?::tid \d+)?\]/g;

/** Output lines → message texts: a lone `AH00526: Syntax error on line N of FILE:` line takes the next line as its message. */
export function messageTexts(output: string): string[] {
  const out: string[] = [];
  const raw = output.split(/\r?\n/).map((l) => l.replace(LOG_NOISE, '').trim());
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i];
    if (!line || line === 'Syntax OK') continue;
    if (/Syntax error on line \d+ of \S+:$/.test(line) && i + 1 < raw.length && raw[i + 1]) {
      out.push(`${line} ${raw[++i]}`);
    } else out.push(line);
  }
  return out;
}

export class MessageMapper {
  private readonly lineMaps = new Map<string, number[]>();
  /** Staged paths, longest first, so a path is never replaced inside a longer one. */
  private readonly staged: readonly [string, StagedSource][];

  constructor(private readonly ctx: MessageContext) {
    this.staged = [...ctx.sources].sort((a, b) => b[0].length - a[0].length);
  }

  private originalLine(staged: string, source: StagedSource, line: number): number | undefined {
    if (source.original === null || source.migrated === null) return line;
    let map = this.lineMaps.get(staged);
    if (!map) {
      map = migratedToOriginal(source.original, source.migrated);
      this.lineMaps.set(staged, map);
    }
    const original = map[line];
    return original === undefined || original === 0 ? undefined : original;
  }

  /** One message text with its location mapped back and its explanation. */
  map(text: string): VerificationMessage {
    let where: { file: string; line?: number; migratedLine?: number } | null = null;
    let written = false;
    let body = text;
    for (const m of text.matchAll(WRAPPER)) {
      body = text.slice((m.index ?? 0) + m[0].length).trim();
      // nested wrappers name the including file first: the last one is where the error is
      const staged = m[2];
      const source = this.ctx.sources.get(staged);
      const migratedLine = Number(m[1]);
      if (!source) {
        where = { file: mapPrefixes(staged, this.ctx.displayMaps), line: migratedLine };
        continue;
      }
      const line = this.originalLine(staged, source, migratedLine);
      written = source.migrated !== null && line === undefined;
      where = { file: source.display, ...(line !== undefined ? { line } : {}), migratedLine };
    }
    // the location is given apart (original file and line): the text is httpd's message itself
    let shown = body || text;
    for (const [staged, source] of this.staged) shown = shown.split(staged).join(source.display);
    shown = mapPrefixes(shown, this.ctx.displayMaps);
    if (written && where) shown += ` (line ${where.migratedLine} of the migrated text: written by the migration)`;
    const known = matchMessages(text)[0];
    const explanation = known && known.entry !== 'syntax-error-location' ? `${known.cause}. By hand: ${known.remedy}` : undefined;
    return { text: shown, ...(where ?? {}), ...(explanation ? { explanation } : {}) };
  }
}
