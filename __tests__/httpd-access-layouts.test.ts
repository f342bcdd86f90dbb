/**
 * Issue 8, point 7: access control on the layouts administrators have, judged by a real httpd
 * 2.4. Each layout is migrated by the tool and served WITHOUT mod_access_compat; the baseline is
 * the 2.2 original served by 2.4 WITH mod_access_compat; every request of the matrix
 * (support/layout-differential.ts: 4 source addresses × none/alice/bob/bad credentials × GET/POST
 * per probe) must get the same status on both, and none may be granted by the migration alone.
 *
 * 1. An aliased <Directory> (Alias /uploads, Basic authentication) beside <Location
 *    /server-status> and <Location /server-info> handlers restricted by address. Baseline: the 2.2
 *    text itself, plus the modules 2.4 split out of 2.2's (mpm_prefork, authz_core, authn_core)
 *    and mod_access_compat, loaded by the test's wrapper config. Negative control: the same 2.2
 *    text with the /uploads authentication put into the handler (what a model that lets
 *    /server-status meet the /uploads directory computes) answers differently.
 * 2. Apache's own 2.2 tree (examples/upstream-2.2) with every `#Include conf/extra/…` switched
 *    on. Baseline: the tool's own run with access-to-require skipped (every other 2.2 → 2.4 change
 *    made, the Order/Allow/Deny lines left on mod_access_compat, which load-modules loads for
 *    them); the two trees are checked to differ only in access lines. Negative control: the
 *    baseline with /server-status opened (`Allow from all`) is caught as widened.
 * 4. `.htaccess`-only authentication: a 2.2 main config without any authentication, .htaccess
 *    files with AuthType Basic + AuthUserFile + Require valid-user / Require user / Order +
 *    Satisfy Any, and one under AllowOverride Limit. Baseline as in 1. Negative control: the
 *    migrated tree without the authn_core line the planner wrote for the .htaccess files answers
 *    500 there.
 * 5. A <Location> with authentication only (AuthType + Require, no Order/Allow/Deny) below host
 *    rules that depend on the request: the document root allows everyone, a <Directory> below it
 *    a few addresses, an aliased directory all but one, and `<FilesMatch "^\.ht">` denies
 *    everyone (every stock 2.2 config has it). 2.2 joins whichever host rules apply with the
 *    Location's Require; the migration writes `AuthMerging And` there. Baseline as in 1. Negative
 *    control: the migrated tree without its AuthMerging lines (the Location's Require alone) is
 *    caught as widened (a valid user gets /private/.htsecret).
 *
 * Scenario 1 and 2 need the URL-space model (which <Location> meets which <Directory>): until it
 * is in, the handlers may be kept on mod_access_compat (`access-kept`).
 */
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2, freePorts, serverHead22 } from './support/httpd';
import { Result } from './support/access-differential';
import {
  Probe,
  answersOf,
  UPSTREAM_LAYOUT,
  compareServers,
  expectNoDifference,
  fill,
  htpasswdText,
  layoutRequests,
  loadsAccessCompat,
  makeReadable,
  oldAccessLines,
  serveMapped,
  serveWrapped,
  stopLayoutServers,
  tally,
  writeFiles,
  writeWrapper,
} from './support/layout-differential';
import { LAYOUTS, Migration, configtestTree, copyTree, runCodemod, unexpectedOutput, workDir, writeRunFile } from './support/whole-server';

jest.setTimeout(180000);

afterAll(() => stopLayoutServers());

/** Modules 2.4 split out of what a 2.2 config loaded (the MPM, authz_core, authn_core), and mod_access_compat for the 2.2 lines: the baseline's wrapper loads them. */
const BASELINE_MODULES = ['mpm_prefork', 'authz_core', 'authn_core', 'access_compat'];

const codes = (m: Migration, code: string) => m.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.line}`);

/** The run wrote without errors and kept nothing: no access-kept, no Order/Allow/Deny/Satisfy left in `tree`, no mod_access_compat. */
function expectNothingKept(m: Migration, tree: string): void {
  expect(m.errors).toEqual([]);
  expect(codes(m, 'access-kept')).toEqual([]);
  expect(oldAccessLines(tree)).toEqual([]);
  expect(loadsAccessCompat(tree)).toEqual([]);
}

interface SmallSides {
  readonly work: string;
  readonly base: string;
  readonly mig: string;
  readonly migration: Migration;
}

/**
 * Writes the 2.2 tree twice (`{{ROOT}}` is each copy's directory), migrates one with --write
 * (--httpd: this machine's apache2 decides what is built in), and returns both.
 */
async function smallSides(prefix: string, files: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> = {}): Promise<SmallSides> {
  const work = workDir(prefix);
  const base = path.join(work, 'base', 'tree');
  const mig = path.join(work, 'mig', 'tree');
  for (const root of [base, mig]) {
    writeFiles(root, Object.fromEntries(Object.entries(files).map(([rel, text]) => [rel, fill(text, { ROOT: root })])));
    writeFiles(root, extra);
  }
  const migration = await runCodemod({ paths: [mig], cwd: mig, runOptions: { httpd: APACHE2 }, jobs: 1 });
  for (const side of ['base', 'mig']) makeReadable(path.join(work, side));
  return { work, base, mig, migration };
}

/**
 * Serves the baseline (the 2.2 text with BASELINE_MODULES), the migrated tree, and a negative
 * control tree (`control`, a copy whose main config is conf/httpd.conf, with `controlModules`),
 * and compares the last two with the baseline.
 */
async function compareSmall(sides: SmallSides, control: string, controlModules: readonly string[], probes: readonly Probe[], names: [string, string]): Promise<[Result, Result]> {
  const main = (tree: string) => path.join(tree, 'conf/httpd.conf');
  const [p1, p2, p3] = await freePorts(3);
  const base = await serveWrapped(writeWrapper(path.dirname(sides.base), p1, [main(sides.base)], BASELINE_MODULES), p1, path.dirname(sides.base));
  const mig = await serveWrapped(writeWrapper(path.dirname(sides.mig), p2, [main(sides.mig)]), p2, path.dirname(sides.mig));
  const bad = await serveWrapped(writeWrapper(path.dirname(control), p3, [main(control)], controlModules), p3, path.dirname(control));
  const requests = layoutRequests(probes);
  const out: [Result, Result] = [await compareServers(names[0], base.port, mig.port, requests), await compareServers(names[1], base.port, bad.port, requests)];
  await Promise.all([base.stop(), mig.stop(), bad.stop()]);
  return out;
}

// ------------------------------------------------------------------ 1. aliased Directory beside handlers

const HANDLERS_22 = [
  '# 2.2: a document root, an upload area outside it (Alias) behind Basic authentication,',
  '# and the status/info handlers for a few addresses',
  ...serverHead22(['authz_host', 'authn_file', 'authz_user', 'auth_basic', 'alias', 'dir', 'mime', 'status', 'info']),
  'DirectoryIndex index.html',
  '',
  '<Directory />',
  '    Options FollowSymLinks',
  '    AllowOverride None',
  '    Order deny,allow',
  '    Deny from all',
  '</Directory>',
  '',
  '<Directory "{{ROOT}}/htdocs">',
  '    Options Indexes FollowSymLinks',
  '    AllowOverride None',
  '    Order allow,deny',
  '    Allow from all',
  '</Directory>',
  '',
  'Alias /uploads "{{ROOT}}/uploads"',
  '<Directory "{{ROOT}}/uploads">',
  '    Options Indexes',
  '    AllowOverride None',
  '    AuthType Basic',
  '    AuthName "uploads"',
  '    AuthUserFile "{{ROOT}}/conf/user.passwd"',
  '    Require valid-user',
  '    Order allow,deny',
  '    Allow from all',
  '</Directory>',
  '',
  '<Location /server-status>',
  '    SetHandler server-status',
  '    Order deny,allow',
  '    Deny from all',
  '    Allow from 127.0.0.1 127.0.0.5',
  '</Location>',
  '',
  '<Location /server-info>',
  '    SetHandler server-info',
  '    Order deny,allow',
  '    Deny from all',
  '    Allow from 127.0.1.9',
  '</Location>',
  '',
  '<FilesMatch "^\\.ht">',
  '    Order allow,deny',
  '    Deny from all',
  '    Satisfy All',
  '</FilesMatch>',
  '',
].join('\n');

const HANDLER_FILES = {
  'conf/httpd.conf': HANDLERS_22,
  'conf/mime.types': '',
  'htdocs/index.html': 'home\n',
  'htdocs/.htpasswd': 'not for clients\n',
  'uploads/file.txt': 'an upload\n',
};

const HANDLER_PROBES: Probe[] = ['/', '/index.html', '/.htpasswd', '/uploads/', '/uploads/file.txt', '/server-status', '/server-status?auto', '/server-info', '/server-info?server'].map((p) => ({ path: p }));

describe('1. an aliased <Directory> beside <Location> handlers', () => {
  let sides: SmallSides;
  let result: Result;
  let control: Result;

  beforeAll(async () => {
    sides = await smallSides('codemod-layout-handlers-', HANDLER_FILES, { 'conf/user.passwd': htpasswdText() });
    // negative control: the /uploads authentication inside the handler, as a model that lets them meet would have it
    const wrong = path.join(sides.work, 'wrong', 'tree');
    copyTree(sides.base, wrong);
    const conf = path.join(wrong, 'conf', 'httpd.conf');
    const text = fs.readFileSync(conf, 'latin1').split(sides.base).join(wrong);
    fs.writeFileSync(
      conf,
      text.replace('    SetHandler server-status\n', `    SetHandler server-status\n    AuthType Basic\n    AuthName "uploads"\n    AuthUserFile "${wrong}/conf/user.passwd"\n    Require valid-user\n`),
    );
    makeReadable(path.join(sides.work, 'wrong'));
    [result, control] = await compareSmall(sides, wrong, BASELINE_MODULES, HANDLER_PROBES, ['aliased Directory + handlers', 'negative control: handler with the /uploads authentication']);
  });

  afterAll(() => sides && fs.rmSync(sides.work, { recursive: true, force: true }));

  test('the tool migrates every scope: no access-kept, the handlers migrated, no Order/Allow/Deny left, no mod_access_compat', () => {
    expectNothingKept(sides.migration, sides.mig);
    const migrated = codes(sides.migration, 'access-migrated');
    const conf = fs.readFileSync(path.join(sides.base, 'conf/httpd.conf'), 'latin1').split('\n');
    const line = (re: RegExp) => `conf/httpd.conf:${conf.findIndex((l) => re.test(l)) + 1}`;
    expect(migrated).toEqual(expect.arrayContaining([line(/<Location \/server-status>/), line(/<Location \/server-info>/), line(/<Directory "[^"]*\/uploads">/)]));
  });

  test('every request answers as the 2.2 config on 2.4 + mod_access_compat; nothing widened', () => {
    expectNoDifference(result, HANDLER_PROBES.length * 32);
    // the matrix reaches every kind of answer, and /server-status answers without credentials where 2.2 did
    const expected = {
      'GET /server-status from 127.0.0.1 as none': 200,
      'GET /server-status from 127.0.1.9 as alice': 403,
      'GET /server-info from 127.0.1.9 as none': 200,
      'GET /uploads/file.txt from 127.0.0.1 as none': 401,
      'GET /uploads/file.txt from 127.1.2.3 as bob': 200,
      'GET /.htpasswd from 127.0.0.1 as alice': 403,
    };
    expect(answersOf(result, expected)).toEqual(expected);
  });

  test('negative control: a handler that inherits the /uploads authentication answers differently', () => {
    expect(control.error).toBeUndefined();
    expect(control.mismatches.length).toBeGreaterThan(0);
    // (the status handler answers POST with 404)
    expect(control.mismatches.filter((o) => !(/\/server-status/.test(o.request) && o.migrated === 401))).toEqual([]);
    expect(control.observations.find((o) => o.request === 'GET /server-status from 127.0.0.1 as none')).toMatchObject({ baseline: 200, migrated: 401 });
  });
});

// ------------------------------------------------------------------ 2. Apache's own 2.2 tree, extras on

const UPSTREAM_HOSTS = ['dummy-host.example.com', 'dummy-host2.example.com'];
const UPSTREAM_PATHS = [
  '/',
  '/index.html',
  '/server-status',
  '/server-info',
  '/manual/',
  '/manual/readme.txt',
  '/icons/',
  '/icons/blank.gif',
  '/cgi-bin/',
  '/cgi-bin/hello',
  '/uploads/',
  '/uploads/file.txt',
  '/~www-data/',
  '/error/README',
];

/** Content the example's paths serve (the same on every run copy). */
function upstreamContent(run: import('./support/whole-server').RunTree): void {
  const R = '/usr/local/apache2';
  for (const host of UPSTREAM_HOSTS) writeRunFile(run, `${R}/docs/${host}/index.html`, `${host}\n`);
  writeRunFile(run, `${R}/htdocs/index.html`, 'main\n');
  writeRunFile(run, `${R}/manual/readme.txt`, 'manual\n');
  writeRunFile(run, `${R}/icons/blank.gif`, 'GIF89a');
  writeRunFile(run, `${R}/cgi-bin/hello`, '#!/bin/sh\necho "Content-Type: text/plain"\necho\necho hello\n', 0o755);
  writeRunFile(run, `${R}/uploads/file.txt`, 'upload\n');
  writeRunFile(run, `${R}/error/README`, 'error documents\n');
}

/** Lines of `a` and `b` (same relative files) that differ, as `rel: -line` / `rel: +line`. */
function lineDiff(a: string, b: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    const pa = path.join(a, rel);
    const pb = path.join(b, rel);
    if (fs.statSync(pa).isDirectory()) {
      for (const e of fs.readdirSync(pa)) visit(path.join(rel, e));
      return;
    }
    const la = fs.readFileSync(pa, 'latin1').split('\n');
    const lb = fs.existsSync(pb) ? fs.readFileSync(pb, 'latin1').split('\n') : [];
    const count = (ls: string[]) => ls.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
    const ca = count(la);
    const cb = count(lb);
    for (const [l, n] of ca) for (let i = cb.get(l) ?? 0; i < n; i++) out.push(`${rel}: -${l.trim()}`);
    for (const [l, n] of cb) for (let i = ca.get(l) ?? 0; i < n; i++) out.push(`${rel}: +${l.trim()}`);
  };
  visit('');
  return out;
}

describe("2. Apache's own 2.2 tree with every extra switched on", () => {
  let work = '';
  let migration: Migration;
  let baselineRun: Migration;
  let migTree = '';
  let baseTree = '';
  let result: Result;
  let control: Result;
  let configtest: ReturnType<typeof configtestTree>;

  beforeAll(async () => {
    work = workDir('codemod-layout-upstream-');
    const orig = path.join(work, 'orig');
    copyTree(LAYOUTS.upstream.source, orig);
    const main = path.join(orig, 'conf/httpd.conf');
    const text = fs.readFileSync(main, 'latin1');
    const switched = text.replace(/^#(Include conf\/extra\/)/gm, '$1');
    if (/^#Include conf\/extra/m.test(switched) || switched === text) throw new Error('the example changed: no #Include conf/extra/ lines to switch on');
    fs.writeFileSync(main, Buffer.from(switched, 'latin1'));

    migTree = path.join(work, 'migrated');
    baseTree = path.join(work, 'baseline');
    copyTree(orig, migTree);
    copyTree(orig, baseTree);
    migration = await runCodemod({ paths: [migTree], cwd: migTree, runOptions: { httpd: APACHE2 }, jobs: 1 });
    baselineRun = await runCodemod({ paths: [baseTree], cwd: baseTree, runOptions: { httpd: APACHE2 }, skip: ['access-to-require'], jobs: 1 });
    // negative control: the baseline with /server-status open to everyone
    const opened = path.join(work, 'opened');
    copyTree(baseTree, opened);
    const info = path.join(opened, 'conf/extra/httpd-info.conf');
    const infoText = fs.readFileSync(info, 'latin1');
    const statusBlock = /<Location \/server-status>[\s\S]*?<\/Location>/.exec(infoText);
    if (!statusBlock) throw new Error('no <Location /server-status> in httpd-info.conf');
    fs.writeFileSync(info, infoText.replace(statusBlock[0], statusBlock[0].replace(/Allow from \.example\.com/, 'Allow from all')));

    const [h1, s1, h2, s2, h3, s3] = await freePorts(6);
    const base = await serveMapped(baseTree, UPSTREAM_LAYOUT, path.join(work, 'run-base'), { http: h1, https: s1 });
    const mig = await serveMapped(migTree, UPSTREAM_LAYOUT, path.join(work, 'run-mig'), { http: h2, https: s2 });
    configtest = configtestTree(mig.run);
    const open = await serveMapped(opened, UPSTREAM_LAYOUT, path.join(work, 'run-open'), { http: h3, https: s3 });
    for (const s of [base, mig, open]) upstreamContent(s.run);
    const requests = layoutRequests(UPSTREAM_HOSTS.flatMap((host) => UPSTREAM_PATHS.map((p) => ({ host, path: p }))));
    result = await compareServers('upstream 2.2 tree, extras on', base.port, mig.port, requests);
    control = await compareServers('negative control: /server-status opened', base.port, open.port, requests.filter((r) => r.path === '/server-status' || r.path === '/'));
    await Promise.all([base.stop(), mig.stop(), open.stop()]);
  });

  afterAll(() => work && fs.rmSync(work, { recursive: true, force: true }));

  test('the tool writes without errors and keeps nothing: no access-kept, no Order/Allow/Deny/Satisfy left, no mod_access_compat', () => {
    expectNothingKept(migration, migTree);
  });

  test('apache2 -t accepts the migrated tree without a warning', () => {
    expect(unexpectedOutput(configtest)).toEqual([]);
    expect(configtest.ok).toBe(true);
  });

  test('the baseline is the 2.2 access lines on mod_access_compat, every other change made: the trees differ only in access lines', () => {
    expect(baselineRun.errors).toEqual([]);
    expect(oldAccessLines(baseTree).length).toBeGreaterThan(20);
    expect(loadsAccessCompat(baseTree).length).toBe(1);
    // (the method sections holding them count: <Limit GET POST OPTIONS> + <LimitExcept …> may become one <LimitExcept>)
    const access = /^[-+](order|allow|deny|satisfy|require|<\/?require|<\/?limit(except)?\b|<\/?ifmodule !access_compat_module>|loadmodule access_compat_module|allowoverridelist)\b/i;
    const other = lineDiff(baseTree, migTree).filter((l) => !access.test(l.replace(/^[^:]*: /, '')));
    expect(other).toEqual([]);
  });

  test('every sample request (both virtual hosts: /, the handlers, the manual, icons, CGI, DAV uploads, a userdir path, error documents) answers as 2.2 meant', () => {
    expectNoDifference(result, UPSTREAM_HOSTS.length * UPSTREAM_PATHS.length * 32);
    const counts = tally(result, 'baseline');
    // the samples are not all one answer: granted, refused and unauthorised all occur
    expect(counts['2xx/3xx']).toBeGreaterThan(100);
    expect(counts['403']).toBeGreaterThan(100);
    expect(counts['401']).toBeGreaterThan(0);
  });

  test('negative control: /server-status opened in a copy of the baseline is caught as widened', () => {
    expect(control.error).toBeUndefined();
    expect(control.widened.length).toBeGreaterThan(0);
    expect(control.widened.every((o) => o.request.includes('/server-status'))).toBe(true);
  });
});

// ------------------------------------------------------------------ 4. .htaccess-only authentication

const HTACCESS_MAIN_22 = [
  '# 2.2: no authentication anywhere in the main config; the .htaccess files bring it',
  ...serverHead22(['authz_host', 'authn_file', 'authz_user', 'auth_basic', 'dir', 'mime']),
  'DirectoryIndex index.html',
  '',
  '<Directory />',
  '    AllowOverride None',
  '    Order deny,allow',
  '    Deny from all',
  '</Directory>',
  '',
  '<Directory "{{ROOT}}/htdocs">',
  '    Options Indexes',
  '    AllowOverride AuthConfig Limit',
  '    Order allow,deny',
  '    Allow from all',
  '</Directory>',
  '',
  '<Directory "{{ROOT}}/htdocs/limited">',
  '    AllowOverride Limit',
  '</Directory>',
  '',
].join('\n');

const AUTH_LINES = (realm: string) => ['AuthType Basic', `AuthName "${realm}"`, 'AuthUserFile "{{ROOT}}/conf/users"'];

const HTACCESS_FILES: Record<string, string> = {
  'conf/httpd.conf': HTACCESS_MAIN_22,
  'conf/mime.types': '',
  'htdocs/index.html': 'home\n',
  'htdocs/valid/.htaccess': [...AUTH_LINES('valid'), 'Require valid-user', ''].join('\n'),
  'htdocs/alice/.htaccess': [...AUTH_LINES('alice'), 'Require user alice', ''].join('\n'),
  'htdocs/either/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ...AUTH_LINES('either'), 'Require valid-user', 'Satisfy Any', ''].join('\n'),
  'htdocs/limited/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9', ''].join('\n'),
};
for (const d of ['valid', 'alice', 'either', 'limited']) HTACCESS_FILES[`htdocs/${d}/index.html`] = `${d}\n`;

const HTACCESS_PROBES: Probe[] = ['/', '/valid/', '/alice/', '/either/', '/limited/', '/valid/.htaccess'].map((p) => ({ path: p }));

describe('4. .htaccess-only authentication', () => {
  let sides: SmallSides;
  let result: Result;
  let control: Result;
  let removed: string[] = [];

  beforeAll(async () => {
    sides = await smallSides('codemod-layout-htaccess-', HTACCESS_FILES, { 'conf/users': htpasswdText() });
    // negative control: the migrated tree without the authn_core line the planner wrote
    const without = path.join(sides.work, 'without', 'tree');
    copyTree(sides.mig, without);
    for (const rel of ['conf/httpd.conf', ...Object.keys(HTACCESS_FILES).filter((f) => f.endsWith('.htaccess'))]) {
      const file = path.join(without, rel);
      const text = fs.readFileSync(file, 'latin1').split(sides.mig).join(without);
      const lines = text.split('\n');
      const kept = lines.filter((l) => !/^\s*LoadModule\s+authn_core_module\b/.test(l));
      removed.push(...lines.filter((l) => !kept.includes(l)).map((l) => `${rel}: ${l.trim()}`));
      fs.writeFileSync(file, kept.join('\n'));
    }
    makeReadable(path.join(sides.work, 'without'));
    [result, control] = await compareSmall(sides, without, [], HTACCESS_PROBES, ['.htaccess-only authentication', 'negative control: without the planned authn_core']);
  });

  afterAll(() => sides && fs.rmSync(sides.work, { recursive: true, force: true }));

  test('the .htaccess files are migrated and the main config loads what they need (authn_core for AuthType/AuthName, authz_core)', () => {
    expectNothingKept(sides.migration, sides.mig);
    const conf = fs.readFileSync(path.join(sides.mig, 'conf/httpd.conf'), 'latin1');
    for (const m of ['authn_core', 'authz_core', 'authz_host', 'authz_user', 'auth_basic', 'authn_file']) expect(conf).toMatch(new RegExp(`^\\s*LoadModule ${m}_module `, 'm'));
    const loaded = sides.migration.findings.filter((f) => f.code === 'module-loaded').map((f) => f.message);
    expect(loaded.some((msg) => /authn_core_module/.test(msg) && /\.htaccess/.test(msg))).toBe(true);
  });

  test('AllowOverride as needed: the Limit-only directory lets its migrated file use Require (AllowOverrideList), the others are unchanged', () => {
    const conf = fs.readFileSync(path.join(sides.mig, 'conf/httpd.conf'), 'latin1');
    expect(conf).toMatch(/<Directory "[^"]*\/htdocs\/limited">\n {4}AllowOverride Limit\n {4}AllowOverrideList Require\n<\/Directory>/);
    expect(conf).toMatch(/AllowOverride AuthConfig Limit\n/);
  });

  test('every request answers as on 2.2: no 500 ("Invalid command", "couldn\'t check user"), nothing widened', () => {
    expectNoDifference(result, HTACCESS_PROBES.length * 32);
    expect(result.observations.filter((o) => o.migrated === 500)).toEqual([]);
    const expected = {
      'GET /valid/ from 127.0.0.1 as none': 401,
      'GET /valid/ from 127.0.0.1 as bob': 200,
      'GET /alice/ from 127.0.0.1 as bob': 401,
      'GET /alice/ from 127.0.0.1 as alice': 200,
      'GET /either/ from 127.0.0.5 as none': 200,
      'GET /either/ from 127.0.1.9 as none': 401,
      'GET /limited/ from 127.0.1.9 as none': 200,
      'GET /limited/ from 127.0.0.1 as alice': 403,
    };
    expect(answersOf(result, expected)).toEqual(expected);
  });

  test('negative control: without the authn_core line the planner wrote, the .htaccess directories answer 500', () => {
    expect(removed.length).toBeGreaterThan(0);
    expect(control.error).toBeUndefined();
    const failed = control.mismatches.filter((o) => o.migrated === 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((o) => /\/(valid|alice|either)\//.test(o.request))).toBe(true);
  });
});

// ------------------------------------------------------------------ 5. authentication-only <Location> below varying host rules

const AUTH = (realm: string) => [`    AuthType Basic`, `    AuthName "${realm}"`, '    AuthUserFile "{{ROOT}}/conf/user.passwd"'];

const AUTH_LOCATION_22 = [
  ...serverHead22(['authz_host', 'authn_file', 'authz_user', 'auth_basic', 'alias', 'dir', 'mime']),
  '',
  '<Directory />',
  '    AllowOverride None',
  '    Order deny,allow',
  '    Deny from all',
  '</Directory>',
  '<Directory "{{ROOT}}/htdocs">',
  '    AllowOverride None',
  '    Order allow,deny',
  '    Allow from all',
  '</Directory>',
  '<Directory "{{ROOT}}/htdocs/office">',
  '    Order deny,allow',
  '    Deny from all',
  '    Allow from 127.0.0.5 127.0.1',
  '</Directory>',
  'Alias /tools "{{ROOT}}/tools"',
  '<Directory "{{ROOT}}/tools">',
  '    Order allow,deny',
  '    Allow from all',
  '    Deny from 127.1.2.3',
  '</Directory>',
  '',
  '# authentication only: the host rules come from whichever section above applies',
  '<Location /private>',
  ...AUTH('private'),
  '    Require valid-user',
  '</Location>',
  '<Location /office>',
  ...AUTH('office'),
  '    Require valid-user',
  '</Location>',
  '<Location /tools>',
  ...AUTH('tools'),
  '    Require user alice',
  '</Location>',
  '',
  '<FilesMatch "^\\.ht">',
  '    Order allow,deny',
  '    Deny from all',
  '    Satisfy All',
  '</FilesMatch>',
  '',
].join('\n');

const AUTH_LOCATION_FILES = {
  'conf/httpd.conf': AUTH_LOCATION_22,
  'conf/mime.types': '',
  'htdocs/index.html': 'home\n',
  'htdocs/private/page.html': 'private\n',
  'htdocs/private/.htsecret': 'never served\n',
  'htdocs/office/page.html': 'office\n',
  'htdocs/office/.htsecret': 'never served\n',
  'tools/tool.txt': 'a tool\n',
  'tools/.htaccess': 'never served\n',
};

const AUTH_LOCATION_PROBES: Probe[] = ['/', '/private/page.html', '/private/.htsecret', '/office/page.html', '/office/.htsecret', '/tools/tool.txt', '/tools/.htaccess', '/elsewhere'].map(
  (p) => ({ path: p }),
);

describe('5. an authentication-only <Location> below host rules that depend on the request', () => {
  let sides: SmallSides;
  let result: Result;
  let control: Result;
  let merging: string[] = [];

  beforeAll(async () => {
    sides = await smallSides('codemod-layout-auth-location-', AUTH_LOCATION_FILES, { 'conf/user.passwd': htpasswdText() });
    // negative control: the migrated tree without AuthMerging And (the Location's Require alone)
    const alone = path.join(sides.work, 'alone', 'tree');
    copyTree(sides.mig, alone);
    const conf = path.join(alone, 'conf/httpd.conf');
    const lines = fs.readFileSync(conf, 'latin1').split(sides.mig).join(alone).split('\n');
    merging = lines.filter((l) => /^\s*AuthMerging And\s*$/.test(l));
    fs.writeFileSync(conf, lines.filter((l) => !/^\s*AuthMerging And\s*$/.test(l)).join('\n'));
    makeReadable(path.join(sides.work, 'alone'));
    [result, control] = await compareSmall(sides, alone, [], AUTH_LOCATION_PROBES, ['authentication-only Locations', "negative control: the Locations' Require alone"]);
  });

  afterAll(() => sides && fs.rmSync(sides.work, { recursive: true, force: true }));

  test('every scope migrates: each Location gets AuthMerging And and its own Require, nothing is kept', () => {
    expectNothingKept(sides.migration, sides.mig);
    expect(merging).toHaveLength(3);
    const conf = fs.readFileSync(path.join(sides.mig, 'conf/httpd.conf'), 'latin1');
    expect(conf).toMatch(/<Location \/tools>\n(?: {4}Auth\w+ [^\n]*\n){3} {4}AuthMerging And\n {4}Require user alice\n<\/Location>/);
  });

  test('every request answers as on 2.2; nothing widened', () => {
    expectNoDifference(result, AUTH_LOCATION_PROBES.length * 32);
    const expected = {
      'GET /private/page.html from 127.1.2.3 as none': 401,
      'GET /private/page.html from 127.1.2.3 as bob': 200,
      'GET /private/.htsecret from 127.0.0.1 as alice': 403,
      'GET /office/page.html from 127.0.0.1 as alice': 403,
      'GET /office/page.html from 127.0.1.9 as alice': 200,
      'GET /tools/tool.txt from 127.0.0.1 as bob': 401,
      'GET /tools/tool.txt from 127.0.0.1 as alice': 200,
      'GET /tools/tool.txt from 127.1.2.3 as alice': 403,
    };
    expect(answersOf(result, expected)).toEqual(expected);
  });

  test("negative control: the Locations' Require alone lets valid users past the host rules", () => {
    expect(control.error).toBeUndefined();
    expect(control.widened.length).toBeGreaterThan(0);
    expect(control.observations.find((o) => o.request === 'GET /private/.htsecret from 127.0.0.1 as alice')).toMatchObject({ baseline: 403, migrated: 200 });
  });
});
