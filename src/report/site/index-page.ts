/**
 * The fleet at a glance (`index.html`): one row per server with its status, files and counts per
 * severity, linking to its page; sortable (click a column header) and filterable (text, status)
 * by a small inline script, so the page works from disk with no network.
 */
import { RunReport } from '../../model/run-report';
import { ServerStatus } from '../../model/server-outcome';
import { summaryLine } from '../summary';
import { STATUSES, escapeHtml, page, statusBadge } from './html';

/** What the index keeps of each server (the outcome itself is released). */
export interface ServerRow {
  readonly id: string;
  readonly main: string | null;
  /** The main config, or the fragment's file. */
  readonly label: string;
  readonly status: ServerStatus;
  readonly files: number;
  readonly changed: number;
  readonly manual: number;
  readonly review: number;
  readonly info: number;
  readonly errors: number;
}

export type SiteRun = Omit<RunReport, 'servers'>;

const SCRIPT = `(function () {
  var table = document.getElementById('servers');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var text = document.getElementById('filter-text');
  var status = document.getElementById('filter-status');
  var shown = document.getElementById('shown');
  function filter() {
    var q = text.value.trim().toLowerCase();
    var s = status.value;
    var n = 0;
    rows.forEach(function (r) {
      var ok = (!s || r.getAttribute('data-status') === s) && (!q || r.getAttribute('data-text').indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' servers shown';
  }
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var sorted = -1, dir = 1;
  heads.forEach(function (th, col) {
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function () {
      var numeric = th.getAttribute('data-type') === 'number';
      dir = sorted === col ? -dir : numeric ? -1 : 1;
      sorted = col;
      heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      var key = function (r) { var c = r.cells[col]; return c.hasAttribute('data-sort') ? c.getAttribute('data-sort') : c.textContent; };
      rows.slice().sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
        return c * dir || Number(a.getAttribute('data-order')) - Number(b.getAttribute('data-order'));
      }).forEach(function (r) { body.appendChild(r); });
    });
  });
  text.addEventListener('input', filter);
  status.addEventListener('change', filter);
  filter();
})();`;

function header(label: string, type: 'text' | 'number'): string {
  return `<th data-type="${type}"><button type="button">${label}</button></th>`;
}

function row(r: ServerRow, order: number): string {
  const num = (n: number, cls = '') => `<td class="cm-num${cls && n > 0 ? ' ' + cls : ''}" data-sort="${n}">${n}</td>`;
  const text = `${r.id} ${r.label}`.toLowerCase();
  return (
    `<tr data-status="${r.status}" data-order="${order}" data-text="${escapeHtml(text)}">` +
    `<td><a href="${escapeHtml(r.id)}.html">${escapeHtml(r.label)}</a><br><small>${escapeHtml(r.id)}</small></td>` +
    `<td data-sort="${STATUSES.length - STATUSES.indexOf(r.status)}">${statusBadge(r.status)}</td>` +
    `<td class="cm-num" data-sort="${r.changed}">${r.changed} / ${r.files}</td>` +
    num(r.manual, 'cm-count-manual') +
    num(r.review, 'cm-count-review') +
    num(r.info, 'cm-count-info') +
    num(r.errors, 'cm-count-error') +
    `</tr>`
  );
}

export function indexPage(rows: readonly ServerRow[], run: SiteRun): string {
  const byStatus = STATUSES.map((s) => [s, rows.filter((r) => r.status === s).length] as const).filter(([, n]) => n > 0);
  const verb = run.mode === 'write' ? 'changed' : 'would change';
  const parts: string[] = [
    `<header class="cm-header"><h1>httpd-codemod review</h1>`,
    `<p class="cm-meta">${rows.length} ${rows.length === 1 ? 'server' : 'servers'}: ` +
      byStatus.map(([s, n]) => `${n} ${statusBadge(s)}`).join(' ') +
      ` &middot; ${run.mode === 'write' ? 'written (--write)' : run.mode === 'check' ? 'checked (--check)' : 'dry run'}</p>`,
    `<p class="cm-meta">${escapeHtml(summaryLine(run.summary, verb))}</p></header>`,
  ];
  if (run.errors.length > 0) {
    parts.push(
      `<section class="cm-errors"><h2>Errors outside any server</h2><ul>` +
        run.errors.map((e) => `<li>${escapeHtml(e.line ? `${e.path}:${e.line}` : e.path)}: ${escapeHtml(e.message)}</li>`).join('') +
        `</ul></section>`,
    );
  }
  parts.push(
    `<form class="cm-filters" onsubmit="return false">` +
      `<label>Filter <input type="search" id="filter-text" placeholder="server or path"></label> ` +
      `<label>Status <select id="filter-status"><option value="">all</option>` +
      STATUSES.map((s) => `<option value="${s}">${s}</option>`).join('') +
      `</select></label> <output id="shown">${rows.length} of ${rows.length} servers shown</output></form>`,
    `<table id="servers" class="cm-table cm-servers"><thead><tr>` +
      header('server', 'text') +
      header('status', 'number') +
      header('files changed', 'number') +
      header('manual', 'number') +
      header('review', 'number') +
      header('info', 'number') +
      header('errors', 'number') +
      `</tr></thead>\n<tbody>\n${rows.map(row).join('\n')}\n</tbody></table>`,
  );
  return page('httpd-codemod review', `<main>\n${parts.join('\n')}\n</main>`, { styles: ['review.css'], script: SCRIPT });
}
