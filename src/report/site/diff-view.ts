/**
 * One server's patch side by side, rendered by diff2html at report time, with each finding whose
 * line the diff shows placed in a row under that line. Findings refer to lines of the original
 * file, which is the left side: a row is added below that line on the left, and the same row,
 * invisible, on the right so both sides stay aligned.
 */
import { html as diff2html, parse as parseDiff } from 'diff2html';
import { Finding } from '../../model/finding';

export interface DiffView {
  readonly html: string;
  /** The findings shown in the diff (the rest belong in a list). */
  readonly placed: ReadonlySet<Finding>;
}

/** Renders the row content for findings on one line; `shadow` is the invisible right-side copy. */
export type FindingRow = (findings: readonly Finding[], shadow: boolean) => string;

const TBODY = '<tbody class="d2h-diff-tbody">';
const LINE_NUMBER = /<td class="d2h-code-side-linenumber[^"]*">\s*(\d+)\s*<\/td>/;

/** diff2html's side-by-side table of one file, with finding rows inserted; null when its layout is not the expected one. */
function withFindings(fileHtml: string, byLine: ReadonlyMap<number, Finding[]>, row: FindingRow, placed: Set<Finding>): string | null {
  const parts = fileHtml.split(TBODY);
  if (parts.length !== 3) return null;
  const [left, leftTail] = splitAt(parts[1], '</tbody>');
  const [right, rightTail] = splitAt(parts[2], '</tbody>');
  const leftRows = left.split('</tr>');
  const rightRows = right.split('</tr>');
  if (leftRows.length !== rightRows.length) return null;
  for (let i = 0; i < leftRows.length - 1; i++) {
    const number = LINE_NUMBER.exec(leftRows[i]);
    const here = number ? byLine.get(Number(number[1])) : undefined;
    if (!here) continue;
    leftRows[i] += `</tr>\n<tr class="cm-finding-row">${row(here, false)}`;
    rightRows[i] += `</tr>\n<tr class="cm-finding-row cm-shadow" aria-hidden="true">${row(here, true)}`;
    for (const f of here) placed.add(f);
  }
  return [parts[0], TBODY, leftRows.join('</tr>'), leftTail, TBODY, rightRows.join('</tr>'), rightTail].join('');
}

function splitAt(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at)];
}

/** `patch` as text to show (already decoded), `findings` those of the same server. */
export function diffView(patch: string, findings: readonly Finding[], row: FindingRow): DiffView {
  const placed = new Set<Finding>();
  const parts: string[] = [];
  for (const file of parseDiff(patch)) {
    const byLine = new Map<number, Finding[]>();
    for (const f of findings) {
      if (f.file !== file.oldName || f.line <= 0) continue;
      const list = byLine.get(f.line) ?? [];
      list.push(f);
      byLine.set(f.line, list);
    }
    const fileHtml = diff2html([file], { outputFormat: 'side-by-side', drawFileList: false });
    parts.push((byLine.size > 0 ? withFindings(fileHtml, byLine, row, placed) : null) ?? fileHtml);
  }
  return { html: parts.join('\n'), placed };
}
