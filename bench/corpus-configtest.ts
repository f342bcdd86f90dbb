/**
 * Corpus pass rate: the share of __tests__/corpus/ server configs that pass
 * `apache2 -t` (httpd 2.4) after migration, with stubs for files outside the
 * corpus, and the reason for each failure (its first error line, classified).
 * Prints the figures and writes docs/corpus-report.md. A script, not a test:
 * `npm run corpus` (node dist/bench/corpus-configtest.js).
 *
 * Server configs: the two whole trees under trees/, and every single-file
 * main config (httpd.conf / apache2.conf with ServerRoot, LoadModule or a
 * mods-enabled Include; build templates with @placeholders@ excluded).
 * Each is rebuilt as a tree in a temporary directory:
 *   - the main config at its layout's place (Debian: <root>/apache2.conf;
 *     upstream/RHEL: <root>/conf/httpd.conf), plus every other corpus file from
 *     the same repository under the same root (PROVENANCE.tsv paths);
 *   - Debian-layout main configs are completed with the Debian 2.2.22 package
 *     tree (trees/debian-wheezy-2.2.22: envvars, mods-available/enabled,
 *     ports.conf, conf.d, sites-*) for the files their repository lacks, so
 *     their module set is the package default rather than nothing;
 *   - mods-enabled/sites-enabled entries that the corpus stores as plain files
 *     holding the link text are made symlinks again (the package's layout).
 * Then both the original and the migrated tree get the same run copy
 * (`__tests__/support/whole-server.ts` `prepareRun`, with `stubIncludes`:
 * empty files for Include targets outside the corpus, directories for
 * docroots/log dirs, a `modules` link to /usr/lib/apache2/modules, test
 * htpasswd, throw-away certificates) and `apache2 -t`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { APACHE2 } from '../__tests__/support/httpd';
import { Httpd, Layout, configtestTree, copyTree, migrateInPlace, prepareRun, unexpectedOutput, workDir } from '../__tests__/support/whole-server';

/** The checkout: the nearest directory above this file with the tool's package.json (bench/ or dist/bench/), else the working directory. */
const REPO = ((): string => {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const pkg = path.join(d, 'package.json');
    if (fs.existsSync(pkg) && /"name":\s*"httpd-codemod"/.test(fs.readFileSync(pkg, 'utf8'))) return d;
  }
  return process.cwd();
})();
// the corpus kept in the repository, as in __tests__/support/corpus.ts (whose own
// __dirname-relative lookup does not hold once compiled into dist/)
const CORPUS_DIR = fs.realpathSync(path.join(REPO, '__tests__', 'corpus'));

interface Candidate {
  /** Corpus-relative name. */
  readonly name: string;
  readonly layout: Layout;
  /** Builds the 2.2 tree into `dest` (which becomes ServerRoot). */
  build(dest: string): void;
}

interface Provenance {
  readonly local: string;
  readonly repo: string;
  readonly path: string;
}

function provenance(): Provenance[] {
  const lines = fs.readFileSync(path.join(CORPUS_DIR, 'PROVENANCE.tsv'), 'utf8').split('\n').slice(1);
  return lines.filter((l) => l.trim()).map((l) => {
    const [local, repo, p] = l.split('\t');
    return { local, repo, path: p };
  });
}

function makeWritable(dir: string): void {
  fs.chmodSync(dir, 0o755);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) makeWritable(p);
    else if (e.isFile()) fs.chmodSync(p, 0o644);
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function layoutOf(text: string): Omit<Layout, 'name' | 'source'> {
  const root = /^\s*ServerRoot\s+["']?([^"'\s]+)/im.exec(text)?.[1];
  if (root === '/etc/apache2' || (root === undefined && /^\s*Include\s+\S*mods-enabled/im.test(text))) {
    return { serverRoot: '/etc/apache2', mainRel: 'apache2.conf', envvars: true };
  }
  return { serverRoot: root ?? '/usr/local/apache2', mainRel: 'conf/httpd.conf', envvars: false };
}

function candidates(): Candidate[] {
  const out: Candidate[] = [];
  const debianTree = path.join(CORPUS_DIR, 'trees', 'debian-wheezy-2.2.22');
  const upstreamTree = path.join(CORPUS_DIR, 'trees', 'upstream-2.2-defaults');
  out.push({
    name: 'trees/debian-wheezy-2.2.22',
    layout: { name: 'debian', source: debianTree, serverRoot: '/etc/apache2', mainRel: 'apache2.conf', envvars: true },
    build: (dest) => copyTree(debianTree, dest),
  });
  out.push({
    name: 'trees/upstream-2.2-defaults',
    layout: { name: 'upstream', source: upstreamTree, serverRoot: '/usr/local/apache2', mainRel: 'conf/httpd.conf', envvars: false },
    build: (dest) => copyTree(upstreamTree, dest),
  });
  const prov = provenance();
  for (const entry of prov) {
    if (entry.local.startsWith('trees/') || entry.local.startsWith('htaccess/')) continue;
    if (!/(^|[/_])(httpd|apache2)\.conf$/.test(entry.local)) continue;
    const file = path.join(CORPUS_DIR, entry.local);
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'latin1');
    if (/@@?[A-Za-z_]+@@?/.test(text)) continue; // build template
    if (!/^\s*(LoadModule|ServerRoot|Include\s+\S*mods-enabled)/im.test(text)) continue;
    const l = layoutOf(text);
    const prefix = l.mainRel === 'apache2.conf' ? path.posix.dirname(entry.path) : path.posix.dirname(path.posix.dirname(entry.path));
    const siblings = prov.filter((p) => p.repo === entry.repo && p.local !== entry.local && (prefix === '.' || p.path.startsWith(prefix + '/')) && !p.path.endsWith('.in') && !p.local.startsWith('trees/') && isFile(path.join(CORPUS_DIR, p.local)));
    out.push({
      name: entry.local,
      layout: { name: l.mainRel === 'apache2.conf' ? 'debian' : 'conf/httpd.conf', source: file, ...l },
      build: (dest) => {
        if (l.envvars) copyTree(debianTree, dest);
        for (const s of siblings) {
          const rel = prefix === '.' ? s.path : s.path.slice(prefix.length + 1);
          const target = path.join(dest, rel);
          if (!rel || (fs.existsSync(target) && fs.statSync(target).isDirectory())) continue;
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.rmSync(target, { force: true });
          fs.copyFileSync(path.join(CORPUS_DIR, s.local), target);
        }
        const main = path.join(dest, l.mainRel);
        fs.mkdirSync(path.dirname(main), { recursive: true });
        fs.rmSync(main, { force: true });
        fs.copyFileSync(file, main);
        fs.chmodSync(main, 0o644);
      },
    });
  }
  return out;
}

/** First line that explains a failed `apache2 -t`. */
export function firstError(r: Httpd): string {
  const lines = `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).filter(Boolean);
  const i = lines.findIndex((l) => !/AH00558|\[so:warn\]|^Syntax OK$/.test(l) && !/^\[.*:(warn|notice|info)\]/.test(l));
  if (i === -1) return lines[0] ?? '(no output)';
  // AH00526 prints the place on one line and the message on the next
  return /AH00526: Syntax error on line \d+ of [^:]+:$/.test(lines[i]) && lines[i + 1] ? `${lines[i]} ${lines[i + 1]}` : lines[i];
}

const CATEGORIES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/Cannot load \S*?mod_(\w+)\.so into server: .*cannot open shared object/, (m) => `module file missing on 2.4 (mod_${m[1]}.so)`],
  [/Cannot load \S+ into server: .*undefined symbol/, () => 'module loaded before the module it depends on'],
  [/module (\w+) is built-in and can't be loaded/, (m) => `LoadModule of a built-in module (${m[1]})`],
  [/No MPM loaded/, () => 'no MPM loaded'],
  [/More than one MPM loaded/, () => 'more than one MPM loaded'],
  [/Invalid command '([^']+)'/, (m) => `Invalid command '${m[1]}' (removed in 2.4, or its module not loaded)`],
  [/No matches for the wildcard|Could not open directory|Could not open configuration file/, () => 'Include of a missing file or empty wildcard'],
  [/Invalid Mutex directory|Mutex type \S+ is not valid|Invalid Mutex argument/, () => 'Mutex directive invalid'],
  [/Cannot find module (\S+)/, (m) => `LogLevel for a module not loaded (${m[1]})`],
  [/Unknown (Authn|Authz) provider: (\S+)/, (m) => `${m[1]} provider module not loaded (${m[2]})`],
  [/KeepAlive must be On or Off/, () => 'KeepAlive value'],
  [/Either all Options must start with \+ or -/, () => 'Options mixing +/- and plain'],
  [/takes one argument|takes two arguments|takes three arguments|takes 1-2 arguments/, () => 'wrong argument count (often a trailing comment)'],
  [/SSLCertificate|SSL/, () => 'SSL configuration'],
];

export function classify(line: string): string {
  for (const [re, label] of CATEGORIES) {
    const m = re.exec(line);
    if (m) return label(m);
  }
  return `other: ${line.replace(/\/tmp\/[^\s:]+\//g, '…/').slice(0, 160)}`;
}

interface Outcome {
  readonly name: string;
  readonly layout: string;
  readonly before: { ok: boolean; reason: string };
  readonly after: { ok: boolean; reason: string; warnings: string[] };
  readonly migrationErrors: string[];
  readonly manual: number;
}

function commitOfTool(): string {
  try {
    const gitDir = path.join(REPO, '.git');
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim();
    const packed = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8').split('\n').find((l) => l.endsWith(' ' + ref));
    return packed ? packed.split(' ')[0] : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The shared corpus stores Debian's mods-enabled/sites-enabled symlinks as
 * plain files holding the link text (`../mods-available/alias.load`); turn
 * them back into links, as the package installs them.
 */
function restoreLinks(dir: string): number {
  let restored = 0;
  for (const sub of ['mods-enabled', 'sites-enabled', 'conf-enabled']) {
    const d = path.join(dir, sub);
    if (!fs.existsSync(d)) continue;
    for (const name of fs.readdirSync(d)) {
      const p = path.join(d, name);
      const st = fs.lstatSync(p);
      if (!st.isFile() || st.size > 200) continue;
      const text = fs.readFileSync(p, 'latin1').trim();
      if (/^\.\.\/[\w./-]+$/.test(text) && isFile(path.join(d, text))) {
        fs.rmSync(p);
        fs.symlinkSync(text, p);
        restored++;
      }
    }
  }
  return restored;
}

async function runOne(c: Candidate, ports: { http: number; https: number }): Promise<Outcome> {
  const work = workDir('codemod-corpus-');
  try {
    const original = path.join(work, 'original');
    c.build(original);
    makeWritable(original);
    restoreLinks(original);
    const migrated = path.join(work, 'migrated');
    copyTree(original, migrated);
    const migration = await migrateInPlace(migrated);
    const before = configtestTree(prepareRun(original, c.layout, path.join(work, 'run-before'), { ports, stubIncludes: true }));
    const after = configtestTree(prepareRun(migrated, c.layout, path.join(work, 'run-after'), { ports, stubIncludes: true }));
    return {
      name: c.name,
      layout: `${c.layout.serverRoot} (${c.layout.mainRel})`,
      before: { ok: before.ok, reason: before.ok ? '' : classify(firstError(before)) },
      after: { ok: after.ok, reason: after.ok ? '' : classify(firstError(after)), warnings: after.ok ? unexpectedOutput(after) : [] },
      migrationErrors: migration.errors.map((e) => `${e.path}: ${e.message}`),
      manual: migration.findings.filter((f) => f.severity === 'manual').length,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function report(outcomes: Outcome[]): string {
  const n = outcomes.length;
  const passBefore = outcomes.filter((o) => o.before.ok).length;
  const passAfter = outcomes.filter((o) => o.after.ok).length;
  const clean = outcomes.filter((o) => o.after.ok && o.after.warnings.length === 0).length;
  const reasons = new Map<string, string[]>();
  for (const o of outcomes) if (!o.after.ok) reasons.set(o.after.reason, [...(reasons.get(o.after.reason) ?? []), o.name]);
  const version = (() => {
    try {
      return require('child_process').execFileSync(APACHE2, ['-v'], { encoding: 'utf8' }).split('\n')[0].replace('Server version: ', '');
    } catch {
      return 'unknown';
    }
  })();
  const lines = [
    '# Corpus pass rate: `apache2 -t` after migration',
    '',
    `Generated by \`bench/corpus-configtest.ts\` (\`npm run corpus\`) on ${new Date().toISOString().slice(0, 10)}, tool commit \`${commitOfTool()}\` (plus any uncommitted work in the checkout), httpd ${version}.`,
    '',
    `**${passAfter} of ${n}** server configs of \`__tests__/corpus/\` pass \`apache2 -t\` after migration (${clean} of them with no warning at all); **${passBefore} of ${n}** pass without migration.`,
    '',
    'How each config is rebuilt, stubbed and checked is described in the header of `bench/corpus-configtest.ts`; the run-copy substitutions (paths mapped into a temporary root, Listen on 127.0.0.1, users, stubs) are listed in `__tests__/support/whole-server.ts`.',
    '',
    '## Reasons for the rest (first error line of `apache2 -t`, classified)',
    '',
    '| reason | configs |',
    '|---|---|',
    ...[...reasons.entries()].sort((a, b) => b[1].length - a[1].length).map(([r, names]) => `| ${r.replace(/\|/g, '\\|')} | ${names.length}: ${names.map((x) => `\`${x}\``).join(', ')} |`),
    '',
    '## Per config',
    '',
    '| config | layout | before migration | after migration | manual findings | tool errors |',
    '|---|---|---|---|---|---|',
    ...outcomes.map(
      (o) =>
        `| \`${o.name}\` | ${o.layout} | ${o.before.ok ? 'pass' : `fail: ${o.before.reason.replace(/\|/g, '\\|')}`} | ${o.after.ok ? (o.after.warnings.length ? `pass, warns: ${o.after.warnings.join('; ').replace(/\|/g, '\\|').slice(0, 200)}` : 'pass') : `fail: ${o.after.reason.replace(/\|/g, '\\|')}`} | ${o.manual} | ${o.migrationErrors.length ? o.migrationErrors.slice(0, 2).join('; ').replace(/\|/g, '\\|').slice(0, 200) : ''} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

async function mainScript(): Promise<void> {
  const list = candidates();
  const outcomes: Outcome[] = [];
  // -t never binds the ports; fixed values keep the run copies comparable
  const ports = { http: 8080, https: 8443 };
  for (const c of list) {
    const o = await runOne(c, ports);
    outcomes.push(o);
    process.stdout.write(`${o.after.ok ? 'PASS' : 'FAIL'} ${o.name}${o.after.ok ? '' : ` — ${o.after.reason}`} (before: ${o.before.ok ? 'pass' : o.before.reason})\n`);
  }
  const text = report(outcomes);
  const out = path.join(REPO, 'docs', 'corpus-report.md');
  fs.writeFileSync(out, text);
  const pass = outcomes.filter((o) => o.after.ok).length;
  process.stdout.write(`\n${pass}/${outcomes.length} pass apache2 -t after migration (${outcomes.filter((o) => o.before.ok).length} before); report: ${path.relative(process.cwd(), out)}\n`);
}

if (require.main === module) {
  mainScript().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
