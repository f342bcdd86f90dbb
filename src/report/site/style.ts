/** review.css: the site's own styles (diff2html's stylesheet is copied beside it). */
export const REVIEW_CSS = `body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: #1f2328; background: #fff; }
main { padding: 1em 1.5em 3em; }
h1 { font-size: 1.5em; margin: 0.2em 0; }
h2 { font-size: 1.15em; margin: 1.4em 0 0.5em; }
a { color: #0969da; }
code { font-family: Menlo, Consolas, monospace; font-size: 0.92em; }
.cm-meta { color: #59636e; margin: 0.3em 0; }
.cm-table { border-collapse: collapse; margin: 0.5em 0; }
.cm-table th, .cm-table td { border-bottom: 1px solid #d1d9e0; padding: 0.35em 0.7em; text-align: left; vertical-align: top; }
.cm-table th { background: #f6f8fa; }
.cm-table th button { font: inherit; font-weight: 600; background: none; border: 0; padding: 0; cursor: pointer; color: inherit; }
.cm-table th[aria-sort="ascending"] button::after { content: " \\25B2"; }
.cm-table th[aria-sort="descending"] button::after { content: " \\25BC"; }
.cm-servers { width: 100%; }
.cm-servers tbody tr:hover { background: #f6f8fa; }
.cm-num { text-align: right; font-variant-numeric: tabular-nums; }
.cm-filters { margin: 1em 0 0.5em; display: flex; gap: 1.2em; align-items: center; flex-wrap: wrap; }
.cm-filters input, .cm-filters select { font: inherit; padding: 0.2em 0.4em; }
.cm-status, .cm-sev { display: inline-block; border-radius: 1em; padding: 0 0.6em; font-size: 0.85em; font-weight: 600; vertical-align: middle; }
.cm-status-error, .cm-sev-manual { background: #ffebe9; color: #a40e26; }
.cm-status-manual { background: #ffebe9; color: #a40e26; }
.cm-status-review, .cm-sev-review { background: #fff8c5; color: #7d4e00; }
.cm-status-migrated { background: #dafbe1; color: #116329; }
.cm-status-unchanged, .cm-sev-info { background: #eef1f4; color: #59636e; }
.cm-count-manual:not([data-count="0"]), .cm-count-error { color: #a40e26; font-weight: 600; }
.cm-count-review:not([data-count="0"]) { color: #7d4e00; font-weight: 600; }
.cm-errors li { color: #a40e26; }
.cm-finding { white-space: normal; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 13px; padding: 0.25em 0.6em; margin: 2px 0;
  border-left: 3px solid #8c959f; background: #f6f8fa; }
.cm-finding-manual { border-left-color: #cf222e; background: #fff5f5; }
.cm-finding-review { border-left-color: #bf8700; background: #fffbea; }
.cm-finding-cell { padding: 0.2em 0.5em 0.2em 4.5em; }
.cm-finding-cell .cm-finding { position: sticky; left: 0; width: calc(50vw - 10em); box-sizing: border-box; }
.cm-shadow { visibility: hidden; }
.cm-findings-table td:first-child { white-space: nowrap; font-family: Menlo, Consolas, monospace; font-size: 0.9em; }
.cm-findings-table .cm-finding { border: 0; background: none; padding: 0; }
.cm-files summary, .cm-info-findings summary { cursor: pointer; margin: 0.6em 0; }
.d2h-wrapper { margin-bottom: 1em; }
`;
