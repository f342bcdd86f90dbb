/**
 * Randomized end-to-end access differential against a real httpd 2.4 (support/access-fuzz.ts):
 * generated whole 2.2 servers migrated by the built CLI (`node dist/src/cli.js --write`) and
 * served without mod_access_compat; every sampled request must be answered as 2.2 meant (the tree
 * on 2.4 + compat; for mixed seeds the README's meaning), `apache2 -t` must pass and a second run
 * must change nothing.
 *
 * - a fixed set of seeds (bounded: about a minute here);
 * - the fuzzer's findings, shrunk by hand, as repros;
 * - negative control: a migrated tree with its `Require ip` lines turned into `Require all
 *   granted` is reported as widened.
 *
 * ACCESS_FUZZ_SEEDS=FROM-TO runs those seeds instead of the fixed set (exploration; with
 * ACCESS_FUZZ_VERBOSE=1 every seed is described). A failing seed's trees are kept (its work path is printed).
 */
import * as fs from 'fs';
import * as path from 'path';
import { FuzzOutcome, FuzzSeed, cli, describeOutcome, generateSeed, handSeed, runSeed } from './support/access-fuzz';
import { stopLayoutServers } from './support/layout-differential';

jest.setTimeout(600000);
afterAll(() => stopLayoutServers());

const explore = /^(\d+)-(\d+)$/.exec(process.env.ACCESS_FUZZ_SEEDS ?? '');
const SEEDS = explore ? Array.from({ length: Number(explore[2]) - Number(explore[1]) + 1 }, (_, i) => Number(explore[1]) + i) : Array.from({ length: 24 }, (_, i) => i + 1);

const failed = (o: FuzzOutcome) => o.problems.length > 0 || o.mismatches.length > 0;

async function runAll(seeds: readonly FuzzSeed[]): Promise<FuzzOutcome[]> {
  const out: FuzzOutcome[] = [];
  for (const seed of seeds) {
    const o = await runSeed(seed);
    out.push(o);
    if (process.env.ACCESS_FUZZ_VERBOSE || failed(o)) process.stderr.write(`${describeOutcome(o)}\n${o.findings.join('\n')}\n`);
  }
  return out;
}

test(`generated servers (seeds ${SEEDS[0]}–${SEEDS[SEEDS.length - 1]}): every sampled request answered as on 2.2, configtest passes, second run changes nothing`, async () => {
  const outcomes = await runAll(SEEDS.map((n) => generateSeed(n)));
  expect(outcomes.filter(failed).map((o) => describeOutcome(o))).toEqual([]);
  if (!explore) {
    // the sample is not one answer: grants, 401 and 403 all occur across the seeds, pure and mixed seeds both run
    const all: Record<string, number> = {};
    for (const o of outcomes) for (const [k, v] of Object.entries(o.tally)) all[k] = (all[k] ?? 0) + v;
    expect(all['200']).toBeGreaterThan(500);
    expect(all['401']).toBeGreaterThan(200);
    expect(all['403']).toBeGreaterThan(500);
    expect(new Set(outcomes.map((o) => o.kind))).toEqual(new Set(['pure', 'mixed']));
  }
});

// ---------------------------------------------------------------- repros the fuzzer found

const DOCROOT = '<Directory "{{ROOT}}/htdocs">';

/**
 * Seeds 44, 61, 65, 100: a .htaccess with Order/Allow/Deny under an AllowOverride without Limit
 * (AuthConfig here). 2.2 refused the file: 500 for every request below it. Migrated to Require
 * (AuthConfig class) the file became valid: `Allow from all` opened a directory the main config
 * denies (widened), `Deny from all` answered 403 instead of 500.
 */
const REFUSED_LIMIT: FuzzSeed = handSeed(
  9001,
  [DOCROOT, '    AllowOverride AuthConfig', '    Order deny,allow', '    Deny from all', '</Directory>', '<Directory "{{ROOT}}/htdocs/b">', '    Order allow,deny', '    Allow from all', '</Directory>'],
  { 'htdocs/a/.htaccess': 'Order allow,deny\nAllow from all\n', 'htdocs/b/.htaccess': 'Order deny,allow\nDeny from all\nAllow from 127.0.0.5\n' },
  ['/a/', '/a/f.txt', '/b/', '/b/x/f.txt', '/'],
);

/**
 * Seed 222: a 2.2 server without any access line (it loads mod_authz_host and the auth modules,
 * but nothing uses them). The migration loaded the MPM but not mod_authz_core, and 2.4 without it
 * answers 500 to every request (AH00025 "couldn't check user"); 2.2 served everything.
 */
const NO_ACCESS_LINES: FuzzSeed = handSeed(9002, ['<Directory "{{ROOT}}/htdocs/a">', '    Options None', '</Directory>'], {}, ['/', '/a/f.txt']);

/**
 * Seed 457 (widened): a <Files> inside <Directory htdocs/a/b> written before a <Files> inside
 * <Directory htdocs/a>. httpd merges a directory's <Files> after its parent's, whatever the text
 * order, so the inner one inherits the outer one's `Require user alice`; the migration took config
 * order, computed the inner one alone (`Require all granted`) and let everyone read /a/b/f.txt.
 */
const NESTED_FILES_ORDER: FuzzSeed = handSeed(
  9400,
  [
    '<Directory "{{ROOT}}/htdocs/a/b">', '    <Files "f.txt">', '        Order allow,deny', '        Allow from all', '    </Files>', '</Directory>',
    '<Directory "{{ROOT}}/htdocs/a">', '    <Files "f.txt">', '        AuthType Basic', '        AuthName "x"', '        AuthUserFile "{{ROOT}}/conf/users"', '        Require user alice', '    </Files>', '</Directory>',
  ],
  {},
  ['/a/b/f.txt', '/a/f.txt', '/a/b/'],
);

test('repro: <Files> in a subdirectory written before <Files> in its parent inherits the parent\'s Require (2.2: 401, was 200)', async () => {
  const [o] = await runAll([NESTED_FILES_ORDER]);
  expect(describeOutcome(o)).toBe(describeOutcome({ ...o, mismatches: [], problems: [] }));
  expect(o.tally).toEqual({ '200': 48, '401': 48 });
});

/**
 * Seeds 333 and 337, shrunk: a .htaccess <Files> with its own Require, below a server-level
 * <FilesMatch> whose host rules let everyone in and a <Directory /> that denies. httpd merges the
 * sections one walk matched among themselves first: with AuthMerging And on the <Files>, the
 * <FilesMatch> took it on and was ANDed with <Directory />'s denial (403 for alice, 2.2: 200). No
 * AuthMerging And where an earlier section of the same walk may come before.
 */
const SAME_WALK_AND: FuzzSeed = handSeed(
  9600,
  ['<Directory />', '    AllowOverride AuthConfig', '    Order deny,allow', '    Deny from all', '</Directory>', '<FilesMatch "\\.txt$">', '    Order deny,allow', '    Allow from 127.1', '</FilesMatch>'],
  { 'htdocs/.htaccess': '<Files "f.txt">\n    AuthType Basic\n    AuthName "x"\n    AuthUserFile "{{ROOT}}/conf/users"\n    Require user alice\n</Files>\n' },
  ['/f.txt', '/a/f.txt', '/'],
);

test('repro (seeds 333, 337): no AuthMerging And on a <Files> that an earlier <FilesMatch> of the same walk may precede (2.2: 200, was 403)', async () => {
  const [o] = await runAll([SAME_WALK_AND]);
  expect(describeOutcome(o)).toBe(describeOutcome({ ...o, mismatches: [], problems: [] }));
  expect(o.tally['200']).toBeGreaterThan(0);
  expect(o.findings.filter((f) => f.includes('AuthMerging And'))).toEqual([]);
});

test('repro: Order/Allow/Deny in .htaccess under AllowOverride AuthConfig (2.2: 500)', async () => {
  const [o] = await runAll([REFUSED_LIMIT]);
  expect(describeOutcome(o)).toBe(describeOutcome({ ...o, mismatches: [], problems: [] }));
  expect(o.tally['500']).toBeGreaterThan(0);
  expect(o.findings.filter((f) => f.includes('htaccess-refused-on-22')).length).toBe(2);
});

test('repro: a 2.2 server with no access lines still gets mod_authz_core (else 500 everywhere)', async () => {
  const [o] = await runAll([NO_ACCESS_LINES]);
  expect(describeOutcome(o)).toBe(describeOutcome({ ...o, mismatches: [], problems: [] }));
  expect(o.tally).toEqual({ '200': NO_ACCESS_LINES.requests.length });
});

// ---------------------------------------------------------------- known gaps (found, not fixed: they belong to the access planner)

/**
 * Seed 280, shrunk: the migration answers as the README's meaning says (old vhost <FilesMatch>
 * replaces the main server's 2.4 one: 127.0.0.1 gets f.txt), but httpd 2.4 + compat answers 403
 * there today. The witness search for access-mixed-differs gave up on this scope: with the
 * unrelated .htaccess and the old <Limit> block in <Directory htdocs/b>, six sections may or may
 * not apply, one more than planning enumerates; answer-change.ts now enumerates up to eight.
 */
const GAP_280 = [
  '<Directory "{{ROOT}}/htdocs/b">', '    <Limit POST PUT DELETE>', '        Order allow,deny', '        Allow from all', '    </Limit>', '</Directory>',
  '<Directory "{{ROOT}}/htdocs/b">', '    Require all granted', '</Directory>',
  '<FilesMatch "^f">', '    Require ip 127.0.0.5', '</FilesMatch>',
  '<VirtualHost *>', '    ServerName one.test', '    DocumentRoot "{{ROOT}}/vh1"',
  '    <FilesMatch "\\.txt$">', '        Order allow,deny', '        Allow from 127.0.0.1 127.0.0.0/16', '    </FilesMatch>', '</VirtualHost>',
];
const MIXED_DIFFERS_GAP: FuzzSeed = handSeed(
  9280,
  GAP_280,
  { 'htdocs/a/b/.htaccess': 'Order deny,allow\nAllow from 127.0.0.0/16\n' },
  ['/f.txt'],
  {
    mixed: true,
    hosts: ['one.test'],
    // the meaning: each 2.4 line as the 2.2 host rules that mean the same
    meaning: GAP_280.flatMap((l) =>
      l === '    Require all granted' ? ['    Order allow,deny', '    Allow from all'] : l === '    Require ip 127.0.0.5' ? ['    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.5'] : [l],
    ),
  },
);

test('repro: access-mixed-differs is reported for a vhost <FilesMatch> that six sections may precede (seed 280)', async () => {
  const o = await runSeed(MIXED_DIFFERS_GAP);
  fs.rmSync(o.work, { recursive: true, force: true });
  // the migration answers as the meaning says, and differs from today for 127.0.0.1 and 127.0.1.9 …
  expect(o.mismatches).toEqual([]);
  expect(o.todayDiffers).toBe(16);
  expect(o.todayExamples[0]).toBe('GET //one.test/f.txt from 127.0.0.1 as none: today 403, migrated 200');
  // … and the review finding says so, at the <FilesMatch>
  expect(o.findings.filter((f) => f.includes('access-mixed-differs'))).toEqual([expect.stringMatching(/^review access-mixed-differs conf\/httpd\.conf:\d+ .*<FilesMatch \\\.txt\$> from 127\.0\.0\.1/)]);
  expect(o.problems).toEqual([]);
});

/**
 * AuthType in a section no Require reaches (2.2 ignored it: mod_auth_basic only ran where a Require
 * applied), with no access line above it: 2.4 answers 500 (AH01627 "AuthType configured with no
 * corresponding authorization directives"), with or without compat, so the compat baseline cannot
 * show it; the expected side here is the 2.2 meaning written out (the authentication only where the
 * Require is). Such a section now gets `Require all granted` (access-authtype-granted); before, every
 * request outside /a/ answered 500.
 */
const AUTHTYPE_WITHOUT_REQUIRE: FuzzSeed = handSeed(
  9300,
  [DOCROOT, '    AuthType Basic', '    AuthName "x"', '    AuthUserFile "{{ROOT}}/conf/users"', '</Directory>', '<Directory "{{ROOT}}/htdocs/a">', '    Require valid-user', '</Directory>'],
  {},
  ['/', '/f.txt', '/a/'],
  { meaning: ['<Directory "{{ROOT}}/htdocs/a">', '    AuthType Basic', '    AuthName "x"', '    AuthUserFile "{{ROOT}}/conf/users"', '    Require valid-user', '</Directory>'] },
);

test('repro: AuthType without any Require in reach gets Require all granted (2.2: 200, was 500)', async () => {
  const o = await runSeed(AUTHTYPE_WITHOUT_REQUIRE);
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(o.tally).toEqual({ '200': 80, '401': 16 });
  expect(o.problems).toEqual([]);
  // every request outside /a/ (64) answered 500 before: now each is answered as on 2.2
  expect(o.mismatches).toEqual([]);
  expect(o.findings.filter((f) => f.includes('access-authtype-granted'))).toEqual([expect.stringMatching(/^info access-authtype-granted conf\/httpd\.conf:\d+ AuthType Basic/)]);
});

/**
 * Seed 500, shrunk: the <Files> may or may not inherit the <DirectoryMatch>'s host rules. Both used
 * to be kept on compat, the <DirectoryMatch> with a pinned `Require all granted`, which a second
 * run read as a mixed section and migrated (not idempotent). The <Files> now gets AuthMerging And.
 * The same shape with `Satisfy Any` (KEPT_PIN_RERUN_ANY) cannot be carried that way and still is.
 */
const KEPT_PIN_RERUN: FuzzSeed = handSeed(
  9501,
  [
    '<Directory "{{ROOT}}/htdocs/a/x">', '    <Files "*.php">', '        AuthType Basic', '        AuthName "x"', '        AuthUserFile "{{ROOT}}/conf/users"', '        Require user alice', '    </Files>', '</Directory>',
    '<VirtualHost *>', '    <DirectoryMatch "/a/(b|x)$">', '        Deny from 127.0.0.0/16', '    </DirectoryMatch>', '</VirtualHost>',
  ],
  { 'vh1/.htaccess': 'Order deny,allow\nAllow from 127.0.0\n' },
  ['/'],
);

const KEPT_PIN_RERUN_ANY: FuzzSeed = handSeed(
  9502,
  [
    '<Directory "{{ROOT}}/htdocs/a/x">', '    <Files "*.php">', '        AuthType Basic', '        AuthName "x"', '        AuthUserFile "{{ROOT}}/conf/users"', '        Require user alice', '        Satisfy Any', '    </Files>', '</Directory>',
    '<VirtualHost *>', '    <DirectoryMatch "/a/(b|x)$">', '        Deny from 127.0.0.0/16', '    </DirectoryMatch>', '</VirtualHost>',
  ],
  { 'vh1/.htaccess': 'Order deny,allow\nAllow from 127.0.0\n' },
  ['/'],
);

test('repro (seed 9502, fixed by the kept mark): a kept section whose Satisfy Any resets its host rules on compat stays kept on a second run, with its finding', async () => {
  // the first run keeps the <Files> (manual: access-kept + access-compat-hazard) and migrates the sections above it;
  // the second run used to read the kept <Files> below 2.4-style sections and migrate it by the boundary rule
  const o = await runSeed(KEPT_PIN_RERUN_ANY, { keep: true });
  expect(o.mismatches).toEqual([]);
  expect(o.findings.filter((f) => /^manual (access-kept|access-compat-hazard) conf\/httpd.conf:21 /.test(f)).length).toBe(2);
  expect(o.problems).toEqual([]);
  const second = cli(['.'], path.join(o.work, 'mig', 'tree'));
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(second.status).toBe(1); // nothing to change, a manual finding left
  expect(second.stdout).toBe('');
  expect(second.stderr).toMatch(/httpd\.conf:\d+: manual \[access-kept\] .*an earlier run kept them/);
});

/** Runs a seed with `text` replaced by `replacement` in the migrated conf/httpd.conf; fails when the text is not there. */
async function runWithout(seed: FuzzSeed, text: string, replacement: string): Promise<FuzzOutcome> {
  let found = false;
  const o = await runSeed(seed, {
    tamper: (tree) => {
      const conf = path.join(tree, 'conf/httpd.conf');
      const migrated = fs.readFileSync(conf, 'utf8');
      found = migrated.includes(text);
      fs.writeFileSync(conf, migrated.replace(text, replacement));
    },
  });
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(found).toBe(true);
  return o;
}

/**
 * A section kept for its own reasons (Require under <IfDefine>) that sets only `Satisfy Any`: 2.2 kept
 * the host rules it inherited (mod_authz_host's section, apart from core's Satisfy), 2.4 + compat
 * resets them to "everyone passes" (the old config on compat answers 200 to everyone in /a/). Its
 * host rules come from the same section on every request, so a copy of them is written into the
 * kept section (access-kept-pinned) and no access-compat-hazard is left. The expected side is the
 * 2.2 meaning: the same lines written out by hand.
 */
const SATISFY_ONLY_LINES = [
  DOCROOT, '    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.5', '    AuthType Basic', '    AuthName "x"', '    AuthUserFile "{{ROOT}}/conf/users"', '    Require valid-user', '</Directory>',
  '<Directory "{{ROOT}}/htdocs/a">', '    Satisfy Any', '    <IfDefine STRICT>', '        Require user alice', '    </IfDefine>', '</Directory>',
];
const SATISFY_ONLY_KEPT: FuzzSeed = handSeed(9503, SATISFY_ONLY_LINES, {}, ['/f.txt', '/a/f.txt'], {
  meaning: SATISFY_ONLY_LINES.flatMap((l) => (l === '    Satisfy Any' ? ['    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.5', l] : [l])),
});
const PINNED_HOSTS = '    Order deny,allow\n    Deny from all\n    Allow from 127.0.0.5\n    Satisfy Any\n';

test('repro: a kept section with only Satisfy Any gets a copy of the host rules it inherited, and answers as 2.2 (compat alone lets everyone in)', async () => {
  const o = await runSeed(SATISFY_ONLY_KEPT);
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(o.tally).toEqual({ '200': 24, '401': 16, '403': 24 });
  expect(o.mismatches).toEqual([]);
  expect(o.problems).toEqual([]);
  expect(o.findings.filter((f) => f.includes('access-kept-pinned'))).toEqual([expect.stringMatching(/^review access-kept-pinned conf\/httpd\.conf:\d+ this kept section sets Satisfy without Order\/Allow\/Deny: 2\.2 kept/)]);
  expect(o.findings.filter((f) => f.includes('access-compat-hazard'))).toEqual([]);
});

test('negative control: without the copied host rules the kept section lets everyone into /a/ (widened)', async () => {
  const o = await runWithout(SATISFY_ONLY_KEPT, PINNED_HOSTS, '    Satisfy Any\n');
  expect(o.mismatches.length).toBe(12);
  expect(o.mismatches.every((m) => m.verdict === 'widened' && m.request.includes('/a/f.txt'))).toBe(true);
});

/**
 * The other half: a kept section with its own Order/Allow/Deny and no Satisfy, below a `Satisfy Any`.
 * 2.2 kept the inherited Satisfy Any (core merges it per method), compat resets it to All (the old
 * config on compat asks 127.0.1.9 for a password, and refuses valid users elsewhere). A copy of the
 * Satisfy line is written into the kept section.
 */
const ORDER_ONLY_LINES = [
  DOCROOT, '    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.5', '    AuthType Basic', '    AuthName "x"', '    AuthUserFile "{{ROOT}}/conf/users"', '    Require valid-user', '    Satisfy Any', '</Directory>',
  '<Directory "{{ROOT}}/htdocs/a">', '    Order deny,allow', '    Deny from all', '    Allow from 127.0.1.9', '    <IfDefine STRICT>', '        Require user alice', '    </IfDefine>', '</Directory>',
];
const ORDER_ONLY_KEPT: FuzzSeed = handSeed(9504, ORDER_ONLY_LINES, {}, ['/f.txt', '/a/f.txt'], {
  meaning: ORDER_ONLY_LINES.flatMap((l) => (l === '    Allow from 127.0.1.9' ? [l, '    Satisfy Any'] : [l])),
});
const PINNED_SATISFY = '    Satisfy Any\n    Order deny,allow\n    Deny from all\n    Allow from 127.0.1.9\n';

test('repro: a kept section with only Order/Allow/Deny gets a copy of the Satisfy Any it inherited, and answers as 2.2 (compat alone resets it to All)', async () => {
  const o = await runSeed(ORDER_ONLY_KEPT);
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(o.tally).toEqual({ '200': 40, '401': 24 });
  expect(o.mismatches).toEqual([]);
  expect(o.problems).toEqual([]);
  expect(o.findings.filter((f) => f.includes('access-kept-pinned'))).toEqual([expect.stringMatching(/^review access-kept-pinned conf\/httpd\.conf:\d+ this kept section sets Order\/Allow\/Deny without Satisfy: 2\.2 kept/)]);
  expect(o.findings.filter((f) => f.includes('access-compat-hazard'))).toEqual([]);
});

test('negative control: without the copied Satisfy the kept section answers /a/ as compat does (narrowed)', async () => {
  const o = await runWithout(ORDER_ONLY_KEPT, PINNED_SATISFY, PINNED_SATISFY.replace('    Satisfy Any\n', ''));
  expect(o.mismatches.filter((m) => m.verdict === 'narrowed').length).toBeGreaterThan(0);
  expect(o.mismatches.every((m) => m.request.includes('/a/f.txt') && m.verdict !== 'widened')).toBe(true);
});

test('repro (seed 500, fixed by AuthMerging And): a <Files> with its own Require and host rules from a <DirectoryMatch> that applies to some requests migrates, and a second run changes nothing', async () => {
  // it used to stay on compat with a pinned `Require all granted` in the DirectoryMatch, which a second run then migrated
  const o = await runSeed(KEPT_PIN_RERUN);
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(o.mismatches).toEqual([]);
  expect(o.problems).toEqual([]);
  expect(o.findings.filter((f) => /access-kept/.test(f))).toEqual([]);
  expect(o.findings.filter((f) => /access-migrated conf\/httpd.conf:\d+ .*Require user alice.*AuthMerging And/.test(f)).length).toBe(1);
});

// ---------------------------------------------------------------- negative control

test('negative control: a migrated Require ip turned into Require all granted is reported as widened', async () => {
  const seed = handSeed(
    9100,
    [DOCROOT, '    Order deny,allow', '    Deny from all', '    Allow from 127.0.0.5 127.0.1.0/24', '</Directory>'],
    {},
    ['/', '/a/f.txt'],
  );
  const planted: string[] = [];
  const o = await runSeed(seed, {
    tamper: (tree) => {
      const conf = path.join(tree, 'conf/httpd.conf');
      const text = fs.readFileSync(conf, 'latin1');
      const out = text.replace(/^(\s*)Require ip .*$/gm, (m, indent: string) => (planted.push(m.trim()), `${indent}Require all granted`));
      fs.writeFileSync(conf, out);
    },
  });
  fs.rmSync(o.work, { recursive: true, force: true });
  expect(planted).toEqual(['Require ip 127.0.0.5 127.0.1.0/24']);
  expect(o.problems).toEqual([]);
  const widened = o.mismatches.filter((m) => m.verdict === 'widened');
  expect(widened.length).toBeGreaterThan(0);
  expect(o.mismatches.every((m) => m.verdict === 'widened' && m.expected === 403 && /from 127\.(0\.0\.1|1\.2\.3) /.test(m.request))).toBe(true);
});
