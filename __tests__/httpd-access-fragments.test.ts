/**
 * Issue 8, point 7: the fragment rules (point 5) and mixed syntax in a fragment (point 3), each
 * run against the two stock 2.4 main configs given as `--context`, judged by a real httpd 2.4.
 *
 * Contexts:
 *   debian  Debian's installed /etc/apache2 (copied; checked against the package's checksums)
 *   apache  Apache's own 2.4 conf/httpd.conf (no copy of it is in the corpus or the apache2
 *           package: APACHE_24_HTTPD_CONF below writes its documented defaults, the access
 *           sections verbatim: `<Directory />` AllowOverride none / Require all denied, the
 *           DocumentRoot and cgi-bin granted, `<Files ".ht*">` denied, mod_access_compat loaded)
 * Each context also holds one site already written for 2.4 by the administrator (c.test), whose
 * DocumentRoot is the docroot of per-directory files of rule (c).
 *
 * Fragments (outside the context, `{{DOCS}}` the side's docroot tree):
 *   (a) a.conf                   a vhost file alone
 *   (b) sites-available/         two vhost files, the directory alone
 *   (c) docs/c                   a docroot of .htaccess files alone (nested, Satisfy Any)
 *   (d) d.conf + docs/d          <Directory /abs> without AllowOverride, a .htaccess below it
 *   (e) e.conf                   child Order/Allow under a parent Order/Allow in the same file
 *                                (and a child with Allow only, which 2.2 resets to allow-all)
 *   (6) f.conf                   mixed: 2.4 and 2.2 blocks in one file, each plain
 * Runs: one per rule with `--context` (side "ctx"); one over all of them without any context
 * (side "noctx", rule (f)); --write both times.
 *
 * Sides served per context (prepareRun: Listen and `<VirtualHost *:80>` on free ports, Debian's
 * envvars; the fragments are placed where the context includes sites: Debian's sites-enabled/,
 * and `IncludeOptional conf/frag/*.conf` appended to Apache's httpd.conf):
 *   base   the meaning: the 2.2 parents where the context has 2.4 ones — its access lines
 *          written as 2.2 (requireLinesTo22), and for Debian 2.2's default AllowOverride All at
 *          <Directory /> (Debian 7 set None inside its default site only; Apache's 2.2
 *          httpd.conf set None there, as 2.4's does) — the fragments as they were, on 2.4 + mod_access_compat; f.conf, the
 *          mixed fragment, with its 2.4 blocks written as 2.2 by hand (the nearer section
 *          replaces, the rule of point 3). So d/sub/.htaccess was read under Debian's 2.2 parents
 *          and not under Apache's;
 *   ctx    the context untouched, the fragments migrated with --context, WITHOUT mod_access_compat;
 *   noctx  the same with the fragments migrated without context, WITHOUT mod_access_compat.
 *          With or without context, the run's own sections are 2.2's and the ones above them are
 *          not (a 2.4 context, or the stock 2.4 main config assumed): where the run sets no
 *          AllowOverride above d/sub/.htaccess, 2.2's default All is written above it. Under
 *          Apache's 2.2 parents (None at <Directory />) 2.2 did not read that file: narrower there,
 *          never wider — that one known difference is checked as such;
 *   today  negative control: the context with the unmigrated fragments, mod_access_compat on.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2, freePorts, loadModuleLine } from './support/httpd';
import { Observation, Result } from './support/access-differential';
import {
  DEBIAN_LAYOUT,
  Probe,
  answersOf,
  ServedTree,
  UPSTREAM_LAYOUT,
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
  statusOf,
  stopLayoutServers,
  treeSnapshot,
  treeTo22,
  writeFiles,
} from './support/layout-differential';
import { Migration, copyTree, runCodemod, workDir } from './support/whole-server';

jest.setTimeout(240000);

afterAll(() => stopLayoutServers());

// ------------------------------------------------------------------ contexts

/**
 * Apache httpd 2.4's own conf/httpd.conf (docs/conf/httpd.conf.in of the 2.4 branch, with
 * @@ServerRoot@@ = /usr/local/apache2 and @@Port@@ = 80), comments left out. Its default
 * LoadModule lines, except those Debian's binary compiles in (log_config, logio, version, unixd:
 * loading a built-in is fatal). PidFile and DefaultRuntimeDir are an upstream build's compiled
 * defaults, spelled out because Debian's binary compiles in /run/apache2.pid.
 */
const APACHE_24_HTTPD_CONF = [
  'ServerRoot "/usr/local/apache2"',
  'Listen 80',
  ...[
    'mpm_event',
    'authn_file',
    'authn_core',
    'authz_host',
    'authz_groupfile',
    'authz_user',
    'authz_core',
    'access_compat',
    'auth_basic',
    'reqtimeout',
    'filter',
    'mime',
    'env',
    'headers',
    'setenvif',
    'status',
    'autoindex',
    'dir',
    'alias',
  ].map(loadModuleLine),
  '<IfModule unixd_module>',
  'User daemon',
  'Group daemon',
  '</IfModule>',
  'ServerAdmin you@example.com',
  '<Directory />',
  '    AllowOverride none',
  '    Require all denied',
  '</Directory>',
  'DocumentRoot "/usr/local/apache2/htdocs"',
  '<Directory "/usr/local/apache2/htdocs">',
  '    Options Indexes FollowSymLinks',
  '    AllowOverride None',
  '    Require all granted',
  '</Directory>',
  '<IfModule dir_module>',
  '    DirectoryIndex index.html',
  '</IfModule>',
  '<Files ".ht*">',
  '    Require all denied',
  '</Files>',
  'ErrorLog "logs/error_log"',
  'LogLevel warn',
  '<IfModule log_config_module>',
  '    LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined',
  '    LogFormat "%h %l %u %t \\"%r\\" %>s %b" common',
  '    CustomLog "logs/access_log" common',
  '</IfModule>',
  '<IfModule alias_module>',
  '    ScriptAlias /cgi-bin/ "/usr/local/apache2/cgi-bin/"',
  '</IfModule>',
  '<Directory "/usr/local/apache2/cgi-bin">',
  '    AllowOverride None',
  '    Options None',
  '    Require all granted',
  '</Directory>',
  '<IfModule headers_module>',
  '    RequestHeader unset Proxy early',
  '</IfModule>',
  '<IfModule mime_module>',
  '    TypesConfig conf/mime.types',
  '    AddType application/x-compress .Z',
  '    AddType application/x-gzip .gz .tgz',
  '</IfModule>',
  '<IfModule ssl_module>',
  'SSLRandomSeed startup builtin',
  'SSLRandomSeed connect builtin',
  '</IfModule>',
  '# compiled-in defaults of an upstream build (see above)',
  'PidFile "logs/httpd.pid"',
  'DefaultRuntimeDir "logs"',
  '# the administrator\'s site, already written for 2.4',
  'Include conf/extra/c-docroot.conf',
  '',
].join('\n');

/** The administrator's 2.4 site serving the docroot of rule (c). */
const C_SITE_24 = [
  '<VirtualHost *:80>',
  '    ServerName c.test',
  '    DocumentRoot "{{DOCS}}/c"',
  '    <Directory "{{DOCS}}/c">',
  '        Options None',
  '        AllowOverride All',
  '        Require all granted',
  '    </Directory>',
  '</VirtualHost>',
  '',
].join('\n');

type ContextKind = 'debian' | 'apache';

interface ContextShape {
  readonly layout: typeof DEBIAN_LAYOUT;
  /** Writes the context into `dir` (the tree the layout's ServerRoot names). */
  write(dir: string, docs: string): void;
  /** Where fragments are placed for serving, and how they are included. */
  place(dir: string, name: string, text: string): void;
  /** Takes mod_access_compat out of a run copy. */
  withoutCompat(root: string): void;
  /** Turns a copy of the context into the 2.2 parents the layout had (see the file header). */
  to22(dir: string): void;
}

const CONTEXTS: Record<ContextKind, ContextShape> = {
  debian: {
    layout: DEBIAN_LAYOUT,
    write(dir, docs) {
      copyDebianApache2(dir);
      writeFiles(dir, { 'sites-available/c-docroot.conf': fill(C_SITE_24, { DOCS: docs }) });
      fs.symlinkSync('../sites-available/c-docroot.conf', path.join(dir, 'sites-enabled/c-docroot.conf'));
    },
    place(dir, name, text) {
      writeFiles(dir, { [`sites-enabled/zz-frag-${name.replace(/\//g, '-')}`]: text });
    },
    withoutCompat(root) {
      fs.rmSync(path.join(root, 'mods-enabled/access_compat.load'));
    },
    to22(dir) {
      treeTo22(dir);
      // Debian 7's apache2.conf had no <Directory /> (its AllowOverride None for / sat in the default site only):
      // 2.2's compiled-in default All held there, spelled out (2.4's unset AllowOverride answers 500 for .htaccess lines)
      const main = path.join(dir, 'apache2.conf');
      const text = fs.readFileSync(main, 'latin1');
      const root = /<Directory \/>[\s\S]*?<\/Directory>/.exec(text);
      if (!root || !/\n(\s*)AllowOverride None\n/.test(root[0])) throw new Error("Debian's apache2.conf changed: no AllowOverride None in <Directory />");
      fs.writeFileSync(main, Buffer.from(text.replace(root[0], root[0].replace(/\n(\s*)AllowOverride None\n/, '\n$1AllowOverride All\n')), 'latin1'));
    },
  },
  apache: {
    layout: UPSTREAM_LAYOUT,
    write(dir, docs) {
      writeFiles(dir, {
        'conf/httpd.conf': APACHE_24_HTTPD_CONF,
        'conf/extra/c-docroot.conf': fill(C_SITE_24, { DOCS: docs }),
        'conf/mime.types': '',
        'htdocs/index.html': 'It works!\n',
      });
      fs.mkdirSync(path.join(dir, 'cgi-bin'), { recursive: true });
      fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
    },
    place(dir, name, text) {
      const main = path.join(dir, 'conf/httpd.conf');
      const include = 'IncludeOptional conf/frag/*.conf\n';
      if (!fs.readFileSync(main, 'latin1').endsWith(include)) fs.appendFileSync(main, include);
      writeFiles(dir, { [`conf/frag/${name.replace(/\//g, '-')}`]: text });
    },
    withoutCompat(root) {
      const main = path.join(root, 'conf/httpd.conf');
      fs.writeFileSync(main, fs.readFileSync(main, 'latin1').replace(/^LoadModule access_compat_module/m, '#LoadModule access_compat_module'));
    },
    // Apache's 2.2 httpd.conf had the same <Directory /> AllowOverride None: only the access lines differ
    to22: (dir) => void treeTo22(dir),
  },
};

// ------------------------------------------------------------------ fragments

const AUTH = (realm: string) => ['AuthType Basic', `AuthName "${realm}"`, 'AuthUserFile "{{DOCS}}/htpasswd"'];

const vhost = (name: string, body: string[]) =>
  ['<VirtualHost *:80>', `    ServerName ${name}.test`, `    DocumentRoot "{{DOCS}}/${name}"`, ...body.map((l) => `    ${l}`), '</VirtualHost>', ''].join('\n');
const dirSection = (sub: string, lines: string[]) => [`<Directory "{{DOCS}}/${sub}">`, ...lines.map((l) => `    ${l}`), '</Directory>'];

/** Fragment files (relative to the side's frag/ directory), 2.2 as the administrator has them. */
const FRAGMENTS: Record<string, string> = {
  'a.conf': vhost('a', [
    ...dirSection('a', ['Options None', 'AllowOverride None', 'Order allow,deny', 'Allow from all', 'Deny from 127.0.0.5']),
    ...dirSection('a/members', [...AUTH('members'), 'Require valid-user']),
    ...dirSection('a/private', ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9']),
  ]),
  'sites-available/b1.conf': vhost('b1', [
    ...dirSection('b1', ['AllowOverride None', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.0.0/24', ...AUTH('b1'), 'Require user bob', 'Satisfy Any']),
  ]),
  'sites-available/b2.conf': vhost('b2', [
    ...dirSection('b2', ['AllowOverride None', 'Order allow,deny', 'Allow from all']),
    ...dirSection('b2/sub', ['Order deny,allow', 'Deny from 127.1.0.0/16']),
  ]),
  'd.conf': vhost('d', [...dirSection('d', ['Options Indexes', 'Order allow,deny', 'Allow from all'])]),
  'e.conf': vhost('e', [
    ...dirSection('e', ['AllowOverride None', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5']),
    ...dirSection('e/sub', ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9']),
    ...dirSection('e/open', ['Allow from 127.0.1.9']),
  ]),
  'f.conf': vhost('f', [
    ...dirSection('f', ['AllowOverride None', 'Require ip 127.0.0.0/24']),
    ...dirSection('f/old', ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9']),
    '<Location /new>',
    '    Require ip 127.0.1.9',
    '</Location>',
    ...dirSection('f/old2', ['Order allow,deny', 'Allow from all', 'Deny from 127.0.0.5']),
  ]),
};

/** The baseline's hand-stated fragment (see the file header). */
const BASE_FRAGMENTS: Record<string, string> = {
  'f.conf': vhost('f', [
    ...dirSection('f', ['AllowOverride None', 'Order deny,allow', 'Deny from all', 'Allow from 127.0.0.0/24']),
    ...dirSection('f/old', ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9']),
    '<Location /new>',
    '    Order deny,allow',
    '    Deny from all',
    '    Allow from 127.0.1.9',
    '</Location>',
    ...dirSection('f/old2', ['Order allow,deny', 'Allow from all', 'Deny from 127.0.0.5']),
  ]),
};

const DOCS: Record<string, string> = {
  'c/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.0.0/24', ''].join('\n'),
  'c/sub/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.1.9', ...AUTH('c'), 'Require valid-user', 'Satisfy Any', ''].join('\n'),
  'd/sub/.htaccess': ['Order deny,allow', 'Deny from all', 'Allow from 127.0.0.5', ''].join('\n'),
};
for (const dir of ['a', 'a/members', 'a/private', 'b1', 'b2', 'b2/sub', 'c', 'c/sub', 'd', 'd/sub', 'e', 'e/sub', 'e/open', 'f', 'f/old', 'f/new', 'f/old2']) DOCS[`${dir}/index.html`] = `${dir}\n`;

const PROBES: Probe[] = [
  ['a', '/'],
  ['a', '/members/'],
  ['a', '/private/'],
  ['b1', '/'],
  ['b2', '/'],
  ['b2', '/sub/'],
  ['c', '/'],
  ['c', '/sub/'],
  ['c', '/.htaccess'],
  ['d', '/'],
  ['d', '/sub/'],
  ['e', '/'],
  ['e', '/sub/'],
  ['e', '/open/'],
  ['f', '/'],
  ['f', '/old/'],
  ['f', '/new/'],
  ['f', '/old2/'],
].map(([h, p]) => ({ host: `${h}.test`, path: p }));

/** The rule runs with --context: [label, paths relative to the side]. */
const RULE_RUNS: [string, string[]][] = [
  ['(a) a vhost file alone', ['frag/a.conf']],
  ['(b) sites-available/ alone', ['frag/sites-available']],
  ['(c) a docroot of .htaccess files alone', ['docs/c']],
  ['(d) <Directory /abs> with .htaccess files in the run, no AllowOverride', ['frag/d.conf', 'docs/d']],
  ['(e) child Allow under parent Allow in the same fragment', ['frag/e.conf']],
  ['(6) mixed 2.2/2.4 blocks in one fragment', ['frag/f.conf']],
];

interface Side {
  readonly dir: string;
  readonly context: string;
  readonly docs: string;
  readonly frag: string;
}

function buildSide(dir: string, kind: ContextKind, fragments: Record<string, string>): Side {
  const side: Side = { dir, context: path.join(dir, 'context'), docs: path.join(dir, 'docs'), frag: path.join(dir, 'frag') };
  CONTEXTS[kind].write(side.context, side.docs);
  writeFiles(side.frag, Object.fromEntries(Object.entries(fragments).map(([rel, t]) => [rel, fill(t, { DOCS: side.docs })])));
  writeFiles(side.docs, Object.fromEntries(Object.entries(DOCS).map(([rel, t]) => [rel, fill(t, { DOCS: side.docs })])));
  writeFiles(side.docs, { htpasswd: htpasswdText() });
  makeReadable(dir);
  return side;
}

/** Every fragment file below frag/, relative to it. */
function fragmentFiles(side: Side): string[] {
  return [...treeSnapshot(side.frag).keys()];
}

/** A copy of the side's context with its fragments placed, ready for prepareRun. */
function serveSource(side: Side, kind: ContextKind, to22 = false): string {
  const src = path.join(side.dir, 'serve-src');
  copyTree(side.context, src);
  if (to22) CONTEXTS[kind].to22(src);
  for (const rel of fragmentFiles(side)) CONTEXTS[kind].place(src, rel, fs.readFileSync(path.join(side.frag, rel), 'latin1'));
  return src;
}

function describeContext(kind: ContextKind): void {
  describe(`fragments under ${kind === 'debian' ? "Debian's /etc/apache2" : "Apache's own httpd.conf"} (2.4)`, () => {
    let work = '';
    let base: Side;
    let ctx: Side;
    let noctx: Side;
    let today: Side;
    const ruleRuns = new Map<string, Migration>();
    let noContextRun: Migration;
    let contextBefore: Map<string, string>;
    let contextAfter: Map<string, string>;
    let results: { ctx: Result; noctx: Result; today: Result };

    beforeAll(async () => {
      work = workDir(`codemod-fragments-${kind}-`);
      base = buildSide(path.join(work, 'base'), kind, { ...FRAGMENTS, ...BASE_FRAGMENTS });
      ctx = buildSide(path.join(work, 'ctx'), kind, FRAGMENTS);
      noctx = buildSide(path.join(work, 'noctx'), kind, FRAGMENTS);
      today = buildSide(path.join(work, 'today'), kind, FRAGMENTS);

      const contextMain = path.join(ctx.context, CONTEXTS[kind].layout.mainRel);
      contextBefore = treeSnapshot(ctx.context);
      for (const [label, rels] of RULE_RUNS) {
        ruleRuns.set(label, await runCodemod({ paths: rels.map((r) => path.join(ctx.dir, r)), cwd: ctx.dir, context: [contextMain], runOptions: { httpd: APACHE2 }, jobs: 1 }));
      }
      contextAfter = treeSnapshot(ctx.context);
      noContextRun = await runCodemod({ paths: [noctx.frag, noctx.docs], cwd: noctx.dir, runOptions: { httpd: APACHE2 }, jobs: 1 });
      for (const s of [ctx, noctx]) makeReadable(s.dir);

      const shape = CONTEXTS[kind];
      const ports = await freePorts(8);
      // a side that does not start is reported by the tests that compare it, not by this hook
      const serve = async (side: Side, i: number, to22: boolean, edit?: (root: string) => void): Promise<ServedTree | string> => {
        try {
          return await serveMapped(serveSource(side, kind, to22), shape.layout, path.join(side.dir, 'run'), { http: ports[2 * i], https: ports[2 * i + 1] }, edit);
        } catch (e) {
          return `${path.basename(side.dir)} did not start: ${String(e instanceof Error ? e.message : e).split(work).join('WORK')}`;
        }
      };
      const servers = [await serve(base, 0, true), await serve(ctx, 1, false, shape.withoutCompat), await serve(noctx, 2, false, shape.withoutCompat), await serve(today, 3, false)];
      const requests = layoutRequests(PROBES);
      const compare = async (name: string, other: ServedTree | string): Promise<Result> => {
        const [b] = servers;
        if (typeof b === 'string' || typeof other === 'string') return { name, mismatches: [], widened: [], requests: 0, observations: [], error: [b, other].filter((x) => typeof x === 'string').join('\n') };
        return compareServers(name, b.port, other.port, requests);
      };
      results = {
        ctx: await compare(`${kind}: migrated with --context`, servers[1]),
        noctx: await compare(`${kind}: migrated without context`, servers[2]),
        today: await compare(`${kind}: negative control, unmigrated`, servers[3]),
      };
      await Promise.all(servers.map((s) => (typeof s === 'string' ? undefined : s.stop())));
    });

    afterAll(() => work && fs.rmSync(work, { recursive: true, force: true }));

    test("the baseline's context holds only 2.2 access lines", () => {
      const src = path.join(base.dir, 'serve-src');
      const files = kind === 'debian' ? debianEnabledFiles(src) : ['conf/httpd.conf', 'conf/extra/c-docroot.conf'];
      expect(newAccessLines(src, files.filter((f) => !/frag/.test(f)))).toEqual([]);
    });

    test('--context is read, never written: the context is byte for byte what it was', () => {
      expect(snapshotChanges(contextBefore, contextAfter)).toEqual([]);
    });

    test.each(RULE_RUNS.map(([label]) => [label]))('%s: migrated with --context, nothing kept, no AuthMerging, no context assumed', (label) => {
      const m = ruleRuns.get(label) as Migration;
      expect(m.errors).toEqual([]);
      expect(m.findings.filter((f) => ['access-kept', 'access-context-assumed'].includes(f.code)).map((f) => `${f.code} ${f.file}:${f.line}`)).toEqual([]);
      expect(m.findings.filter((f) => f.code === 'access-migrated').length).toBeGreaterThan(0);
    });

    test('no Order/Allow/Deny/Satisfy and no AuthMerging left in any migrated fragment or .htaccess', () => {
      for (const s of [ctx, noctx]) {
        expect(oldAccessLines(s.frag)).toEqual([]);
        expect(oldAccessLines(s.docs)).toEqual([]);
        for (const dir of [s.frag, s.docs]) for (const rel of treeSnapshot(dir).keys()) expect(`${rel}: ${fs.readFileSync(path.join(dir, rel), 'latin1')}`).not.toMatch(/AuthMerging/i);
      }
    });

    // 2.2 read d/sub/.htaccess under Debian's 2.2 parents (no AllowOverride above d.conf), not under Apache's (None at /)
    const dRead = kind === 'debian';

    test('(d) with --context and without context, AllowOverride All is written in the <Directory> above the .htaccess file (review)', () => {
      const allOn = (s: Side) => /<Directory "[^"]*\/d">\n(\s+\S.*\n)*?\s+AllowOverride All\n/.test(fs.readFileSync(path.join(s.frag, 'd.conf'), 'latin1'));
      const explicit = (m: Migration) => m.findings.filter((f) => f.code === 'allow-override-all-explicit' && /d\.conf$/.test(f.file)).map((f) => f.severity);
      const withContext = ruleRuns.get(RULE_RUNS[3][0]) as Migration;
      expect({ ctx: allOn(ctx), noctx: allOn(noctx) }).toEqual({ ctx: true, noctx: true });
      expect({ ctx: explicit(withContext), noctx: explicit(noContextRun) }).toEqual({ ctx: ['review'], noctx: ['review'] });
    });

    test('(f) without context: exactly one access-context-assumed for the whole run', () => {
      expect(noContextRun.errors).toEqual([]);
      expect(noContextRun.findings.filter((f) => f.code === 'access-context-assumed').length).toBe(1);
    });

    test('(6) the mixed fragment is migrated where it stands, not kept', () => {
      for (const s of [ctx, noctx]) {
        const text = fs.readFileSync(path.join(s.frag, 'f.conf'), 'latin1');
        expect(text).toMatch(/<Location \/new>\n\s+Require ip 127\.0\.1\.9\n/);
        expect(text).toMatch(/<Directory "[^"]*\/f\/old">\n\s+Require ip 127\.0\.1\.9\n/);
      }
    });

    test.each([
      ['ctx', 'migrated with --context'],
      ['noctx', 'migrated without context'],
    ] as const)('served %s (%s, no mod_access_compat): every request answers as the 2.2 meaning; nothing widened', (which, _how) => {
      const r = results[which];
      // the run writes 2.2's default AllowOverride All above d.conf's .htaccess: under Apache's parents
      // (None at <Directory />, in 2.2 too) that reads d/sub/.htaccess, which 2.2 did not: narrower there, never wider
      const assumed = (o: Observation) => !dRead && o.request.includes('//d.test/sub/') && o.baseline === 200 && o.migrated === 403;
      if (!r.error && !dRead) expect(r.mismatches.filter(assumed).length).toBe(24);
      expectNoDifference({ ...r, mismatches: r.mismatches.filter((o) => !assumed(o)) }, PROBES.length * 32);
      const expected = {
        // rule (e): X gets 200 as on 2.2, not 403; 2.2 reset the host rules of a child with Allow only
        'GET //e.test/sub/ from 127.0.1.9 as none': 200,
        'GET //e.test/sub/ from 127.0.0.5 as none': 403,
        'GET //e.test/open/ from 127.1.2.3 as none': 200,
        // rule (d): the .htaccess file is honoured where 2.2 read it
        'GET //d.test/sub/ from 127.0.0.5 as none': 200,
        'GET //d.test/sub/ from 127.0.0.1 as none': 403,
        // rule (c): nested per-directory files, the inner one replacing the outer host rules
        'GET //c.test/sub/ from 127.0.0.1 as none': 401,
        'GET //c.test/sub/ from 127.0.1.9 as none': 200,
        // (6): the 2.2 child under the 2.4 parent replaces it
        'GET //f.test/old/ from 127.0.1.9 as none': 200,
        'GET //f.test/old2/ from 127.1.2.3 as none': 200,
      };
      expect(answersOf(r, expected, 'migrated')).toEqual(expected);
    });

    test('access-mixed-differs (--context runs) is reported exactly for the fragments that httpd 2.4 + mod_access_compat answers differently today (measured: today vs ctx)', () => {
      for (const r of [results.today, results.ctx]) if (r.error) throw new Error(r.error);
      const files: Record<string, RegExp> = { a: /frag\/a\.conf$/, b1: /b1\.conf$/, b2: /b2\.conf$/, c: /docs\/c\//, d: /frag\/d\.conf$|docs\/d\//, e: /frag\/e\.conf$/, f: /frag\/f\.conf$/ };
      const reported = [...ruleRuns.values()].flatMap((m) => m.findings.filter((f) => f.code === 'access-mixed-differs'));
      const rows = Object.entries(files).map(([host, re]) => {
        const witness = results.today.observations.find((o, i) => o.request.includes(`//${host}.test/`) && o.migrated !== results.ctx.observations[i].migrated);
        const finding = reported.find((f) => re.test(f.file));
        return { host, differs: witness ? `${witness.request}: today ${witness.migrated}, migrated ${statusOf(results.ctx, witness.request, 'migrated')}` : false, reported: finding ? finding.message.replace(/\. Across the boundary[\s\S]*/, '') : false };
      });
      expect(rows.filter((r) => Boolean(r.differs) !== Boolean(r.reported))).toEqual([]);
    });

    test('negative control: the unmigrated fragments under the stock 2.4 context answer differently (403 where 2.2 served)', () => {
      const r = results.today;
      if (r.error) throw new Error(r.error);
      expect(r.mismatches.length).toBeGreaterThan(0);
      // the 2.2 meaning serves these; the stock 2.4 parents refuse them
      const meant = { 'GET //e.test/sub/ from 127.0.1.9 as none': 200, 'GET //a.test/ from 127.0.0.1 as none': 200 };
      expect(answersOf(r, meant)).toEqual(meant);
      expect(answersOf(r, meant, 'migrated')).toEqual({ 'GET //e.test/sub/ from 127.0.1.9 as none': 403, 'GET //a.test/ from 127.0.0.1 as none': 403 });
    });
  });
}

describeContext('debian');
describeContext('apache');

// ------------------------------------------------------------------ what the context lacks is reported against it, never written

describe("findings on the context: what Debian's stock tree lacks for the fragments", () => {
  let work = '';
  let before: Map<string, string>;
  let after: Map<string, string>;
  let overrides: Migration;
  let modules: Migration;

  beforeAll(async () => {
    work = workDir('codemod-fragments-lacks-');
    const context = path.join(work, 'apache2');
    const docs = path.join(work, 'docs');
    copyDebianApache2(context);
    // the administrator's 2.4 site lets per-directory files use only Limit
    writeFiles(context, { 'sites-available/x.conf': fill(C_SITE_24, { DOCS: docs }).replace('AllowOverride All', 'AllowOverride Limit') });
    fs.symlinkSync('../sites-available/x.conf', path.join(context, 'sites-enabled/x.conf'));
    writeFiles(docs, { 'c/.htaccess': DOCS['c/.htaccess'] });
    const g = fill(vhost('g', [...dirSection('g', ['AllowOverride None', ...AUTH('g'), 'AuthGroupFile "{{DOCS}}/groups"', 'Require group staff', 'Order allow,deny', 'Allow from all'])]), { DOCS: docs });
    writeFiles(work, { 'frag/g.conf': g, 'cli/g.conf': g });
    before = treeSnapshot(context);
    overrides = await runCodemod({ paths: [path.join(docs, 'c')], cwd: work, context: [path.join(context, 'apache2.conf')], runOptions: { httpd: APACHE2 }, jobs: 1 });
    modules = await runCodemod({ paths: [path.join(work, 'frag/g.conf')], cwd: work, context: [path.join(context, 'apache2.conf')], runOptions: { httpd: APACHE2 }, jobs: 1 });
    after = treeSnapshot(context);
  });

  afterAll(() => work && fs.rmSync(work, { recursive: true, force: true }));

  test('a migrated .htaccess under a context <Directory> that allows only Limit: context-override-needed against the context', () => {
    expect(overrides.errors).toEqual([]);
    const found = overrides.findings.filter((f) => f.code === 'context-override-needed');
    expect(found.map((f) => f.severity)).toEqual(['manual']);
    expect(found[0].file).toMatch(/^apache2\/sites-(available|enabled)\/x\.conf$/);
    expect(found[0].message).toMatch(/AllowOverrideList Require/);
  });

  test('a fragment needing a module the context does not load (authz_groupfile): module-needed', () => {
    expect(modules.errors).toEqual([]);
    // only what the context lacks: Debian enables authz_core, authz_host, authz_user, authn_core, authn_file and auth_basic
    const found = modules.findings.filter((f) => f.code === 'module-needed').map((f) => f.message);
    expect(found).toEqual([expect.stringMatching(/authz_groupfile/)]);
  });

  test('the context is never written', () => {
    expect(snapshotChanges(before, after)).toEqual([]);
  });

  test('the CLI takes `--context FILE` followed by the paths to migrate (the paths are not read as more contexts)', () => {
    const cli = path.join(__dirname, '..', 'dist', 'src', 'cli.js');
    const run = spawnSync(process.execPath, [cli, '--format', 'json', '--context', path.join(work, 'apache2', 'apache2.conf'), path.join(work, 'cli', 'g.conf')], { cwd: work, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/no paths given/);
    const report = JSON.parse(run.stdout) as { files: { path: string; status: string }[] };
    expect(report.files.map((f) => [f.path, f.status])).toEqual([['cli/g.conf', 'changed']]);
    expect(run.status).toBe(1);
  });
});
