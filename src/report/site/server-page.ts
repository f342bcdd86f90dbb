/**
 * A server's review page (`<id>.html`): status, counts, errors, its module plan, the findings the
 * diff cannot show (file-level, outside a hunk, in unchanged files), and its diff side by side with
 * the other findings under their lines.
 */
import { Finding } from '../../model/finding';
import { ServerOutcome } from '../../model/server-outcome';
import { findingCode } from '../finding-codes';
import { diffView } from './diff-view';
import { SEVERITIES, countBySeverity, displayText, escapeHtml, page, serverLabel, severityBadge, statusBadge } from './html';

export const SERVER_STYLES = ['diff2html.min.css', 'review.css'];

function codeLabel(code: string): string {
  const summary = findingCode(code)?.summary;
  return `<code class="cm-code"${summary ? ` title="${escapeHtml(summary)}"` : ''}>${escapeHtml(code)}</code>`;
}

function findingBody(f: Finding, id: string | null): string {
  return `<div class="cm-finding cm-finding-${f.severity}"${id ? ` id="${id}"` : ''}>${severityBadge(f.severity)} ${codeLabel(f.code)} <span class="cm-message">${escapeHtml(f.message)}</span></div>`;
}

/** manual, then review, then info; by file and line within each. */
function byUrgency(a: Finding, b: Finding): number {
  return SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line;
}

function location(f: Finding): string {
  return escapeHtml(f.line > 0 ? `${f.file}:${f.line}` : f.file);
}

function table(head: readonly string[], rows: readonly string[][], cls: string): string {
  const th = head.map((h) => `<th>${h}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table class="cm-table ${cls}"><thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody></table>`;
}

export function serverPage(s: ServerOutcome): string {
  const anchor = new Map(s.findings.map((f, i) => [f, `finding-${i + 1}`]));
  const view = diffView(displayText(s.patch), s.findings, (here, shadow) =>
    `<td colspan="2" class="cm-finding-cell">${here.map((f) => findingBody(f, shadow ? null : (anchor.get(f) as string))).join('')}</td>`,
  );
  const rest = s.findings.filter((f) => !view.placed.has(f)).sort(byUrgency);
  const counts = countBySeverity(s.findings);
  const changed = s.files.filter((f) => f.status === 'changed').length;
  const title = serverLabel(s);

  const sections: string[] = [];
  sections.push(
    `<header class="cm-header"><p><a href="index.html">&larr; all servers</a></p>`,
    `<h1>${escapeHtml(title)} ${statusBadge(s.status)}</h1>`,
    `<p class="cm-meta">id <code>${escapeHtml(s.id)}</code> &middot; ${changed} of ${s.files.length} files changed &middot; ` +
      SEVERITIES.map((sev) => `<span class="cm-count-${sev}" data-count="${counts[sev]}">${counts[sev]} ${sev}</span>`).join(', ') +
      ` &middot; ${view.placed.size} shown in the diff, ${rest.length} listed outside it` +
      (s.patch ? ` &middot; <a href="${escapeHtml(s.id)}.patch">patch</a>` : '') +
      ` &middot; <a href="${escapeHtml(s.id)}.json">JSON</a></p></header>`,
  );
  if (s.errors.length > 0) {
    sections.push(
      `<section class="cm-errors"><h2>Errors</h2><ul>` +
        s.errors.map((e) => `<li>${escapeHtml(e.line ? `${e.path}:${e.line}` : e.path)}: ${escapeHtml(e.message)}</li>`).join('') +
        `</ul></section>`,
    );
  }
  const urgent = rest.filter((f) => f.severity !== 'info');
  const info = rest.filter((f) => f.severity === 'info');
  const findingsTable = (list: readonly Finding[]) =>
    table(['where', 'finding'], list.map((f) => [location(f), findingBody(f, anchor.get(f) as string)]), 'cm-findings-table');
  if (rest.length > 0) {
    sections.push(
      `<section class="cm-findings"><h2>Findings outside the diff</h2>\n` +
        (urgent.length > 0 ? findingsTable(urgent) : '') +
        (info.length > 0 ? `<details class="cm-info-findings"><summary>${info.length} info ${info.length === 1 ? 'finding' : 'findings'}</summary>\n${findingsTable(info)}</details>` : '') +
        `</section>`,
    );
  }
  sections.push(`<section class="cm-diff" id="changes"><h2>Changes</h2>\n${s.patch ? view.html : '<p>No changes.</p>'}</section>`);
  if (s.modules.length > 0) {
    sections.push(
      `<section class="cm-modules"><h2>Module plan</h2>\n` +
        table(
          ['module', 'action', 'file', 'reason'],
          s.modules.map((m) => [`<code>${escapeHtml(m.module)}</code>`, m.action, escapeHtml(m.file), escapeHtml(m.reason)]),
          'cm-modules-table',
        ) +
        `</section>`,
    );
  }
  sections.push(
    `<details class="cm-files"><summary>Files (${s.files.length})</summary>\n` +
      table(['file', 'role', 'status'], s.files.map((f) => [escapeHtml(f.path), f.role, f.status]), 'cm-files-table') +
      `</details>`,
  );
  return page(`${title} — httpd-codemod review`, `<main>\n${sections.join('\n')}\n</main>`, { styles: SERVER_STYLES });
}
