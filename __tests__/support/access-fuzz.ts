/**
 * Randomized end-to-end access differential (issue 8 hardening): seeded generator of small whole
 * 2.2 servers, and the oracle that serves them on a real httpd 2.4.
 *
 * A seed is a server tree (conf/httpd.conf, content directories, .htaccess files) written for 2.2:
 * `<Directory>` (nested, globs), `<DirectoryMatch>`, `<Location>`, `<LocationMatch>`, `<Files>`,
 * `<FilesMatch>`, `<Limit>`/`<LimitExcept>`, name-based virtual hosts, an Alias, .htaccess files
 * under every AllowOverride variant (and unset), Order/Allow/Deny (all, ip, partial ip, CIDR,
 * netmask, env=), Satisfy, Basic authentication with valid-user / user / group.
 *
 * Two kinds of seed:
 * - `pure`: 2.2 syntax only. The 2.2 answer is the tree itself on 2.4 + mod_access_compat. The
 *   generator stays out of the places where compat is measured to differ from 2.2
 *   (docs/research/access-measurements.md, "Surprises"): either no `Satisfy` at all, or every
 *   section with host rules states its `Order` and `Satisfy` (compat keeps Satisfy in its record),
 *   `Satisfy Any` only beside a Require of the same section, never a Require only inside `<Limit>`
 *   then; `AuthType` only beside a Require; never `Require user` and `Require group` in one
 *   section (2.2's authoritative mod_authz_user); no `env=!`, no host names.
 * - `mixed`: some sections already in 2.4 syntax (`Require all granted|denied`, `Require ip`,
 *   `<RequireAll>` + `Require not ip`), no authentication. The README's meaning (across the syntax
 *   boundary the nearer section replaces) is then the same tree with those sections written as the
 *   2.2 host rules that mean the same (`meaning`), on compat. The mixed tree itself on compat is
 *   what httpd answers today (`today`): where the migration differs from it, `access-mixed-differs`
 *   must be reported.
 *
 * The migrated side is the built CLI (`node dist/src/cli.js --write`) run on a copy, served WITHOUT
 * mod_access_compat (the tree loads it itself where the tool kept old lines), after `apache2 -t`;
 * a second run must change nothing (`--check` exit 0).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CredentialName, RequestSpec, Status, describeRequest, htpasswdText, pool, send } from './access-differential';
import { APACHE2, configtest, freePorts, serverHead22 } from './httpd';
import { fill, makeReadable, serveWrapped, writeFiles, writeWrapper } from './layout-differential';
import { REPO, workDir } from './whole-server';

// ---------------------------------------------------------------- seeded choices

/** mulberry32: a small deterministic PRNG. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  some<T>(xs: readonly T[], min: number, max: number): T[] {
    const n = min + this.int(max - min + 1);
    const pool = [...xs];
    const out: T[] = [];
    while (out.length < n && pool.length > 0) out.push(pool.splice(this.int(pool.length), 1)[0]);
    return out;
  }
}

// ---------------------------------------------------------------- the world

/** Source addresses the requests come from, chosen inside and outside the address terms below. */
export const FUZZ_ADDRESSES = ['127.0.0.1', '127.0.0.5', '127.0.1.9', '127.1.2.3'] as const;
export const FUZZ_CREDENTIALS: readonly CredentialName[] = ['none', 'alice', 'bob', 'alice-bad'];
export const FUZZ_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

const ADDRESS_TERMS = ['127.0.0.1', '127.0.0.5', '127.0.0', '127.0.0.', '127.0.1.9/32', '127.0.1.0/24', '127.0.0.0/255.255.255.0', '127.1', '127.0.0.0/16', '10.1.2.3'];
const ALLOW_TERMS = [...ADDRESS_TERMS, 'all', 'all', 'env=trigger'];
const REQUIRES = ['valid-user', 'user alice', 'user bob', 'user alice bob', 'group admins'];
const OVERRIDES = ['None', 'Limit', 'AuthConfig', 'AuthConfig Limit', 'All', 'Limit AuthConfig Indexes'];

/** Content directories below ROOT, the URL they are reached by from the main docroot (htdocs) or an Alias/vhost. */
const HTDOCS_DIRS = ['a', 'a/b', 'a/x', 'b', 'b/x'];
const OTHER_DIRS = ['', 'sub'];
const VH1_DIRS = ['', 'a', 'a/x'];
const FILES = ['', 'f.txt', 'p.php', 's.cgi', 'index.html'];

export type SeedKind = 'pure' | 'mixed';

export interface FuzzSeed {
  readonly seed: number;
  readonly kind: SeedKind;
  /** The tree the tool migrates: relative path → text, `{{ROOT}}` = the tree's directory. */
  readonly original: Record<string, string>;
  /** The tree whose answers on compat are the expected ones (pure: = original). */
  readonly meaning: Record<string, string>;
  /** Host headers the probes use ('' = none: the default server). */
  readonly hosts: readonly string[];
  readonly requests: RequestSpec[];
}

interface Knobs {
  readonly kind: SeedKind;
  /** pure seeds: Satisfy is either never written or written in every section with host rules. */
  readonly satisfy: 'never' | 'explicit';
  readonly auth: boolean;
}

interface Block {
  /** The lines as the seed writes them. */
  readonly lines: string[];
  /** The same rules in 2.2 syntax (mixed seeds: 2.4 blocks written as 2.2 host rules). */
  readonly meaning: string[];
}

const AUTH_LINES = ['AuthType Basic', 'AuthName "fuzz"', 'AuthUserFile "{{ROOT}}/conf/users"', 'AuthGroupFile "{{ROOT}}/conf/groups"'];

/** A 2.2 host-rule + authentication block under the seed's knobs, or a 2.4 block in a mixed seed. */
function accessBlock(r: Rng, k: Knobs, where: 'section' | 'htaccess'): Block {
  if (k.kind === 'mixed' && where === 'section' && r.chance(0.45)) return newStyleBlock(r);
  const lines: string[] = [];
  const host: string[] = [];
  const explicit = k.satisfy === 'explicit';
  const withHost = explicit ? r.chance(0.8) : r.chance(0.75);
  const withAuth = k.auth && r.chance(0.4);
  if (withHost) {
    const order = r.pick(['allow,deny', 'deny,allow', 'deny,allow', 'allow,deny', explicit ? 'deny,allow' : '', 'mutual-failure']);
    if (order) host.push(`Order ${order}`);
    else if (r.chance(0.5)) host.push('Order Deny,Allow');
    const allows = r.int(3);
    const denies = r.int(3);
    for (let i = 0; i < allows; i++) host.push(`Allow from ${r.some(ALLOW_TERMS, 1, 2).join(' ')}`);
    for (let i = 0; i < denies; i++) host.push(`Deny from ${r.some(ALLOW_TERMS, 1, 2).join(' ')}`);
    if (host.length === 0) host.push('Order allow,deny');
    if (!explicit && r.chance(0.25)) {
      const limit = r.pick(['Limit POST', 'Limit POST PUT DELETE', 'LimitExcept GET', 'Limit GET', 'LimitExcept GET POST']);
      // part of the rules (or none) outside the method section, the rest inside
      const outside = r.chance(0.4) ? host.slice(0, r.int(host.length)) : [];
      lines.push(...outside, `<${limit}>`, ...host.slice(outside.length).map((l) => `    ${l}`), `</${limit.split(' ')[0]}>`);
    } else lines.push(...host);
  }
  let hasRequire = false;
  if (withAuth) {
    lines.push(...AUTH_LINES);
    const req = r.pick(REQUIRES);
    if (!explicit && r.chance(0.2)) {
      const limit = r.pick(['Limit POST PUT', 'LimitExcept GET']);
      lines.push(`<${limit}>`, `    Require ${req}`, `</${limit.split(' ')[0]}>`);
      if (r.chance(0.5)) lines.push(`Require ${req === 'valid-user' ? 'user bob' : 'valid-user'}`);
    } else {
      lines.push(`Require ${req}`);
      if (req.startsWith('user') && r.chance(0.2)) lines.push('Require valid-user');
    }
    hasRequire = true;
  }
  if (explicit && withHost) lines.push(`Satisfy ${hasRequire && r.chance(0.6) ? 'Any' : 'All'}`);
  if (lines.length === 0) lines.push(...host);
  // directive names as people write them: sometimes in lower case
  const cased = r.chance(0.15) ? lines.map((l) => l.replace(/^(\s*<?\/?)(\w+)/, (_m, p: string, w: string) => p + w.toLowerCase())) : lines;
  return { lines: cased, meaning: cased };
}

/** A 2.4-style block and the 2.2 host rules that mean the same (no authentication in mixed seeds). */
function newStyleBlock(r: Rng): Block {
  const ip = () => r.some(ADDRESS_TERMS, 1, 2);
  switch (r.int(4)) {
    case 0:
      return { lines: ['Require all granted'], meaning: ['Order allow,deny', 'Allow from all'] };
    case 1:
      return { lines: ['Require all denied'], meaning: ['Order deny,allow', 'Deny from all'] };
    case 2: {
      const ips = ip();
      return { lines: [`Require ip ${ips.join(' ')}`], meaning: ['Order deny,allow', 'Deny from all', `Allow from ${ips.join(' ')}`] };
    }
    default: {
      const ips = ip();
      return {
        lines: ['<RequireAll>', '    Require all granted', `    Require not ip ${ips.join(' ')}`, '</RequireAll>'],
        meaning: ['Order allow,deny', 'Allow from all', `Deny from ${ips.join(' ')}`],
      };
    }
  }
}

interface Section {
  readonly open: string;
  readonly name: string;
  readonly body: Block[];
  readonly children: Section[];
}

function render(s: Section, side: 'lines' | 'meaning', indent: string): string[] {
  const inner = indent + '    ';
  return [
    `${indent}<${s.open}>`,
    ...s.body.flatMap((b) => b[side].map((l) => inner + l)),
    ...s.children.flatMap((c) => render(c, side, inner)),
    `${indent}</${s.name}>`,
  ];
}

const plain = (...lines: string[]): Block => ({ lines, meaning: lines });

/** A random section of the kinds that may stand at server or virtual-host level. */
function randomSection(r: Rng, k: Knobs, docroot: string, dirs: readonly string[]): Section {
  const block = accessBlock(r, k, 'section');
  const body: Block[] = [block];
  const kind = r.pick(['Directory', 'Directory', 'Directory', 'DirectoryMatch', 'Location', 'Location', 'LocationMatch', 'Files', 'FilesMatch']);
  const dir = r.pick(dirs);
  const children: Section[] = [];
  let open: string;
  switch (kind) {
    case 'Directory': {
      const glob = r.chance(0.15);
      open = glob ? `Directory "{{ROOT}}/${docroot}/*/x"` : `Directory "{{ROOT}}/${docroot}${dir ? `/${dir}` : ''}${r.chance(0.15) ? '/' : ''}"`;
      if (r.chance(0.4)) body.unshift(plain(`AllowOverride ${r.pick(OVERRIDES)}`));
      if (r.chance(0.2)) children.push({ open: `Files "${r.pick(['f.txt', '*.php', 'index.html'])}"`, name: 'Files', body: [accessBlock(r, k, 'section')], children: [] });
      break;
    }
    case 'DirectoryMatch': {
      const re = r.pick(['/a/(b|x)$', '/x$', '^/.*/b$', `/${docroot}/a`]);
      if (r.chance(0.3)) return { open: `Directory ~ "${re}"`, name: 'Directory', body, children };
      open = `DirectoryMatch "${re}"`;
      break;
    }
    case 'Location':
      open = `Location ${r.pick(['/a', '/a/b', '/b/x', '/al', '/', '/a/x/f.txt', '/b'])}`;
      break;
    case 'LocationMatch': {
      const re = r.pick(['^/(a|b)/x', '\\.php$', '^/al/sub', '/b/']);
      if (r.chance(0.3)) return { open: `Location ~ "${re}"`, name: 'Location', body, children };
      open = `LocationMatch "${re}"`;
      break;
    }
    case 'Files':
      open = `Files "${r.pick(['f.txt', '*.php', 's.cgi', 'index.html'])}"`;
      break;
    default:
      open = `FilesMatch "${r.pick(['\\.(php|cgi)$', '^f', '\\.txt$'])}"`;
  }
  return { open, name: kind, body, children };
}

/** The lines every generated main config starts with: ServerRoot, the 2.2 modules, the docroot, `SetEnvIf X-Trigger 1 trigger`. */
export const SERVER_PREAMBLE: readonly string[] = [
  ...serverHead22(['authz_host', 'authn_file', 'authz_user', 'authz_groupfile', 'auth_basic', 'alias', 'dir', 'mime', 'setenvif']),
  'DirectoryIndex index.html',
  'SetEnvIf X-Trigger 1 trigger',
];

/** Every content file of a generated tree (each directory: f.txt, p.php, s.cgi, index.html), the password and group files, an empty mime.types. */
export function contentFiles(): Record<string, string> {
  const content: Record<string, string> = { 'conf/mime.types': '', 'conf/users': htpasswdText(), 'conf/groups': 'admins: alice\n' };
  for (const d of [...HTDOCS_DIRS.map((x) => `htdocs/${x}`), 'htdocs', ...OTHER_DIRS.map((x) => `other${x ? `/${x}` : ''}`), ...VH1_DIRS.map((x) => `vh1${x ? `/${x}` : ''}`)])
    for (const f of FILES.filter((x) => x)) content[`${d}/${f}`] = `${d}/${f}\n`;
  return content;
}

export interface HandSeedOptions {
  /** The sections whose answers on compat are the expected ones (default: `sections`). */
  readonly meaning?: readonly string[];
  /** A mixed seed: the mixed config on compat is also served ("today"). */
  readonly mixed?: boolean;
  /** Host headers ('' = none). */
  readonly hosts?: readonly string[];
}

/**
 * A hand-written seed (a shrunk repro): `sections` after the preamble of conf/httpd.conf, the given
 * per-directory files, and every request of hosts × paths × addresses × credentials × GET/POST.
 */
export function handSeed(seed: number, sections: readonly string[], perDirectory: Readonly<Record<string, string>>, paths: readonly string[], options: HandSeedOptions = {}): FuzzSeed {
  const main = (lines: readonly string[]) => [`# access fuzz repro ${seed}`, ...SERVER_PREAMBLE, '', ...lines, ''].join('\n');
  const tree = { ...contentFiles(), 'conf/httpd.conf': main(sections), ...perDirectory };
  const hosts = options.hosts ?? [''];
  const requests: RequestSpec[] = [];
  for (const host of hosts)
    for (const p of paths)
      for (const address of FUZZ_ADDRESSES)
        for (const credential of FUZZ_CREDENTIALS)
          for (const method of ['GET', 'POST'] as const) requests.push({ path: p, ...(host ? { host } : {}), address, credential, method, trigger: false });
  const meaning = options.meaning ? { ...tree, 'conf/httpd.conf': main(options.meaning) } : tree;
  return { seed, kind: options.mixed ? 'mixed' : 'pure', original: tree, meaning, hosts, requests };
}

/** The seed `n`: a whole 2.2 server and the request sample. */
export function generateSeed(n: number, requestCount = 360): FuzzSeed {
  const r = new Rng(n * 7919 + 17);
  const kind: SeedKind = r.chance(0.3) ? 'mixed' : 'pure';
  const knobs: Knobs = { kind, satisfy: kind === 'pure' && r.chance(0.5) ? 'explicit' : 'never', auth: kind === 'pure' };
  const withAlias = r.chance(0.6);
  const withVhosts = r.chance(0.5);
  const top: Section[] = [];
  // <Directory />, often the stock "Deny from all"
  const rootBody: Block[] = [];
  if (r.chance(0.6)) rootBody.push(plain(`AllowOverride ${r.pick(OVERRIDES)}`));
  if (r.chance(0.5)) rootBody.push(knobs.satisfy === 'explicit' ? plain('Order deny,allow', 'Deny from all', 'Satisfy All') : plain('Order deny,allow', 'Deny from all'));
  if (rootBody.length > 0) top.push({ open: 'Directory /', name: 'Directory', body: rootBody, children: [] });
  // the docroot usually opened, as 2.2's stock config does
  if (r.chance(0.7)) {
    const b: Block[] = [accessBlock(r, knobs, 'section')];
    if (r.chance(0.5)) b.unshift(plain(`AllowOverride ${r.pick(OVERRIDES)}`));
    top.push({ open: 'Directory "{{ROOT}}/htdocs"', name: 'Directory', body: b, children: [] });
  }
  const sections = 1 + r.int(5);
  for (let i = 0; i < sections; i++) top.push(randomSection(r, knobs, 'htdocs', HTDOCS_DIRS));
  if (withAlias && r.chance(0.7)) {
    const b: Block[] = [accessBlock(r, knobs, 'section')];
    if (r.chance(0.5)) b.unshift(plain(`AllowOverride ${r.pick(OVERRIDES)}`));
    top.push({ open: `Directory "{{ROOT}}/other${r.chance(0.3) ? '/sub' : ''}"`, name: 'Directory', body: b, children: [] });
  }
  const vhosts: { name: string; docroot: string; sections: Section[]; alias: boolean }[] = [];
  if (withVhosts) {
    vhosts.push({ name: '127.0.0.1', docroot: 'htdocs', sections: r.chance(0.5) ? [randomSection(r, knobs, 'htdocs', HTDOCS_DIRS)] : [], alias: false });
    const vh1: Section[] = [];
    const count = r.int(3);
    for (let i = 0; i < count; i++) vh1.push(randomSection(r, knobs, 'vh1', VH1_DIRS.filter((d) => d)));
    if (r.chance(0.5)) vh1.push({ open: 'Directory "{{ROOT}}/vh1"', name: 'Directory', body: [accessBlock(r, knobs, 'section')], children: [] });
    vhosts.push({ name: 'one.test', docroot: 'vh1', sections: vh1, alias: withAlias && r.chance(0.5) });
  }
  // .htaccess files
  const htaccess: Record<string, Block> = {};
  const candidates = ['htdocs/a', 'htdocs/a/b', 'htdocs/b', 'other', 'vh1', 'htdocs'];
  for (const d of r.some(candidates, 0, 2)) {
    const b = accessBlock(r, knobs, 'htaccess');
    const files = r.chance(0.2) ? r.pick(['Files "f.txt"', 'FilesMatch "\\.(php|cgi)$"']) : null;
    htaccess[`${d}/.htaccess`] = files ? { lines: [`<${files}>`, ...b.lines.map((l) => `    ${l}`), `</${files.split(' ')[0]}>`], meaning: [`<${files}>`, ...b.meaning.map((l) => `    ${l}`), `</${files.split(' ')[0]}>`] } : b;
  }

  const main = (side: 'lines' | 'meaning') =>
    [
      `# generated 2.2 server (access fuzz seed ${n})`,
      ...SERVER_PREAMBLE,
      ...(withAlias && !vhosts.some((v) => v.alias) ? ['Alias /al "{{ROOT}}/other"'] : []),
      '',
      ...top.flatMap((s) => [...render(s, side, ''), '']),
      ...(vhosts.length > 0 ? ['NameVirtualHost *', ''] : []),
      ...vhosts.flatMap((v) => [
        '<VirtualHost *>',
        `    ServerName ${v.name}`,
        `    DocumentRoot "{{ROOT}}/${v.docroot}"`,
        ...(v.alias ? ['    Alias /al "{{ROOT}}/other"'] : []),
        ...v.sections.flatMap((s) => render(s, side, '    ')),
        '</VirtualHost>',
        '',
      ]),
    ].join('\n');

  const content = contentFiles();
  const tree = (side: 'lines' | 'meaning'): Record<string, string> => ({
    ...content,
    'conf/httpd.conf': main(side),
    ...Object.fromEntries(Object.entries(htaccess).map(([rel, b]) => [rel, b[side].join('\n') + '\n'])),
  });

  // probes: every directory URL of each host with a file name, sampled with addresses, credentials, methods, trigger
  const hosts = ['', ...vhosts.filter((v) => v.name !== '127.0.0.1').map((v) => v.name)];
  const urls: { host: string; path: string }[] = [];
  for (const host of hosts) {
    const docDirs = host === 'one.test' ? VH1_DIRS : ['', ...HTDOCS_DIRS];
    const aliasHere = withAlias && (host === 'one.test' ? vhosts.some((v) => v.alias) : !vhosts.some((v) => v.alias));
    const dirs = [...docDirs.map((d) => (d ? `/${d}/` : '/')), ...(aliasHere ? OTHER_DIRS.map((d) => (d ? `/al/${d}/` : '/al/')) : [])];
    for (const d of dirs) for (const f of FILES) urls.push({ host, path: d + f });
  }
  const requests: RequestSpec[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < requestCount * 3 && requests.length < requestCount; i++) {
    const u = r.pick(urls);
    const spec: RequestSpec = {
      path: u.path,
      ...(u.host ? { host: u.host } : {}),
      address: r.pick(FUZZ_ADDRESSES),
      credential: r.pick(FUZZ_CREDENTIALS),
      method: r.pick(FUZZ_METHODS),
      trigger: r.chance(0.25),
    };
    const key = describeRequest(spec);
    if (!seen.has(key)) {
      seen.add(key);
      requests.push(spec);
    }
  }
  return { seed: n, kind, original: tree('lines'), meaning: tree('meaning'), hosts, requests };
}

// ---------------------------------------------------------------- the oracle

export type Verdict = 'widened' | 'narrowed' | 'error-500' | 'other';

export interface FuzzMismatch {
  readonly request: string;
  readonly expected: Status;
  readonly migrated: Status;
  readonly verdict: Verdict;
}

export interface FuzzOutcome {
  readonly seed: number;
  readonly kind: SeedKind;
  readonly work: string;
  /** The CLI's exit and stderr on the first run. */
  readonly exit: number | null;
  readonly stderr: string;
  readonly findings: string[];
  /** Problems of the seed as a whole: a configtest refused, a second run that changes something, a server that did not start. */
  readonly problems: string[];
  readonly mismatches: FuzzMismatch[];
  /** mixed seeds: requests where the migration answers differently from the mixed config on compat today. */
  readonly todayDiffers: number;
  /** A few of them: request, today's status, the migrated one. */
  readonly todayExamples: string[];
  readonly requests: number;
  /** How often the expected side answered each status (a seed that only ever answers one thing tests little). */
  readonly tally: Record<string, number>;
}

const denied = (s: Status) => s === 401 || s === 403;

export function classify(expected: Status, migrated: Status): Verdict {
  if (typeof migrated === 'number' && migrated >= 500) return 'error-500';
  if (denied(expected) && !denied(migrated)) return 'widened';
  if (!denied(expected) && denied(migrated)) return 'narrowed';
  return 'other';
}

const CLI = path.join(REPO, 'dist', 'src', 'cli.js');

/** The built CLI run in `cwd` (CI set: no progress display). */
export function cli(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** Modules a 2.2 main config got from 2.2's core that 2.4 splits out, and compat: the 2.2 sides' wrapper loads them. */
const BASELINE_MODULES = ['mpm_prefork', 'authz_core', 'authn_core', 'access_compat'];

export interface RunSeedOptions {
  /** Edit the migrated tree after the migration (negative controls). */
  readonly tamper?: (tree: string) => void;
  /** Keep the work directory. */
  readonly keep?: boolean;
}

/**
 * Writes the seed's trees (migrated copy, expected side, and for mixed seeds today's), migrates
 * one with the built CLI, checks it with `apache2 -t` and a second run, serves all and compares.
 */
export async function runSeed(seed: FuzzSeed, options: RunSeedOptions = {}): Promise<FuzzOutcome> {
  const work = workDir(`codemod-fuzz-${seed.seed}-`);
  const tree = (side: string) => path.join(work, side, 'tree');
  const sides = seed.kind === 'mixed' ? ['expected', 'mig', 'today'] : ['expected', 'mig'];
  for (const side of sides) {
    const root = tree(side);
    const files = side === 'expected' ? seed.meaning : seed.original;
    writeFiles(root, Object.fromEntries(Object.entries(files).map(([rel, text]) => [rel, fill(text, { ROOT: root })])));
  }
  const problems: string[] = [];
  const mig = tree('mig');
  const first = cli(['--write', '--format', 'json', '.'], mig);
  let findings: string[] = [];
  try {
    const report = JSON.parse(first.stdout) as { findings: { code: string; severity: string; file: string; line?: number; message: string }[] };
    findings = report.findings.filter((f) => /access|htaccess|override/.test(f.code)).map((f) => `${f.severity} ${f.code} ${f.file}:${f.line ?? ''} ${f.message}`);
  } catch {
    problems.push(`no JSON report (exit ${first.status}): ${first.stderr.slice(0, 400)}`);
  }
  if (first.status === 2) problems.push(`first run exit 2: ${first.stderr.slice(0, 600)}`);
  const second = cli(['--check', '.'], mig);
  if (second.status !== 0) problems.push(`not idempotent: second run --check exit ${second.status}: ${second.stderr.slice(0, 600)}`);
  options.tamper?.(mig);
  for (const side of sides) makeReadable(path.join(work, side));

  const ports = await freePorts(sides.length);
  const wrappers = sides.map((side, i) => writeWrapper(path.join(work, side), ports[i], [path.join(tree(side), 'conf/httpd.conf')], side === 'mig' ? [] : BASELINE_MODULES));
  // 2.2's AllowOverride default was All: the 2.2 sides get it ahead of the tree's own sections
  sides.forEach((side, i) => {
    if (side === 'mig') return;
    const text = fs.readFileSync(wrappers[i], 'utf8').replace(/^Include /m, '<Directory />\n    AllowOverride All\n</Directory>\nInclude ');
    fs.writeFileSync(wrappers[i], text);
  });
  const t = configtest(wrappers[1]);
  if (!t.ok) problems.push(`apache2 -t refused the migrated tree: ${t.output.trim().slice(0, 600)}`);
  const base: { mismatches: FuzzMismatch[]; todayDiffers: number; todayExamples: string[]; tally: Record<string, number> } = { mismatches: [], todayDiffers: 0, todayExamples: [], tally: {} };
  if (problems.length === 0 || t.ok) {
    const servers: { stop(): Promise<void> }[] = [];
    try {
      for (let i = 0; i < sides.length; i++) servers.push(await serveWrapped(wrappers[i], ports[i], path.join(work, sides[i])));
      const tasks = seed.requests.flatMap((spec) => sides.map((_, i) => () => send(ports[i], spec, 8000)));
      const statuses = await pool(tasks, 12);
      const n = sides.length;
      seed.requests.forEach((spec, k) => {
        const expected = statuses[n * k];
        const migrated = statuses[n * k + 1];
        base.tally[String(expected)] = (base.tally[String(expected)] ?? 0) + 1;
        if (expected !== migrated) base.mismatches.push({ request: describeRequest(spec), expected, migrated, verdict: classify(expected, migrated) });
        if (n === 3 && statuses[n * k + 2] !== migrated && base.todayDiffers++ < 5) base.todayExamples.push(`${describeRequest(spec)}: today ${statuses[n * k + 2]}, migrated ${migrated}`);
      });
    } catch (e) {
      problems.push(`server: ${(e as Error).message.slice(0, 800)}`);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  }
  if (base.todayDiffers > 0 && !findings.some((f) => f.includes('access-mixed-differs')))
    problems.push(`${base.todayDiffers} requests answered differently from the mixed config on compat today, and no access-mixed-differs reported: ${base.todayExamples.join('; ')}`);
  if (!options.keep && problems.length === 0 && base.mismatches.length === 0) fs.rmSync(work, { recursive: true, force: true });
  return { seed: seed.seed, kind: seed.kind, work, exit: first.status, stderr: first.stderr, findings, problems, ...base, requests: seed.requests.length };
}

/** One line per problem and mismatch of an outcome (for messages and the exploration log). */
export function describeOutcome(o: FuzzOutcome, max = 10): string {
  const by = new Map<Verdict, FuzzMismatch[]>();
  for (const m of o.mismatches) by.set(m.verdict, [...(by.get(m.verdict) ?? []), m]);
  const counts = [...by].map(([v, ms]) => `${v} ${ms.length}`).join(', ');
  const lines = [`seed ${o.seed} (${o.kind}): ${o.mismatches.length}/${o.requests} mismatches${counts ? ` (${counts})` : ''}, ${o.problems.length} problems, expected ${JSON.stringify(o.tally)}, work ${o.work}`];
  for (const p of o.problems) lines.push(`  problem: ${p}`);
  for (const [v, ms] of by) for (const m of ms.slice(0, max)) lines.push(`  ${v}: ${m.request}: expected ${m.expected}, migrated ${m.migrated}`);
  return lines.join('\n');
}

export { APACHE2 };
