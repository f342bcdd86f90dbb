/**
 * Real httpd 2.4 for four transforms:
 * - filter-provider-expression: the 2.2 FilterProvider syntax fails `apache2 -t`; the migrated
 *   expressions, on a started server, select DEFLATE for exactly the responses that 2.2's
 *   filter_lookup (re-implemented below from mod_filter.c 2.2.34, independently of the transform)
 *   selects: every operator family, values present and absent;
 * - add-output-filter-by-type: without mod_filter the directive is refused; the migrated server
 *   (LoadModule from the planner) passes `-t` and compresses by type;
 * - options-mixed-signs: the 2.2 lines fail `-t`; the migrated ones give the directory listing,
 *   symlink following, CGI, MultiViews and SSI #exec that 2.2.12+'s set_options/merge gave (read
 *   by hand from the 2.2 sources), also to subdirectories adding +/-; the lines 2.2.0–2.2.11 read
 *   otherwise are reported for review; the opts_add quirk behind the one deeper difference is measured;
 * - include-optional-wildcard: on a real tree, discover + run turns the failing wildcard Includes
 *   into IncludeOptional, and the result passes `-t` where the original failed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { discover } from '../src/server/discover';
import { run, transformText } from '../src/run/runner';
import { TRANSFORMS } from '../transforms';
import { Transform } from '../transforms/types';
import { MODULES_DIR, RunningServer, baseConfig, configtest, freePorts, startServerChecked, tempDir, localRequest } from './support/httpd';

jest.setTimeout(60000);

const byId = (id: string): Transform => {
  const t = TRANSFORMS.find((x) => x.id === id);
  if (!t) throw new Error(`no transform ${id}`);
  return t;
};
const FILTER = byId('filter-provider-expression');
const AOFBT = byId('add-output-filter-by-type');
const OPTIONS = byId('options-mixed-signs');
const INCLUDE = byId('include-optional-wildcard');
const PLANNER = byId('load-modules');

const get = localRequest;

/** httpd's children run as www-data: the tree must be world-readable. */
function openUp(root: string): void {
  fs.chmodSync(root, 0o755);
  for (const name of fs.readdirSync(root)) {
    const p = path.join(root, name);
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) openUp(p);
    else fs.chmodSync(p, st.mode & 0o100 ? 0o755 : 0o644);
  }
}

function write(file: string, text: string, mode?: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(text, 'latin1'));
  if (mode !== undefined) fs.chmodSync(file, mode);
}

function migrate(text: string, transforms: readonly Transform[], role: 'main' | 'fragment' = 'fragment') {
  const result = transformText(text, transforms, {}, 'test.conf', role);
  expect(result.errors).toEqual([]);
  return result;
}

// ---------------------------------------------------------------------------------------------
// 2.2's filter_lookup for one provider (mod_filter.c, 2.2.15 – 2.2.34), written from the C code.


function atoi(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? Number.parseInt(m[1], 10) : 0;
}

function selects22(match: string, value: string | undefined): boolean {
  let not = false;
  if (match.startsWith('!')) {
    not = true;
    match = match.slice(1);
  }
  let ok: boolean;
  if (value === undefined) ok = false;
  else if (match.startsWith('<=')) ok = atoi(value) <= atoi(match.slice(2));
  else if (match.startsWith('<')) ok = atoi(value) < atoi(match.slice(1));
  else if (match.startsWith('>=')) ok = atoi(value) >= atoi(match.slice(2));
  else if (match.startsWith('>')) ok = atoi(value) > atoi(match.slice(1));
  else if (match.startsWith('=')) ok = atoi(value) === atoi(match.slice(1));
  else if (match.startsWith('/')) {
    const end = match.lastIndexOf('/');
    ok = new RegExp(match.slice(1, end), match.slice(end + 1).includes('i') ? 'i' : '').test(value);
  } else if (match === '*') ok = true;
  else if (match.startsWith('$')) ok = value.toLowerCase().includes(match.slice(1).toLowerCase());
  else ok = value.toLowerCase() === match.toLowerCase();
  return ok !== not;
}

interface Probe {
  /** Request path (under the case's location) and request headers. */
  readonly file: string;
  readonly headers?: Record<string, string>;
  /** The value 2.2 dispatched on for this request (undefined = absent). */
  readonly value: string | undefined;
}

interface FilterCase {
  readonly dispatch: string;
  readonly match: string;
  readonly probes: readonly Probe[];
}

// Files in each case's directory: a.html (text/html), a.txt (text/plain), noext (no type on 2.4),
// and .asis files whose headers become response headers (X-Level, X-Kind) before mod_filter looks.
// mod_deflate leaves very small responses alone ("Not compressing very small response"): 2 kB bodies
const BODY = 'compress me, compress me, compress me\n'.repeat(50);
const ASIS: Record<string, string> = {
  'lvl3.asis': `Content-Type: text/plain\nX-Level: 3\nX-Kind: FOO\n\n${BODY}`,
  'lvl7.asis': `Content-Type: text/plain\nX-Level: 7\nX-Kind: foo2\n\n${BODY}`,
  'lvl03.asis': `Content-Type: text/plain\nX-Level: 03\nX-Kind: aaa\n\n${BODY}`,
  'none.asis': `Content-Type: text/plain\n\n${BODY}`,
};

const FILTER_CASES: readonly FilterCase[] = [
  {
    dispatch: 'resp=Content-Type',
    match: '$text/html',
    probes: [
      { file: 'a.html', value: 'text/html' },
      { file: 'a.txt', value: 'text/plain' },
      { file: 'noext', value: undefined },
    ],
  },
  {
    dispatch: 'Content-Type',
    match: 'TEXT/HTML',
    probes: [
      { file: 'a.html', value: 'text/html' },
      { file: 'a.htmc', value: 'text/html; charset=utf-8' },
      { file: 'a.txt', value: 'text/plain' },
    ],
  },
  {
    dispatch: 'resp=Content-Type',
    match: '!/^text\\/(plain|css)/i',
    probes: [
      { file: 'a.txt', value: 'text/plain' },
      { file: 'a.html', value: 'text/html' },
      { file: 'noext', value: undefined },
    ],
  },
  {
    dispatch: 'req=X-Test',
    match: '!$gzip',
    probes: [
      { file: 'a.txt', headers: { 'X-Test': 'x-GZIP-y' }, value: 'x-GZIP-y' },
      { file: 'a.txt', headers: { 'X-Test': 'deflate' }, value: 'deflate' },
      { file: 'a.txt', value: undefined },
    ],
  },
  {
    dispatch: 'resp=X-Level',
    match: '<5',
    probes: [
      { file: 'lvl3.asis', value: '3' },
      { file: 'lvl7.asis', value: '7' },
      { file: 'none.asis', value: undefined },
    ],
  },
  {
    dispatch: 'resp=X-Level',
    match: '!>=4',
    probes: [
      { file: 'lvl3.asis', value: '3' },
      { file: 'lvl7.asis', value: '7' },
      { file: 'none.asis', value: undefined },
    ],
  },
  {
    dispatch: 'X-Level',
    match: '=3',
    probes: [
      { file: 'lvl03.asis', value: '03' },
      { file: 'lvl3.asis', value: '3' },
      { file: 'lvl7.asis', value: '7' },
    ],
  },
  {
    dispatch: 'resp=X-Kind',
    match: 'foo',
    probes: [
      { file: 'lvl3.asis', value: 'FOO' },
      { file: 'lvl7.asis', value: 'foo2' },
      { file: 'none.asis', value: undefined },
    ],
  },
  {
    dispatch: 'resp=X-Kind',
    match: '/^a*$/',
    probes: [
      { file: 'lvl03.asis', value: 'aaa' },
      { file: 'lvl3.asis', value: 'FOO' },
      { file: 'none.asis', value: undefined },
    ],
  },
  {
    dispatch: 'env=flag',
    match: '*',
    probes: [
      { file: 'a.txt', headers: { 'X-Flag': '1' }, value: '1' },
      { file: 'a.txt', value: undefined },
    ],
  },
  {
    dispatch: 'env=flag',
    match: '!*',
    probes: [
      { file: 'a.txt', headers: { 'X-Flag': '1' }, value: '1' },
      { file: 'a.txt', value: undefined },
    ],
  },
  {
    dispatch: 'handler',
    match: '$as-is',
    probes: [
      { file: 'lvl3.asis', value: 'send-as-is' },
      { file: 'a.txt', value: 'text/plain' },
    ],
  },
];

function filterTree(dir: string): void {
  const docs = path.join(dir, 'docs');
  for (const name of ['a.html', 'a.htmc', 'a.txt', 'noext']) write(path.join(docs, name), BODY);
  for (const [name, text] of Object.entries(ASIS)) write(path.join(docs, name), text);
  openUp(dir);
}

const FILTER_MODULES = ['filter', 'deflate', 'mime', 'asis', 'setenvif', 'alias'];

function filterSite(dir: string, lines: string[]): string {
  return [
    `TypesConfig /etc/mime.types`,
    `AddType "text/html; charset=utf-8" .htmc`,
    `AddHandler send-as-is .asis`,
    `SetEnvIf X-Flag . flag=yes`,
    ...lines,
    '',
  ].join('\n');
}

function caseLines(providerLine: (c: FilterCase, i: number) => string): string[] {
  return FILTER_CASES.flatMap((c, i) => [
    `<Location /c${i}>`,
    `    FilterDeclare f${i}`,
    providerLine(c, i),
    `    FilterChain f${i}`,
    `</Location>`,
    `Alias /c${i} "${'DOCS'}"`,
  ]);
}

describe('FilterProvider: 2.2 dispatch/match → 2.4 expression', () => {
  let dir: string;
  let server: RunningServer | null = null;
  beforeAll(() => {
    dir = tempDir('codemod-filter-');
    filterTree(dir);
  });
  afterAll(async () => {
    if (server) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const site = (lines: string[]) => filterSite(dir, lines.map((l) => l.replace('DOCS', `${dir}/docs`)));

  test('the 2.2 syntax is refused by 2.4 (negative control)', () => {
    const conf = path.join(dir, 'old.conf');
    const old = caseLines((c, i) => `    FilterProvider f${i} DEFLATE ${c.dispatch} ${c.match}`);
    write(conf, baseConfig(dir, 9, FILTER_MODULES) + site(old));
    const result = configtest(conf);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/FilterProvider takes three arguments/);
  });

  test('each migrated expression selects exactly the responses 2.2 selected', async () => {
    const old = caseLines((c, i) => `    FilterProvider f${i} DEFLATE ${c.dispatch} ${c.match}`).join('\n') + '\n';
    const migrated = migrate(old, [FILTER]);
    expect(migrated.findings.map((f) => f.code)).toEqual(FILTER_CASES.map(() => 'filter-provider-expression'));
    const [port] = await freePorts(1);
    const conf = path.join(dir, 'new.conf');
    write(conf, baseConfig(dir, port, FILTER_MODULES) + site(migrated.output.trimEnd().split('\n')));
    const check = configtest(conf);
    expect(check.output).toBe('Syntax OK\n');
    server = await startServerChecked(conf, port, dir);
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [i, c] of FILTER_CASES.entries()) {
      for (const probe of c.probes) {
        const reply = await get(port, `/c${i}/${probe.file}`, { 'Accept-Encoding': 'gzip', ...(probe.headers ?? {}) });
        expect(reply.status).toBe(200);
        const label = `${c.dispatch} ${c.match} on ${probe.file} ${JSON.stringify(probe.headers ?? {})}`;
        seen.push(`${label}: ${reply.headers['content-encoding'] === 'gzip'}`);
        wanted.push(`${label}: ${selects22(c.match, probe.value)}`);
      }
    }
    expect(seen).toEqual(wanted);
    // both outcomes occur: the test can tell a filter that never (or always) runs
    expect(wanted.some((w) => w.endsWith('true'))).toBe(true);
    expect(wanted.some((w) => w.endsWith('false'))).toBe(true);
    await server.stop();
    server = null;
  });
});

describe('AddOutputFilterByType needs mod_filter', () => {
  let dir: string;
  let server: RunningServer | null = null;
  beforeAll(() => {
    dir = tempDir('codemod-aofbt-');
    write(path.join(dir, 'docs', 'a.html'), BODY);
    write(path.join(dir, 'docs', 'a.txt'), BODY);
    openUp(dir);
  });
  afterAll(async () => {
    if (server) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const mainConfig = (port: number) =>
    [
      `ServerRoot "${dir}"`,
      `PidFile "${dir}/httpd.pid"`,
      `ErrorLog "${dir}/error.log"`,
      `Mutex file:${dir} default`,
      `DefaultRuntimeDir "${dir}"`,
      ...['mpm_prefork', 'authz_core', 'deflate', 'mime'].map((m) => `LoadModule ${m}_module ${MODULES_DIR}/mod_${m}.so`),
      `User www-data`,
      `Group www-data`,
      `Listen 127.0.0.1:${port}`,
      `ServerName 127.0.0.1`,
      `TypesConfig /etc/mime.types`,
      `DocumentRoot "${dir}/docs"`,
      `<IfModule mod_deflate.c>`,
      `    AddOutputFilterByType DEFLATE text/html`,
      `</IfModule>`,
      '',
    ].join('\n');

  test('refused without mod_filter; migrated, it loads and compresses by type', async () => {
    const [port] = await freePorts(1);
    const before = path.join(dir, 'before.conf');
    write(before, mainConfig(port));
    const refused = configtest(before);
    expect(refused.ok).toBe(false);
    expect(refused.output).toMatch(/Invalid command 'AddOutputFilterByType'/);

    const migrated = migrate(mainConfig(port), [AOFBT, PLANNER], 'main');
    expect(migrated.output).toContain(`LoadModule filter_module ${MODULES_DIR}/mod_filter.so`);
    expect(migrated.findings.map((f) => [f.code, f.severity])).toContainEqual(['add-output-filter-by-type-needs-filter', 'info']);
    const after = path.join(dir, 'after.conf');
    write(after, migrated.output);
    expect(configtest(after).output).toBe('Syntax OK\n');
    server = await startServerChecked(after, port, dir);
    const html = await get(port, '/a.html', { 'Accept-Encoding': 'gzip' });
    const text = await get(port, '/a.txt', { 'Accept-Encoding': 'gzip' });
    expect([html.status, html.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect([text.status, text.headers['content-encoding']]).toEqual([200, undefined]);
    await server.stop();
    server = null;
  });
});

// ---------------------------------------------------------------------------------------------
// options-mixed-signs. Expected outcomes are read by hand from 2.2.12+'s server/core.c
// (set_options, merge_core_dir_configs; Includes = INCLUDES|INC_WITH_EXEC, IncludesNOEXEC =
// INCLUDES, All = Indexes|Includes|FollowSymLinks|ExecCGI), not from the transform's model.

type Ssi = 'off' | 'noexec' | 'exec';

interface Served {
  readonly listing: boolean;
  readonly symlink: boolean;
  readonly cgi: boolean;
  /** `/x/target` found through MultiViews (negotiation). */
  readonly multi: boolean;
  /** What mod_include did with `<!--#exec cmd -->`. */
  readonly ssi: Ssi;
}

const NOTHING: Served = { listing: false, symlink: false, cgi: false, multi: false, ssi: 'off' };

interface OptionsCase {
  /** The Options line of the directory above (2.4 syntax; default None). */
  readonly parent?: string;
  /** The 2.2 line (refused by 2.4), its migration, and what 2.2.12+ gave there. */
  readonly line: string;
  readonly migrated: string;
  readonly want: Served;
  /** The finding: review when 2.2.0–2.2.11 read the line otherwise (SSI), here or deeper down. */
  readonly severity: 'info' | 'review';
  /** SSI in this directory on 2.2.0–2.2.11 (OPT_INCNOEXEC code), where it differs from 2.2.12+. */
  readonly before2212?: Ssi;
  /** A subdirectory with its own +/- line and what 2.2.12+ gave it (opts_add/opts_remove merge). */
  readonly child?: { readonly line: string; readonly want: Served };
}

const OPTIONS_CASES: readonly OptionsCase[] = [
  {
    line: 'Indexes +FollowSymLinks',
    migrated: 'Indexes FollowSymLinks',
    want: { ...NOTHING, listing: true, symlink: true },
    severity: 'info',
    child: { line: '-Indexes', want: { ...NOTHING, symlink: true } },
  },
  {
    line: 'FollowSymLinks -Indexes',
    migrated: 'FollowSymLinks',
    want: { ...NOTHING, symlink: true },
    severity: 'info',
    child: { line: '+ExecCGI', want: { ...NOTHING, symlink: true, cgi: true } },
  },
  { line: 'Indexes None', migrated: 'Indexes', want: { ...NOTHING, listing: true }, severity: 'info' },
  { line: 'ExecCGI -FollowSymLinks Indexes', migrated: 'ExecCGI Indexes', want: { ...NOTHING, listing: true, cgi: true }, severity: 'info' },
  {
    line: 'Indexes All -ExecCGI',
    migrated: 'Indexes Includes FollowSymLinks',
    want: { ...NOTHING, listing: true, symlink: true, ssi: 'exec' },
    severity: 'info',
    child: { line: '+ExecCGI -Indexes', want: { ...NOTHING, symlink: true, cgi: true, ssi: 'exec' } },
  },
  { line: 'MultiViews -Indexes', migrated: 'MultiViews', want: { ...NOTHING, multi: true }, severity: 'info' },
  // SSI: the lines 2.2.0–2.2.11 (OPT_INCNOEXEC won) and 2.2.12+ (INC_WITH_EXEC kept) read differently
  {
    line: 'Includes +IncludesNOEXEC',
    migrated: 'Includes',
    want: { ...NOTHING, ssi: 'exec' },
    severity: 'review',
    before2212: 'noexec',
    child: { line: '+IncludesNOEXEC', want: { ...NOTHING, ssi: 'noexec' } },
  },
  { line: 'IncludesNOEXEC +Includes', migrated: 'Includes', want: { ...NOTHING, ssi: 'exec' }, severity: 'review', before2212: 'noexec' },
  {
    line: 'Includes IncludesNOEXEC -ExecCGI',
    migrated: 'Includes',
    want: { ...NOTHING, ssi: 'exec' },
    severity: 'review',
    before2212: 'noexec',
  },
  {
    line: 'IncludesNOEXEC All -Indexes',
    migrated: 'Includes FollowSymLinks ExecCGI',
    want: { ...NOTHING, symlink: true, cgi: true, ssi: 'exec' },
    severity: 'review',
    before2212: 'noexec',
  },
  {
    line: 'IncludesNOEXEC -Includes',
    migrated: 'None',
    want: NOTHING,
    severity: 'review', // 2.2.0–2.2.11 left OPT_INCNOEXEC set: a subdirectory's +IncludesNOEXEC then ran #exec
    child: { line: '+IncludesNOEXEC', want: { ...NOTHING, ssi: 'noexec' } },
  },
  {
    line: 'FollowSymLinks +IncludesNOEXEC',
    migrated: 'FollowSymLinks IncludesNOEXEC',
    want: { ...NOTHING, symlink: true, ssi: 'noexec' },
    severity: 'review', // two levels down (+Includes, then +X): 2.2.0–2.2.11's opts_add kept OPT_INCNOEXEC
    child: { line: '+Includes', want: { ...NOTHING, symlink: true, ssi: 'exec' } },
  },
  {
    line: 'Indexes +Includes',
    migrated: 'Indexes Includes',
    want: { ...NOTHING, listing: true, ssi: 'exec' },
    severity: 'info',
    child: { line: '+IncludesNOEXEC', want: { ...NOTHING, listing: true, ssi: 'noexec' } },
  },
  // +All / -All: 2.4 refuses them; All is the same four options in 2.2.12+ and 2.4 (no MultiViews)
  {
    parent: 'IncludesNOEXEC',
    line: '+All',
    migrated: '+Indexes +Includes +FollowSymLinks +ExecCGI',
    want: { listing: true, symlink: true, cgi: true, multi: false, ssi: 'exec' },
    severity: 'info',
  },
  {
    parent: 'IncludesNOEXEC MultiViews',
    line: '+All -ExecCGI',
    migrated: '+Indexes +Includes +FollowSymLinks -ExecCGI',
    want: { listing: true, symlink: true, cgi: false, multi: true, ssi: 'exec' },
    severity: 'info',
    child: { line: '+IncludesNOEXEC', want: { listing: true, symlink: true, cgi: false, multi: true, ssi: 'noexec' } },
  },
  {
    parent: 'All',
    line: '-All +Indexes',
    migrated: '-Includes -FollowSymLinks -ExecCGI +Indexes',
    want: { ...NOTHING, listing: true },
    severity: 'info',
  },
];

const SHTML = 'A<!--#exec cmd="echo EXEC-RAN" -->B\n';

/** Every case: o<i> holds the parent line, o<i>/d the 2.2 line, o<i>/d/c the child line. */
function fillDir(d: string): void {
  write(path.join(d, 'target.txt'), 'the target\n');
  fs.symlinkSync(path.join(d, 'target.txt'), path.join(d, 'link.txt'));
  write(path.join(d, 'run.cgi'), '#!/bin/sh\nprintf "Content-Type: text/plain\\n\\nran\\n"\n', 0o755);
  write(path.join(d, 'x.shtml'), SHTML);
}

function optionsTree(dir: string): void {
  OPTIONS_CASES.forEach((c, i) => {
    fillDir(path.join(dir, 'docs', `o${i}`, 'd'));
    if (c.child) fillDir(path.join(dir, 'docs', `o${i}`, 'd', 'c'));
  });
  openUp(dir);
}

const OPTIONS_MODULES = ['mime', 'autoindex', 'cgi', 'include', 'negotiation'];

function siteHead(dir: string): string[] {
  return [
    `TypesConfig /etc/mime.types`,
    `DocumentRoot "${dir}/docs"`,
    `AddHandler cgi-script .cgi`,
    `AddOutputFilter INCLUDES .shtml`,
    `<Directory "${dir}/docs">`,
    `    Options None`,
    `    AllowOverride None`,
    `</Directory>`,
  ];
}

function optionsSite(dir: string, optionLine: (c: OptionsCase) => string): string {
  const lines = siteHead(dir);
  OPTIONS_CASES.forEach((c, i) => {
    const base = `${dir}/docs/o${i}`;
    lines.push(`<Directory "${base}">`, `    Options ${c.parent ?? 'None'}`, `</Directory>`);
    lines.push(`<Directory "${base}/d">`, `    Options ${optionLine(c)}`, `</Directory>`);
    if (c.child) lines.push(`<Directory "${base}/d/c">`, `    Options ${c.child.line}`, `</Directory>`);
  });
  return lines.join('\n') + '\n';
}

async function servedAt(port: number, urlDir: string): Promise<Served> {
  const listing = await get(port, `/${urlDir}/`);
  const link = await get(port, `/${urlDir}/link.txt`);
  const cgi = await get(port, `/${urlDir}/run.cgi`);
  const multi = await get(port, `/${urlDir}/target`);
  const shtml = await get(port, `/${urlDir}/x.shtml`);
  let ssi: Ssi | string = `unexpected ${shtml.status} ${JSON.stringify(shtml.body)}`;
  if (shtml.status === 200 && shtml.body === 'AEXEC-RAN\nB\n') ssi = 'exec';
  else if (shtml.status === 200 && shtml.body === 'A[an error occurred while processing this directive]B\n') ssi = 'noexec';
  else if (shtml.status === 200 && shtml.body === SHTML) ssi = 'off';
  return {
    listing: listing.status === 200,
    symlink: link.status === 200,
    cgi: cgi.status === 200 && cgi.body === 'ran\n',
    multi: multi.status === 200 && multi.body === 'the target\n',
    ssi: ssi as Ssi,
  };
}

const show = (s: Served) => `listing ${s.listing} symlink ${s.symlink} cgi ${s.cgi} multiviews ${s.multi} ssi ${s.ssi}`;

describe('Options lines mixing +/- and bare options', () => {
  let dir: string;
  let server: RunningServer | null = null;
  beforeAll(() => {
    dir = tempDir('codemod-options-');
    optionsTree(dir);
  });
  afterAll(async () => {
    if (server) await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('each 2.2 line is refused by 2.4 (negative control)', () => {
    for (const [i, c] of OPTIONS_CASES.entries()) {
      const conf = path.join(dir, `old${i}.conf`);
      write(conf, baseConfig(dir, 9, OPTIONS_MODULES) + `<Directory "${dir}/docs">\n    Options ${c.line}\n</Directory>\n`);
      const result = configtest(conf);
      expect([c.line, result.ok]).toEqual([c.line, false]);
      expect(result.output).toMatch(
        /Either all Options must start with \+ or -, or no Option may\.|must be the first [Oo]ption given|You may not use 'Options \+All' or 'Options -All'\./,
      );
    }
  });

  test('the transform writes the expected 2.4 lines, reporting those 2.2.0–2.2.11 read otherwise', () => {
    const old = optionsSite(dir, (c) => c.line);
    const migrated = migrate(old, [OPTIONS]);
    expect(migrated.output).toBe(optionsSite(dir, (c) => c.migrated));
    expect(migrated.findings.map((f) => [f.code, f.severity])).toEqual(
      OPTIONS_CASES.map((c) => (c.severity === 'review' ? ['options-signs-exec-by-release', 'review'] : ['options-signs-normalized', 'info'])),
    );
    // a dir-level difference is named in the finding, with both releases' outcome
    OPTIONS_CASES.forEach((c, i) => {
      if (!c.before2212) return;
      expect(migrated.findings[i].message).toContain(`in this directory: ${c.before2212 === 'noexec' ? 'SSI without #exec' : c.before2212} on 2.2.0–2.2.11`);
    });
  });

  test('the migrated lines give what 2.2.12+ gave: listing, symlinks, CGI, MultiViews, SSI #exec, also in subdirectories', async () => {
    const migrated = migrate(optionsSite(dir, (c) => c.line), [OPTIONS]);
    const [port] = await freePorts(1);
    const conf = path.join(dir, 'new.conf');
    write(conf, baseConfig(dir, port, OPTIONS_MODULES) + migrated.output);
    expect(configtest(conf).output).toBe('Syntax OK\n');
    server = await startServerChecked(conf, port, dir);
    const seen: string[] = [];
    const wanted: string[] = [];
    for (const [i, c] of OPTIONS_CASES.entries()) {
      seen.push(`${c.line}: ${show(await servedAt(port, `o${i}/d`))}`);
      wanted.push(`${c.line}: ${show(c.want)}`);
      if (c.child) {
        seen.push(`${c.line} / child ${c.child.line}: ${show(await servedAt(port, `o${i}/d/c`))}`);
        wanted.push(`${c.line} / child ${c.child.line}: ${show(c.child.want)}`);
      }
    }
    expect(seen).toEqual(wanted);
    // the probes can tell each outcome apart: every value occurs
    const all = OPTIONS_CASES.flatMap((c) => [c.want, ...(c.child ? [c.child.want] : [])]);
    for (const key of ['listing', 'symlink', 'cgi', 'multi'] as const) expect(new Set(all.map((w) => w[key])).size).toBe(2);
    expect(new Set(all.map((w) => w.ssi))).toEqual(new Set(['off', 'noexec', 'exec']));
    await server.stop();
    server = null;
  });

  test('measured: a +/- line with no Options above it starts from 2.4\'s default (FollowSymLinks), not from 2.2\'s All', async () => {
    const [port] = await freePorts(1);
    const conf = path.join(dir, 'noparent.conf');
    // no Options anywhere but this +/- line
    write(conf, baseConfig(dir, port, OPTIONS_MODULES) + `TypesConfig /etc/mime.types\nDocumentRoot "${dir}/docs"\nAddHandler cgi-script .cgi\n<Directory "${dir}/docs/o0/d">\n    Options +Indexes\n</Directory>\n`);
    expect(configtest(conf).output).toBe('Syntax OK\n');
    server = await startServerChecked(conf, port, dir);
    const listing = await get(port, '/o0/d/');
    const link = await get(port, '/o0/d/link.txt');
    const cgi = await get(port, '/o0/d/run.cgi');
    expect([listing.status, link.status, cgi.status === 200 && cgi.body === 'ran\n']).toEqual([200, 200, false]);
    await server.stop();
    server = null;
  });

  test("measured: 2.4's All is Indexes, Includes (with #exec), FollowSymLinks, ExecCGI, without MultiViews, as 2.2.12+'s", async () => {
    const all = path.join(dir, 'docs', 'all');
    fillDir(all);
    openUp(dir);
    const [port] = await freePorts(1);
    const conf = path.join(dir, 'all.conf');
    write(conf, baseConfig(dir, port, OPTIONS_MODULES) + [...siteHead(dir), `<Directory "${all}">`, `    Options All`, `</Directory>`].join('\n') + '\n');
    expect(configtest(conf).output).toBe('Syntax OK\n');
    server = await startServerChecked(conf, port, dir);
    expect(show(await servedAt(port, 'all'))).toBe(show({ listing: true, symlink: true, cgi: true, multi: false, ssi: 'exec' }));
    await server.stop();
    server = null;
  });

  test('measured: +Includes in opts_add lets a sub-subdirectory regain #exec below +IncludesNOEXEC (the one, stricter, difference of `Indexes +Includes` → `Indexes Includes`)', async () => {
    // 2.2.12+ made of `Indexes +Includes` what 2.4 makes of `None +Indexes +Includes`: opts and
    // opts_add both Indexes|Includes. The plain 2.4 line has no opts_add.
    const tree = path.join(dir, 'docs', 'quirk');
    for (const top of ['added', 'plain']) for (const sub of ['', 'c', 'c/g']) fillDir(path.join(tree, top, sub));
    openUp(dir);
    const [port] = await freePorts(1);
    const conf = path.join(dir, 'quirk.conf');
    const lines = siteHead(dir);
    for (const [top, line] of [['added', 'None +Indexes +Includes'], ['plain', 'Indexes Includes']]) {
      lines.push(`<Directory "${tree}/${top}">`, `    Options ${line}`, `</Directory>`);
      lines.push(`<Directory "${tree}/${top}/c">`, `    Options +IncludesNOEXEC`, `</Directory>`);
      lines.push(`<Directory "${tree}/${top}/c/g">`, `    Options +FollowSymLinks`, `</Directory>`);
    }
    write(conf, baseConfig(dir, port, OPTIONS_MODULES) + lines.join('\n') + '\n');
    expect(configtest(conf).output).toBe('Syntax OK\n');
    server = await startServerChecked(conf, port, dir);
    const ssi = async (p: string) => (await servedAt(port, `quirk/${p}`)).ssi;
    expect([await ssi('added'), await ssi('added/c'), await ssi('added/c/g')]).toEqual(['exec', 'noexec', 'exec']);
    expect([await ssi('plain'), await ssi('plain/c'), await ssi('plain/c/g')]).toEqual(['exec', 'noexec', 'noexec']);
    await server.stop();
    server = null;
    // and the transform's finding names that difference
    const result = migrate('<Directory /x>\n    Options Indexes +Includes\n</Directory>\n', [OPTIONS]);
    expect(result.findings.map((f) => [f.code, f.severity])).toEqual([['options-signs-normalized', 'info']]);
    expect(result.findings[0].message).toContain(
      'two levels down, with Options +IncludesNOEXEC then Options +Indexes: SSI with #exec on 2.2.12+, SSI without #exec with the 2.4 line',
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('Include of a wildcard that matches nothing', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('codemod-include-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function tree(lines: string[]): string {
    const main = path.join(dir, 'httpd.conf');
    write(main, baseConfig(dir, 9) + lines.join('\n') + '\n');
    return main;
  }

  test('a wildcard Include that matches nothing becomes IncludeOptional, and 2.4 then accepts the server', () => {
    fs.mkdirSync(path.join(dir, 'conf.d'));
    write(path.join(dir, 'sites', 'a.conf'), '# site a\n');
    write(path.join(dir, 'd1', 'sub', 'x.conf'), '# d1\n');
    fs.mkdirSync(path.join(dir, 'd2'));
    write(path.join(dir, 'empty-but-matched', 'README'), 'x\n');
    fs.rmSync(path.join(dir, 'empty-but-matched', 'README'));
    const main = tree([
      'Include conf.d/*.conf',
      'Include   "sites/*.conf"',
      `include ${dir}/d[12]/*.conf`,
      'Include empty-but-ma?ched',
      '<IfVersion < 2.4>',
      '    Include conf.d/*.conf',
      '</IfVersion>',
    ]);
    const before = configtest(main);
    expect(before.ok).toBe(false);
    expect(before.output).toMatch(/No matches for the wildcard '\*\.conf' in '.*conf\.d', failing/);

    const discovery = discover([main], { cwd: dir });
    expect(discovery.errors).toEqual([]);
    const result = run(discovery, [INCLUDE]);
    const mainResult = result.files.find((f) => f.file.role === 'main');
    expect(mainResult?.status).toBe('changed');
    const text = mainResult?.output ?? '';
    expect(text).toBe(
      baseConfig(dir, 9) +
        [
          'IncludeOptional conf.d/*.conf',
          'Include   "sites/*.conf"',
          `IncludeOptional ${dir}/d[12]/*.conf`,
          'Include empty-but-ma?ched',
          '<IfVersion < 2.4>',
          '    Include conf.d/*.conf',
          '</IfVersion>',
        ].join('\n') +
        '\n',
    );
    expect(result.findings.map((f) => [f.code, f.severity])).toEqual([
      ['include-wildcard-optional', 'info'],
      ['include-wildcard-optional', 'info'],
    ]);
    write(main, text);
    expect(configtest(main).output).toBe('Syntax OK\n');
  });

  test('a missing directory or file is a finding, not a rewrite (2.2 and 2.4 both refuse it)', () => {
    const main = tree(['Include mods-enabled/*.load', 'Include extra/httpd-ssl.conf']);
    const discovery = discover([main], { cwd: dir });
    const result = run(discovery, [INCLUDE]);
    expect(result.files.find((f) => f.file.role === 'main')?.status).toBe('unchanged');
    const first = baseConfig(dir, 9).split('\n').length; // line number of the first added line
    expect(result.findings.map((f) => [f.code, f.severity, f.line])).toEqual([
      ['include-target-missing', 'manual', first],
      ['include-target-missing', 'manual', first + 1],
    ]);
    const check = configtest(main);
    expect(check.ok).toBe(false);
    expect(check.output).toMatch(/Could not open directory .*mods-enabled/);
  });
});
