/**
 * Issue 8, point 7: a Debian upgrade in progress, judged by a real httpd 2.4.
 *
 * Debian's installed 2.4 /etc/apache2 (copied from this machine; the copy is checked against the
 * package's conffile checksums) with the sites of a 2.2 server added: in sites-available/, linked
 * from sites-enabled/, each with its own <VirtualHost> and <Directory>:
 *   site-a  Order allow,deny / Allow from all
 *   site-b  the same, and <Location /admin> for one address
 *   site-c  AllowOverride Limit, a .htaccess under its DocumentRoot with Order/Deny/Allow
 *   site-d  AuthType Basic + Require valid-user (and Order allow,deny / Allow from all)
 * and site-e in sites-available/ only (not enabled; Require group + Satisfy Any).
 * The tool runs over the copied /etc/apache2 and the docroots (--write, --httpd this machine's
 * apache2).
 *
 * Sides, each its own copy, served through prepareRun (whole-server.ts; Debian's envvars, Listen
 * on free ports):
 *   baseline  what the 2.2 sites meant: the copy with Debian's 2.4 access lines written as the
 *             2.2 lines that mean the same (Require all denied → Order deny,allow / Deny from
 *             all, Require all granted → Order allow,deny / Allow from all, Require local →
 *             Allow from 127.0.0.0/8 ::1; support/layout-differential.ts requireLineTo22), the
 *             sites as they were, on 2.4 + mod_access_compat (Debian enables it);
 *   migrated  the tool's output, served with mods-enabled/access_compat.load removed;
 *   today     negative control: the upgrade as it stands (Debian's 2.4 files, the 2.2 sites,
 *             access_compat enabled): 403 for every page of sites a, b and c, as the issue says.
 */
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2, freePorts } from './support/httpd';
import { Result } from './support/access-differential';
import {
  DEBIAN_ETC,
  DEBIAN_LAYOUT,
  Probe,
  answersOf,
  compareServers,
  copyDebianApache2,
  debianEnabledFiles,
  expectNoDifference,
  fill,
  htpasswdText,
  layoutRequests,
  makeReadable,
  newAccessLines,
  oldAccessLines,
  serveMapped,
  snapshotChanges,
  stopLayoutServers,
  treeSnapshot,
  treeTo22,
  writeFiles,
} from './support/layout-differential';
import { Migration, configtestTree, runCodemod, unexpectedOutput, workDir } from './support/whole-server';

jest.setTimeout(180000);

afterAll(() => stopLayoutServers());

const vhost = (name: string, body: string[]) =>
  [
    '<VirtualHost *:80>',
    `    ServerName ${name}.test`,
    `    DocumentRoot {{WWW}}/${name}`,
    `    ErrorLog \${APACHE_LOG_DIR}/${name}-error.log`,
    `    CustomLog \${APACHE_LOG_DIR}/${name}-access.log combined`,
    ...body.map((l) => `    ${l}`),
    '</VirtualHost>',
    '',
  ].join('\n');

/** The 2.2 sites (relative to the side's directory; `{{WWW}}` is the side's docroot tree). */
const SITES: Record<string, string> = {
  'etc/apache2/sites-available/site-a.conf': vhost('site-a', ['<Directory {{WWW}}/site-a>', '    Options FollowSymLinks', '    AllowOverride None', '    Order allow,deny', '    Allow from all', '</Directory>']),
  'etc/apache2/sites-available/site-b.conf': vhost('site-b', [
    '<Directory {{WWW}}/site-b>',
    '    AllowOverride None',
    '    Order allow,deny',
    '    Allow from all',
    '</Directory>',
    '<Location /admin>',
    '    Order deny,allow',
    '    Deny from all',
    '    Allow from 127.0.0.5',
    '</Location>',
  ]),
  'etc/apache2/sites-available/site-c.conf': vhost('site-c', ['<Directory {{WWW}}/site-c>', '    AllowOverride Limit', '    Order allow,deny', '    Allow from all', '</Directory>']),
  'etc/apache2/sites-available/site-d.conf': vhost('site-d', [
    '<Directory {{WWW}}/site-d>',
    '    AllowOverride None',
    '    AuthType Basic',
    '    AuthName "members"',
    '    AuthUserFile {{WWW}}/htpasswd',
    '    Require valid-user',
    '    Order allow,deny',
    '    Allow from all',
    '</Directory>',
  ]),
  'etc/apache2/sites-available/site-e.conf': vhost('site-e', [
    '<Directory {{WWW}}/site-e>',
    '    AuthType Basic',
    '    AuthName "staff"',
    '    AuthUserFile {{WWW}}/htpasswd',
    '    AuthGroupFile {{WWW}}/htgroups',
    '    Require group staff',
    '    Order deny,allow',
    '    Deny from all',
    '    Allow from 127.0.0.0/8',
    '    Satisfy Any',
    '</Directory>',
  ]),
  'www/site-a/index.html': 'a\n',
  'www/site-b/index.html': 'b\n',
  'www/site-b/admin/index.html': 'b admin\n',
  'www/site-c/index.html': 'c\n',
  'www/site-c/private/index.html': 'c private\n',
  'www/site-c/private/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5 127.0.1.0/24', ''].join('\n'),
  'www/site-d/index.html': 'd\n',
  'www/site-e/index.html': 'e\n',
  'www/htgroups': 'staff: bob\n',
};
const ENABLED = ['site-a', 'site-b', 'site-c', 'site-d'];
const ADDED = new Set([...Object.keys(SITES).filter((f) => f.startsWith('etc/apache2/')).map((f) => path.relative('etc/apache2', f)), ...ENABLED.map((s) => `sites-enabled/${s}.conf`)]);

const PROBES: Probe[] = [
  { host: 'site-a.test', path: '/' },
  { host: 'site-a.test', path: '/index.html' },
  { host: 'site-a.test', path: '/.htpasswd' },
  { host: 'site-b.test', path: '/' },
  { host: 'site-b.test', path: '/admin/' },
  { host: 'site-b.test', path: '/admin/index.html' },
  { host: 'site-c.test', path: '/' },
  { host: 'site-c.test', path: '/private/' },
  { host: 'site-c.test', path: '/private/.htaccess' },
  { host: 'site-d.test', path: '/' },
  { host: 'site-d.test', path: '/index.html' },
  { host: 'localhost', path: '/' },
];

/** Debian's /etc/apache2 and the 2.2 sites, under `side` (etc/apache2, www). */
function buildSide(side: string): void {
  copyDebianApache2(path.join(side, 'etc/apache2'));
  writeFiles(side, Object.fromEntries(Object.entries(SITES).map(([rel, text]) => [rel, fill(text, { WWW: path.join(side, 'www') })])));
  writeFiles(side, { 'www/htpasswd': htpasswdText() });
  for (const s of ENABLED) fs.symlinkSync(`../sites-available/${s}.conf`, path.join(side, 'etc/apache2/sites-enabled', `${s}.conf`));
  makeReadable(side);
}

describe('a Debian upgrade in progress: 2.4 /etc/apache2 with 2.2 sites', () => {
  let work = '';
  let migration: Migration;
  let migTree = '';
  let converted: string[] = [];
  let baseTree = '';
  let result: Result;
  let today: Result;
  let configtest: ReturnType<typeof configtestTree>;

  beforeAll(async () => {
    work = workDir('codemod-debian-upgrade-');
    const [base, mig, now] = ['base', 'mig', 'today'].map((s) => path.join(work, s));
    for (const s of [base, mig, now]) buildSide(s);
    baseTree = path.join(base, 'etc/apache2');
    converted = treeTo22(baseTree);
    migTree = path.join(mig, 'etc/apache2');
    migration = await runCodemod({ paths: [migTree, path.join(mig, 'www')], cwd: mig, runOptions: { httpd: APACHE2 }, jobs: 1 });
    makeReadable(mig);

    const [h1, s1, h2, s2, h3, s3] = await freePorts(6);
    const baseServer = await serveMapped(baseTree, DEBIAN_LAYOUT, path.join(work, 'run-base'), { http: h1, https: s1 });
    const migServer = await serveMapped(migTree, DEBIAN_LAYOUT, path.join(work, 'run-mig'), { http: h2, https: s2 }, (root) => fs.rmSync(path.join(root, 'mods-enabled/access_compat.load')));
    configtest = configtestTree(migServer.run);
    const todayServer = await serveMapped(path.join(now, 'etc/apache2'), DEBIAN_LAYOUT, path.join(work, 'run-today'), { http: h3, https: s3 });
    const requests = layoutRequests(PROBES);
    result = await compareServers('Debian 2.4 + 2.2 sites, migrated', baseServer.port, migServer.port, requests);
    today = await compareServers('negative control: the upgrade as it stands', baseServer.port, todayServer.port, requests);
    await Promise.all([baseServer.stop(), migServer.stop(), todayServer.stop()]);
  });

  afterAll(() => work && fs.rmSync(work, { recursive: true, force: true }));

  const findings = (code: string) => migration.findings.filter((f) => f.code === code);

  test("the baseline's parents are 2.2 lines: no 2.4 access line is left in the files the server reads", () => {
    expect(converted).toEqual(expect.arrayContaining(['apache2.conf']));
    expect(newAccessLines(baseTree, debianEnabledFiles(baseTree))).toEqual([]);
  });

  test("Debian's own 2.4 files are untouched, byte for byte (links included)", () => {
    const debian = treeSnapshot(DEBIAN_ETC);
    const after = new Map([...treeSnapshot(migTree)].filter(([rel]) => !ADDED.has(rel)));
    expect(snapshotChanges(debian, after)).toEqual([]);
  });

  test("without --httpd too (a user who does not name the binary), the run would change none of Debian's own files", async () => {
    const copy = path.join(work, 'no-probe');
    buildSide(copy);
    const dry = await runCodemod({ paths: [path.join(copy, 'etc/apache2'), path.join(copy, 'www')], cwd: copy, mode: 'diff', jobs: 1 });
    expect(dry.errors).toEqual([]);
    const own = dry.changed.filter((f) => !ADDED.has(path.relative('etc/apache2', f)) && !f.startsWith('www/'));
    expect(own).toEqual([]);
  });

  test('the sites are migrated (enabled and not), nothing kept, no AuthMerging anywhere', () => {
    expect(migration.errors).toEqual([]);
    expect(findings('access-kept').map((f) => `${f.file}:${f.line}`)).toEqual([]);
    const siteFiles = [...ADDED].filter((f) => f.startsWith('sites-available/'));
    expect(oldAccessLines(migTree, siteFiles)).toEqual([]);
    expect(oldAccessLines(path.join(work, 'mig/www'))).toEqual([]);
    for (const rel of siteFiles) expect(fs.readFileSync(path.join(migTree, rel), 'latin1')).not.toMatch(/AuthMerging/i);
  });

  test('access-mixed-differs, with its request, for each scope that answers differently from today (site-a, site-b and its /admin, site-c and its .htaccess); none for site-d', () => {
    const differs = findings('access-mixed-differs');
    const at = (file: string, re: RegExp) => {
      const lines = fs.readFileSync(path.join(work, 'today', file), 'latin1').split('\n');
      return `${file}:${lines.findIndex((l) => re.test(l)) + 1}`;
    };
    const expected = [
      at('etc/apache2/sites-available/site-a.conf', /<Directory/),
      at('etc/apache2/sites-available/site-b.conf', /<Directory/),
      at('etc/apache2/sites-available/site-b.conf', /<Location \/admin>/),
      at('etc/apache2/sites-available/site-c.conf', /<Directory/),
      'www/site-c/private/.htaccess:0',
    ];
    const got = differs.map((f) => `${f.file}:${f.line}`);
    expect({ missing: expected.filter((e) => !got.includes(e)) }).toEqual({ missing: [] });
    expect(got.filter((g) => /site-d/.test(g))).toEqual([]);
    for (const f of differs) {
      expect(f.severity).toBe('review');
      expect(f.message).toMatch(/answers 403 today, the migrated config 200/);
    }
  });

  test('the site that is not enabled is migrated as if enabled: review at most, and the module it would need is named, not loaded', () => {
    const own = migration.findings.filter((f) => /site-e/.test(f.file));
    expect(own.filter((f) => f.severity === 'manual')).toEqual([]);
    expect(own.some((f) => f.code === 'module-needed-when-enabled' && /authz_groupfile/.test(f.message))).toBe(true);
    expect(fs.readFileSync(path.join(migTree, 'sites-available/site-e.conf'), 'latin1')).toMatch(/Require group staff/);
  });

  test("Debian's switched-off module files: each module-needed-when-enabled is filed on the file whose line needs the module", () => {
    const later = findings('module-needed-when-enabled');
    expect(later.length).toBeGreaterThan(3);
    const misfiled = later
      .map((f) => ({ file: f.file, named: /\(line \d+ of ([^()]*)\)/.exec(f.message)?.[1] }))
      .filter((x) => x.named !== undefined && x.named !== x.file);
    expect(misfiled).toEqual([]);
  });

  test('apache2 -t accepts the migrated tree (without mod_access_compat) without a warning', () => {
    expect(unexpectedOutput(configtest)).toEqual([]);
    expect(configtest.ok).toBe(true);
  });

  test('the sites serve as on 2.2: every request answers as the baseline, nothing widened', () => {
    expectNoDifference(result, PROBES.length * 32);
    const expected = {
      'GET //site-a.test/ from 127.1.2.3 as none': 200,
      'GET //site-b.test/admin/ from 127.0.0.5 as none': 200,
      'GET //site-b.test/admin/ from 127.0.0.1 as none': 403,
      'GET //site-c.test/private/ from 127.0.1.9 as none': 200,
      'GET //site-c.test/private/ from 127.1.2.3 as alice': 403,
      'GET //site-d.test/ from 127.1.2.3 as none': 401,
      'GET //site-d.test/ from 127.1.2.3 as bob': 200,
      'GET //site-a.test/.htpasswd from 127.0.0.1 as none': 403,
    };
    expect(answersOf(result, expected)).toEqual(expected);
  });

  test('negative control: unmigrated, Debian 2.4 with access_compat answers 403 to every request of sites a, b and c', () => {
    expect(today.error).toBeUndefined();
    const abc = today.observations.filter((o) => /\/\/site-[abc]\.test\//.test(o.request));
    expect(abc.length).toBe(9 * 32);
    expect(abc.filter((o) => o.migrated !== 403)).toEqual([]);
    expect(today.mismatches.length).toBeGreaterThan(0);
    expect(today.mismatches.filter((o) => !/\/\/site-[abc]\.test\//.test(o.request))).toEqual([]);
  });
});
