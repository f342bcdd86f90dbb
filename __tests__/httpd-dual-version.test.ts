/**
 * Dual-version access blocks that applications ship (issue 8, point 6), on a real httpd 2.4.71.
 *
 * 1. What `<IfModule>` matches, measured (`apache2 -t -D DUMP_CONFIG`, with and without
 *    mod_access_compat loaded), agrees with version-guards.ts: only `mod_x.c` / `x_module` of a loaded
 *    module; bare names (`mod_access_compat`, `mod_version`), `.so`, other case: never. mod_version is
 *    compiled into Debian's binary, and the `--httpd` probe says so.
 * 2. Three corpus files, each copied into a temporary tree with the minimum around it, migrated by the
 *    CLI (`--write`, as a user runs it) and served WITHOUT mod_access_compat, answer every request as
 *    the unmigrated file does on 2.4 WITH compat, and as each block's 2.4 branch means:
 *    - Bugzilla's `.htaccess` (`<IfModule mod_version.c>` + `<IfVersion>` pair + `<IfModule !mod_version.c>`):
 *      left as it is; .pm/.pl/.tmpl/localconfig 403, the rest 200;
 *    - Matomo's `core/.htaccess` (`mod_access.c`, bare `mod_access_compat`, `!mod_access_compat` →
 *      `mod_authz_host.c`): the branch 2.4 runs held `Deny from all`, migrated; everything in core/ 403;
 *    - OTRS's include (`<Directory>` and `<Location>` with the mod_version idiom): left as it is; its
 *      cgi-bin and htdocs 200 under a main config that denies everything else.
 *    Negative controls: the unmigrated Matomo file without compat answers 500; Bugzilla's and OTRS's
 *    old branch forced on (the test renamed so no module answers to it, as on a server without
 *    mod_version) without compat gives 500 / a config httpd refuses (Invalid command 'Order').
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ifModuleOutcome } from '../src/semantics/version-guards';
import { probeHttpd } from '../src/modules/probe';
import { APACHE2, MODULES_DIR, baseConfig, configtest, freePort, tempDir } from './support/httpd';
import { CORPUS_DIR } from './support/corpus';
import { fetchFrom, makeWorldReadable, startTracked, stopTracked, writeTreeFile } from './support/served-tree';

jest.setTimeout(120000);

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli.js');
const COMPAT_LINE = `LoadModule access_compat_module ${MODULES_DIR}/mod_access_compat.so`;

function codemod(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'latin1', env: { ...process.env, CI: 'true' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const corpus = (rel: string) => fs.readFileSync(path.join(CORPUS_DIR, rel)).toString('latin1');

afterAll(() => stopTracked());

// ------------------------------------------------------------------ 1. <IfModule> spellings

describe('<IfModule> spellings on 2.4.71 agree with version-guards.ts', () => {
  const SPELLINGS = [
    'mod_access_compat.c',
    'access_compat_module',
    'mod_access_compat',
    'access_compat',
    'mod_access_compat.so',
    'MOD_ACCESS_COMPAT.C',
    'mod_version.c',
    'version_module',
    'mod_version',
    'version',
    'mod_authz_core.c',
    'authz_core_module',
    'mod_authz_core',
    'mod_authz_host.c',
    'authz_host_module',
    'mod_authz_host',
    'mod_access.c',
    'access_module',
    '!mod_access_compat',
    '!mod_version.c',
    '!mod_access.c',
  ];
  let matched: { compat: boolean; set: Set<string> }[] = [];

  beforeAll(async () => {
    const dir = tempDir('codemod-ifmodule-');
    const conf = path.join(dir, 'httpd.conf');
    const lines = [
      baseConfig(dir, await freePort(), ['authz_host', 'info']).trimEnd(),
      '<IfDefine COMPAT>',
      `    ${COMPAT_LINE}`,
      '</IfDefine>',
      ...SPELLINGS.flatMap((s, i) => [`<IfModule ${s}>`, `    ServerAdmin spelling-${i}@example.org`, '</IfModule>']),
    ];
    fs.writeFileSync(conf, lines.join('\n') + '\n');
    matched = [false, true].map((compat) => {
      const r = configtest(conf, ['-D', 'DUMP_CONFIG', ...(compat ? ['-D', 'COMPAT'] : [])]);
      expect(r.ok).toBe(true);
      const set = new Set(SPELLINGS.filter((_, i) => new RegExp(`spelling-${i}@`).test(r.output)));
      return { compat, set };
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each(SPELLINGS)('<IfModule %s>', (spelling) => {
    const model = ifModuleOutcome([spelling]);
    for (const { compat, set } of matched) {
      const httpd = set.has(spelling);
      // decided tests hold whatever the server loads; mod_access_compat's follows whether it is loaded
      const expected = model.on24 ?? (compat !== spelling.startsWith('!'));
      expect({ spelling, compat, httpd }).toEqual({ spelling, compat, httpd: expected });
    }
  });

  test('the bare and misspelled names really are decided false by the model (the table above is not vacuous)', () => {
    expect(['mod_access_compat', 'mod_version', 'MOD_ACCESS_COMPAT.C', 'mod_access.c'].map((s) => ifModuleOutcome([s]).on24)).toEqual([false, false, false, false]);
    expect(ifModuleOutcome(['mod_access_compat.c']).on24).toBeNull();
    expect(matched[1].set.has('mod_access_compat.c')).toBe(true);
    expect(matched[0].set.has('mod_access_compat.c')).toBe(false);
  });

  test('mod_version is compiled into this httpd, and --httpd reports it', () => {
    const l = spawnSync(APACHE2, ['-l'], { encoding: 'utf8' }).stdout;
    expect(l).toMatch(/^\s*mod_version\.c$/m);
    expect(probeHttpd(APACHE2).builtins.has('version')).toBe(true);
  });
});

// ------------------------------------------------------------------ 2. corpus files served

interface Tree {
  readonly dir: string;
  /** The copied corpus file the CLI migrates. */
  readonly target: string;
  /** The main config's text, given the migrated (or original) corpus file on disk and whether compat is loaded. */
  mainConfig(port: number, compat: boolean): string;
  /** Files that must stay executable (CGI scripts). */
  readonly executables?: readonly string[];
}

interface Served {
  readonly status: number | string;
  readonly body: string;
}

async function serve(tree: Tree, compat: boolean, paths: readonly string[]): Promise<Record<string, Served>> {
  const port = await freePort();
  const conf = path.join(tree.dir, 'run', `httpd-${compat ? 'compat' : 'plain'}.conf`);
  writeTreeFile(conf, tree.mainConfig(port, compat));
  makeWorldReadable(tree.dir);
  for (const file of tree.executables ?? []) fs.chmodSync(file, 0o755);
  const server = await startTracked(conf, port, path.join(tree.dir, 'run'));
  try {
    const out: Record<string, Served> = {};
    for (const p of paths) {
      const a = await fetchFrom(port, p, '127.0.0.1');
      out[p] = { status: a.status, body: a.body };
    }
    return out;
  } finally {
    await server.stop();
  }
}

const statuses = (answers: Record<string, Served>) => Object.fromEntries(Object.entries(answers).map(([p, a]) => [p, a.status]));

/** The modules the config loads, as httpd reports them (`-D DUMP_MODULES`). */
function loadedModules(tree: Tree, compat: boolean): string {
  const conf = path.join(tree.dir, 'run', 'modules-check.conf');
  writeTreeFile(conf, tree.mainConfig(1, compat));
  const r = configtest(conf, ['-D', 'DUMP_MODULES']);
  expect(r.ok).toBe(true);
  return r.output;
}

function mainLines(run: string, port: number, modules: readonly string[], compat: boolean, body: readonly string[]): string {
  return [baseConfig(run, port, modules).trimEnd(), ...(compat ? [COMPAT_LINE] : []), ...body, ''].join('\n');
}

/** A docroot with one `.htaccess` (at `htaccessDir`), AllowOverride All, and `files` in it. */
function htaccessTree(name: string, htaccessRel: string, source: string, files: Record<string, string>): Tree {
  const dir = tempDir(`codemod-dual-${name}-`);
  const docroot = path.join(dir, 'htdocs');
  const target = path.join(docroot, htaccessRel);
  writeTreeFile(target, source);
  for (const [rel, text] of Object.entries(files)) writeTreeFile(path.join(docroot, rel), text);
  return {
    dir,
    target,
    mainConfig: (port, compat) =>
      mainLines(path.join(dir, 'run'), port, ['authz_host', 'dir'], compat, [
        `DocumentRoot "${docroot}"`,
        'DirectoryIndex index.html',
        '<Directory />',
        '    AllowOverride None',
        '    Require all denied',
        '</Directory>',
        `<Directory "${docroot}">`,
        '    AllowOverride All',
        '    Require all granted',
        '</Directory>',
      ]),
  };
}

/** OTRS's include, its /opt/otrs paths moved into the temporary tree, under a main config that denies everything else. */
function otrsTree(source: string): Tree {
  const dir = tempDir('codemod-dual-otrs-');
  const otrs = path.join(dir, 'opt', 'otrs');
  const target = path.join(dir, 'conf', 'otrs.conf');
  writeTreeFile(target, source.split('/opt/otrs').join(otrs));
  const script = path.join(otrs, 'bin', 'cgi-bin', 'index.pl');
  writeTreeFile(script, '#!/bin/sh\nprintf "Content-Type: text/plain\\n\\ncgi ok\\n"\n');
  writeTreeFile(path.join(otrs, 'var', 'httpd', 'htdocs', 'skins', 'Agent', 'default', 'css', 'Core.Default.css'), 'body {}\n');
  writeTreeFile(path.join(dir, 'htdocs', 'elsewhere.txt'), 'not for you\n');
  return {
    dir,
    target,
    executables: [script],
    mainConfig: (port, compat) =>
      mainLines(path.join(dir, 'run'), port, ['authz_host', 'alias', 'cgi', 'mime'], compat, [
        `DocumentRoot "${dir}/htdocs"`,
        'TypesConfig /dev/null',
        '<Directory />',
        '    AllowOverride None',
        '    Require all denied',
        '</Directory>',
        `Include "${target}"`,
      ]),
  };
}

interface CorpusCase {
  readonly name: string;
  readonly corpus: string;
  readonly tree: (source: string) => Tree;
  /** What the block's 2.4 branch means, per path. */
  readonly intent: Record<string, number>;
  /** Whether the migration leaves the file's access lines as they are. */
  readonly accessUntouched: boolean;
}

const BUGZILLA_FILES = {
  'index.html': 'bugzilla\n',
  'Bugzilla.pm': 'package Bugzilla;\n',
  'checksetup.pl': '#!/usr/bin/perl\n',
  'localconfig': "$db_pass = 'secret';\n",
  'global.tmpl': '[% x %]\n',
  'skins/standard/global.css': 'body {}\n',
};

const CASES: CorpusCase[] = [
  {
    name: 'Bugzilla .htaccess (mod_version + IfVersion pair + !mod_version fallback)',
    corpus: 'htaccess/bugzilla__bugzilla__release-4.4.14__.htaccess',
    tree: (source) => htaccessTree('bugzilla', '.htaccess', source, BUGZILLA_FILES),
    intent: {
      '/': 200,
      '/index.html': 200,
      '/skins/standard/global.css': 200,
      '/Bugzilla.pm': 403,
      '/checksetup.pl': 403,
      '/localconfig': 403,
      '/global.tmpl': 403,
    },
    accessUntouched: true,
  },
  {
    name: 'Matomo core/.htaccess (mod_access.c, bare mod_access_compat, mod_authz_host.c)',
    corpus: 'htaccess/matomo-org__matomo__core__.htaccess',
    tree: (source) =>
      htaccessTree('matomo', 'core/.htaccess', source, {
        'index.html': 'matomo\n',
        'core/Piwik.php': '<?php\n',
        'core/Tracker/Request.php': '<?php\n',
        'core/index.html': 'core\n',
      }),
    intent: { '/': 200, '/index.html': 200, '/core/': 403, '/core/index.html': 403, '/core/Piwik.php': 403, '/core/Tracker/Request.php': 403 },
    accessUntouched: false,
  },
  {
    name: 'OTRS include (Directory and Location with the mod_version idiom)',
    corpus: 'apps/OTRS__otrs__scripts__apache2-httpd.include.conf',
    tree: otrsTree,
    intent: { '/otrs/index.pl': 200, '/otrs-web/skins/Agent/default/css/Core.Default.css': 200, '/elsewhere.txt': 403 },
    accessUntouched: true,
  },
];

const ACCESS_LINE = /^\s*(<\/?IfModule|<\/?IfVersion|Order|Allow|Deny|Satisfy|Require)\b/i;
const accessLines = (text: string) => text.split('\n').filter((l) => ACCESS_LINE.test(l));

describe.each(CASES)('$name', ({ corpus: rel, tree: makeTree, intent, accessUntouched }) => {
  const source = corpus(rel);
  const paths = Object.keys(intent);
  let migratedTree: Tree;
  let originalTree: Tree;
  let report: { servers: { modules: { module: string }[]; findings: { code: string; severity: string }[] }[] };
  let migratedText = '';

  beforeAll(() => {
    migratedTree = makeTree(source);
    originalTree = makeTree(source);
    const dry = codemod(migratedTree.dir, '--format', 'json', migratedTree.target);
    expect(dry.status === 0 || dry.status === 1).toBe(true);
    report = JSON.parse(dry.stdout);
    const written = codemod(migratedTree.dir, '--write', migratedTree.target);
    expect({ status: written.status, stderr: written.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    migratedText = fs.readFileSync(migratedTree.target).toString('latin1');
  });

  afterAll(() => {
    for (const t of [migratedTree, originalTree]) if (t) fs.rmSync(t.dir, { recursive: true, force: true });
  });

  test('the CLI reports the block, keeps nothing on compat and plans no mod_access_compat', () => {
    const findings = report.servers.flatMap((s) => s.findings);
    expect(findings.map((f) => f.code)).toContain('access-dual-version');
    expect(findings.filter((f) => /^access-(kept|compat-hazard)$/.test(f.code))).toEqual([]);
    expect(report.servers.flatMap((s) => s.modules).map((m) => m.module)).not.toContain('access_compat');
    if (accessUntouched) expect(accessLines(migratedText)).toEqual(accessLines(source));
    else expect(migratedText).not.toBe(source);
  });

  test('the migrated config loads no mod_access_compat (DUMP_MODULES)', () => {
    expect(loadedModules(migratedTree, false)).not.toMatch(/access_compat_module/);
    expect(loadedModules(originalTree, true)).toMatch(/access_compat_module/);
  });

  test('migrated, without compat: the 2.4 branch\'s intent, and what the unmigrated block answers on 2.4 with compat', async () => {
    const migrated = await serve(migratedTree, false, paths);
    const baseline = await serve(originalTree, true, paths);
    expect(statuses(baseline)).toEqual(intent);
    expect(statuses(migrated)).toEqual(intent);
    for (const p of paths) if (intent[p] === 200) expect(migrated[p].body).toBe(baseline[p].body);
  });
});

describe('negative controls: the old branches fail on 2.4 without mod_access_compat', () => {
  const forceOldBranch = (text: string) => text.split('mod_version.c').join('mod_codemod_absent.c');

  test('Matomo\'s core/.htaccess unmigrated: 500 in core/, 200 elsewhere', async () => {
    const tree = CASES[1].tree(corpus(CASES[1].corpus));
    try {
      const answers = statuses(await serve(tree, false, ['/index.html', '/core/Piwik.php', '/core/']));
      expect(answers).toEqual({ '/index.html': 200, '/core/Piwik.php': 500, '/core/': 500 });
    } finally {
      fs.rmSync(tree.dir, { recursive: true, force: true });
    }
  });

  test('Bugzilla\'s .htaccess on a server where no module answers its mod_version test: 500 everywhere', async () => {
    const tree = CASES[0].tree(forceOldBranch(corpus(CASES[0].corpus)));
    try {
      const answers = statuses(await serve(tree, false, ['/index.html', '/Bugzilla.pm']));
      expect(answers).toEqual({ '/index.html': 500, '/Bugzilla.pm': 500 });
      // with compat, the old branch works: the failure is the missing module, not the text
      expect(statuses(await serve(tree, true, ['/index.html', '/Bugzilla.pm']))).toEqual({ '/index.html': 200, '/Bugzilla.pm': 403 });
    } finally {
      fs.rmSync(tree.dir, { recursive: true, force: true });
    }
  });

  test('OTRS\'s include on a server where no module answers its mod_version test: httpd refuses the config', () => {
    const tree = CASES[2].tree(forceOldBranch(corpus(CASES[2].corpus)));
    try {
      const conf = path.join(tree.dir, 'run', 'httpd.conf');
      writeTreeFile(conf, tree.mainConfig(1, false));
      const r = configtest(conf);
      expect(r.ok).toBe(false);
      expect(r.output).toMatch(/Invalid command 'Order'/);
      writeTreeFile(conf, tree.mainConfig(1, true));
      expect(configtest(conf).ok).toBe(true);
    } finally {
      fs.rmSync(tree.dir, { recursive: true, force: true });
    }
  });
});
