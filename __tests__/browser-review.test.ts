/// <reference lib="dom" />
/**
 * The review site in a real browser: Debian's chromium, headless, driven by playwright-core
 * (no browser download; `npm test` installs chromium with scripts/ensure-chromium.sh). The pages
 * open from file:// with no network, the index lists every server and sorts and filters, a server
 * page shows its diff side by side with diff2html's style sheet and a finding under its line.
 *
 * UPDATE_SCREENSHOTS=1 also rewrites docs/review-page.png from a run over examples/.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Browser, Page, chromium } from 'playwright-core';
import { pathToFileURL } from 'url';
import { ROOT, buildReportFleet, codemod, tempDir } from './support/report-fleet';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

jest.setTimeout(120_000);

let tmp: string;
let browser: Browser;
let servers: { id: string; main: string | null; status: string }[];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: run scripts/ensure-chromium.sh (npm test does) — this test does not skip`);
  }
  tmp = tempDir('codemod-browser-');
  buildReportFleet(tmp, { oddName: true });
  servers = JSON.parse(codemod(tmp, ['--format', 'json', 'fleet']).stdout).servers;
  const r = codemod(tmp, ['--report-dir', 'report', 'fleet']);
  expect(r.status).toBe(2);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});

afterAll(async () => {
  await browser?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** A page that records every request and every script error. */
async function open(file: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(pathToFileURL(file).href);
  return { page, requests, errors };
}

function visibleRows(page: Page): Promise<string[]> {
  return page.$$eval('#servers tbody tr', (rows) => rows.filter((r) => !(r as HTMLElement).hidden).map((r) => (r.querySelector('td small') as HTMLElement).textContent as string));
}

test('the index: one row per server; filter by status and text; sort by a column', async () => {
  const { page, requests, errors } = await open(path.join(tmp, 'report', 'index.html'));
  const ids = servers.map((s) => s.id);
  expect(await visibleRows(page)).toEqual(ids);
  expect(await page.$$eval('#servers tbody tr', (rows) => rows.map((r) => r.getAttribute('data-status')))).toEqual(servers.map((s) => s.status));
  expect(await page.textContent('#shown')).toBe(`${ids.length} of ${ids.length} servers shown`);

  const web1 = servers.find((s) => s.main === 'fleet/web1/httpd.conf') as { id: string };
  await page.selectOption('#filter-status', 'manual');
  expect(await visibleRows(page)).toEqual([web1.id]);
  expect(await page.textContent('#shown')).toBe(`1 of ${ids.length} servers shown`);
  await page.selectOption('#filter-status', '');
  await page.fill('#filter-text', 'LOOSE');
  const loose = ids.filter((id) => id.startsWith('fleet-loose-'));
  expect(loose.length).toBe(4);
  expect(await visibleRows(page)).toEqual(loose);
  await page.selectOption('#filter-status', 'migrated');
  expect(await visibleRows(page)).toEqual(servers.filter((s) => s.id.startsWith('fleet-loose-') && s.status === 'migrated').map((s) => s.id));
  await page.fill('#filter-text', '');
  await page.selectOption('#filter-status', '');
  expect(await visibleRows(page)).toEqual(ids);

  // sort: most manual findings first, then the other way round; status puts errors first
  const manualHeader = page.locator('#servers thead th', { hasText: 'manual' }).locator('button');
  await manualHeader.click();
  expect((await visibleRows(page))[0]).toBe(web1.id);
  expect(await page.locator('#servers thead th', { hasText: 'manual' }).getAttribute('aria-sort')).toBe('descending');
  await manualHeader.click();
  expect((await visibleRows(page)).at(-1)).toBe(web1.id);
  expect(await page.locator('#servers thead th', { hasText: 'manual' }).getAttribute('aria-sort')).toBe('ascending');
  await page.locator('#servers thead th', { hasText: 'status' }).locator('button').click();
  const byStatus = await page.$$eval('#servers tbody tr', (rows) => rows.map((r) => r.getAttribute('data-status')));
  expect(byStatus.slice(0, 2)).toEqual(['error', 'manual']);
  expect(byStatus.at(-1)).toBe('unchanged');
  await page.locator('#servers thead th', { hasText: 'server' }).locator('button').click();
  const labels = await page.$$eval('#servers tbody tr td:first-child a', (as) => as.map((a) => a.textContent as string));
  expect(labels).toEqual([...labels].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

  await page.screenshot({ path: path.join(tmp, 'index.png'), fullPage: true });
  expect(fs.readFileSync(path.join(tmp, 'index.png')).subarray(1, 4).toString()).toBe('PNG');

  // follow the link to the server's page
  await page.click(`a[href="${web1.id}.html"]`);
  expect(await page.textContent('h1')).toContain('fleet/web1/httpd.conf');
  expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
});

test('a server page: the diff side by side, each finding at its line or in the list', async () => {
  const web1 = servers.find((s) => s.main === 'fleet/web1/httpd.conf') as { id: string };
  const { page, requests, errors } = await open(path.join(tmp, 'report', `${web1.id}.html`));
  expect(await page.textContent('h1')).toBe('fleet/web1/httpd.conf manual');

  // diff2html's style sheet (copied beside the page) is in force: two sides of half the width each
  const sides = await page.$$eval('.d2h-file-side-diff', (els) => els.map((e) => [getComputedStyle(e).overflowX, Math.round(e.getBoundingClientRect().width)]));
  expect(sides).toHaveLength(2);
  expect(sides[0][0]).toBe('scroll');
  expect(Math.abs((sides[0][1] as number) - (sides[1][1] as number))).toBeLessThanOrEqual(1);
  // and the site's own: a manual finding is red
  expect(await page.$eval('.cm-status-manual', (e) => getComputedStyle(e).color)).toBe('rgb(164, 14, 38)');

  // module-third-party (line 3) sits in the row under line 3 of the old side
  const under = await page.$$eval('tr.cm-finding-row:not(.cm-shadow) .cm-finding', (els) =>
    els.map((e) => {
      const row = e.closest('tr') as HTMLTableRowElement;
      const line = (row.previousElementSibling as HTMLElement).querySelector('.d2h-code-side-linenumber') as HTMLElement;
      return [(e.querySelector('.cm-code') as HTMLElement).textContent, line.textContent?.trim()];
    }),
  );
  expect(under).toEqual(expect.arrayContaining([['module-third-party', '3'], ['default-type-removed', '6'], ['max-clients-renamed', '5']]));
  expect(await page.isVisible('tr.cm-finding-row:not(.cm-shadow) >> text=mod_php5')).toBe(true);

  // the invisible copy on the right keeps both sides aligned
  const heights = await page.$$eval('tr.cm-finding-row', (rows) => rows.map((r) => [r.classList.contains('cm-shadow'), Math.round(r.getBoundingClientRect().top), Math.round(r.getBoundingClientRect().height)]));
  const left = heights.filter((h) => !h[0]).map((h) => h.slice(1));
  const right = heights.filter((h) => h[0]).map((h) => h.slice(1));
  expect(left.length).toBeGreaterThan(0);
  expect(right).toEqual(left);

  // file-level findings are in the list outside the diff
  const listed = await page.$$eval('.cm-findings-table tbody tr', (rows) => rows.map((r) => (r.querySelector('.cm-code') as HTMLElement).textContent));
  expect(listed).toEqual(expect.arrayContaining(['mpm-loaded', 'default-changed', 'module-loaded']));
  expect(listed).not.toContain('module-third-party');

  await page.screenshot({ path: path.join(tmp, 'server.png'), fullPage: true });
  expect(fs.statSync(path.join(tmp, 'server.png')).size).toBeGreaterThan(20_000);
  expect(requests.every((u) => u.startsWith('file://'))).toBe(true);
  expect(requests.some((u) => u.endsWith('/diff2html.min.css'))).toBe(true);
  expect(errors).toEqual([]);
  await page.close();
});

test('the README screenshot (UPDATE_SCREENSHOTS=1 rewrites docs/review-page.png from examples/)', async () => {
  const work = tempDir('codemod-screenshot-');
  try {
    fs.cpSync(path.join(ROOT, 'examples'), path.join(work, 'examples'), { recursive: true, verbatimSymlinks: true });
    codemod(work, ['--report-dir', 'report', 'examples']);
    const debian = JSON.parse(codemod(work, ['--format', 'json', 'examples']).stdout).servers.find((s: { main: string | null }) => s.main === 'examples/debian-2.2/apache2.conf');
    const { page, errors } = await open(path.join(work, 'report', `${debian.id}.html`));
    const shot = path.join(work, 'review-page.png');
    await page.screenshot({ path: shot });
    expect(errors).toEqual([]);
    expect(fs.statSync(shot).size).toBeGreaterThan(50_000);
    if (process.env.UPDATE_SCREENSHOTS === '1') fs.copyFileSync(shot, path.join(ROOT, 'docs', 'review-page.png'));
    await page.close();
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
