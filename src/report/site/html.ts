/** Small helpers shared by the review site's pages: escaping, decoding file bytes, the page frame. */
import { Severity } from '../../model/finding';
import { ServerStatus } from '../../model/server-outcome';

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Text read as latin1 (one character per byte) shown as a reader expects: decoded as UTF-8 when
 * its bytes are valid UTF-8 (most configs), else as it is (latin1).
 */
export function displayText(latin1: string): string {
  if (!/[^\u0000-\u007f]/.test(latin1)) return latin1;
  try {
    return UTF8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}

export const SEVERITIES: readonly Severity[] = ['manual', 'review', 'info'];

/** Status order from the most to the least urgent (sorting, summaries). */
export const STATUSES: readonly ServerStatus[] = ['error', 'manual', 'review', 'migrated', 'unchanged'];

export function countBySeverity(findings: readonly { severity: Severity }[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { manual: 0, review: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** How a server is named on the pages: its main config, or for a fragment run on its own its first file. */
export function serverLabel(s: { id: string; main: string | null; files: readonly { path: string }[] }): string {
  return s.main ?? (s.files.length > 0 ? `${s.files[0].path} (fragment)` : s.id);
}

export function statusBadge(status: ServerStatus): string {
  return `<span class="cm-status cm-status-${status}">${status}</span>`;
}

export function severityBadge(severity: Severity): string {
  return `<span class="cm-sev cm-sev-${severity}">${severity}</span>`;
}

/** A whole page: UTF-8, the site's style sheets (files beside it, so it opens from disk), an optional inline script. */
export function page(title: string, body: string, options: { styles: readonly string[]; script?: string }): string {
  const links = options.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    links,
    '</head>',
    '<body>',
    body,
    options.script ? `<script>\n${options.script}\n</script>` : '',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
