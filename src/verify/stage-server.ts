/**
 * Stages one migrated server where the user's httpd can judge it without touching anything of
 * the host (see stage-layout.ts for the directories):
 *
 * - the main config and every file its Include lines reach are written into the stage with their
 *   migrated text, at the place httpd will look for them (`mods-enabled/x.load` as a file, even
 *   when the original is a link into `mods-available/`); files an Include reaches that the run
 *   did not migrate are linked to the original, since httpd would read them as they are;
 * - the other entries of those directories are links to the originals (certificates, password
 *   files, `magic`, the `modules` link…), so relative paths resolve as on the host;
 * - ServerRoot, and every absolute path under it (as written, or where the tree really is), point
 *   into the stage; Include paths outside ServerRoot point to their staged copies;
 * - runtime paths (runtime-paths.ts) point into the stage;
 * - a LoadModule path the tree does not hold (a copy of /etc/httpd without its `modules` link)
 *   is taken from the httpd's own module directory when it has that file, as the target
 *   install would provide it;
 * - Debian's `envvars` is read (plain assignments) and passed in the environment as apache2ctl
 *   does, with APACHE_RUN_DIR, APACHE_LOCK_DIR, APACHE_LOG_DIR and APACHE_PID_FILE in the stage.
 *
 * Every rewrite edits argument text in place, so a staged file has the same lines as the
 * migrated text: httpd's line numbers stay valid.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ConfigFile, Directive, SectionOpen, parse, quoteArg, walk } from '../cst';
import { HttpdProbe } from '../modules/probe';
import { readEnvvars } from '../server/envvars';
import { FileFacts } from '../server/file-facts';
import { includeTargets, IncludeContext } from '../server/resolve-includes';
import { DEFAULT_ROOTS, ServerRoot, configuredServerRoot, resolveServerRoot } from '../server/server-root';
import { PlannedFile } from '../server/types';
import { PrefixMap, mapPath, mapPrefixes, normalizePrefixMaps } from './path-prefixes';
import { RUNTIME_DIRECTIVES, RuntimeKind, RuntimePaths } from './runtime-paths';
import { StageLayout, makeDirs } from './stage-layout';

/** One file of the server with its text before and after the migration. */
export interface ServerFileText {
  readonly realPath: string;
  readonly displayPath: string;
  readonly role: PlannedFile['role'];
  readonly original: string;
  readonly migrated: string;
  /** A file the server does not read today (placed as if included): not staged unless an Include reaches it. */
  readonly switchedOff?: boolean;
}

/** Where a staged file came from, to map httpd's messages back. */
export interface StagedSource {
  readonly display: string;
  /** The texts, for a migrated file; null for a file linked as it is. */
  readonly original: string | null;
  readonly migrated: string | null;
}

/** Extra rewrites of `--verify=requests` (replay/stage-replay.ts). */
export interface StageHooks {
  /** A `Listen` line's arguments → the raw replacement of its first argument, or null to comment the line out. */
  listen(values: readonly string[]): string | null;
  /** A `<VirtualHost>`'s addresses -> the staged addresses. */
  virtualHost(values: readonly string[]): string[];
  /** A content path (DocumentRoot, Alias target, `<Directory>`) → its stage path, or null to keep it. */
  contentPath(value: string, regex: boolean): string | null;
  /** AuthUserFile / AuthGroupFile → the throw-away file, or null to keep it. */
  authFile(kind: 'user' | 'group', value: string): string | null;
}

export interface StageInput {
  readonly main: ServerFileText;
  readonly files: readonly ServerFileText[];
  /** The server's ServerRoot on this machine (ServerPlan.serverRoot). */
  readonly serverRoot: string;
  readonly probe: HttpdProbe;
  readonly layout: StageLayout;
  readonly hooks?: StageHooks;
}

export interface Stage {
  readonly layout: StageLayout;
  /** The staged main config. */
  readonly main: string;
  /** `-d ROOT -f MAIN`. */
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** What the stage changed, one line each. */
  readonly notes: readonly string[];
  /** Staged path → its source. */
  readonly sources: ReadonlyMap<string, StagedSource>;
  /** Stage prefix → what it stands for in messages (display form). */
  readonly displayMaps: readonly PrefixMap[];
  /** The include context (ServerRoot mapping, envvars) the original tree resolves with. */
  readonly includeContext: IncludeContext;
  /** Absolute paths under a configured ServerRoot → where the tree is on this machine. */
  readonly serverRoot: ServerRoot;
  /** A per-directory file's text with the stage's rewrites (AuthUserFile over the throw-away file, paths of the tree mapped). */
  rewritePerDirectory(text: string): string;
}

const LOAD_MODULE = 'loadmodule';
const INCLUDES = new Set(['include', 'includeoptional']);
/** Content directives (lower case) → the index of their path argument. */
const CONTENT_DIRECTIVES: ReadonlyMap<string, number> = new Map([['documentroot', 0], ['alias', 1], ['scriptalias', 1], ['aliasmatch', 1], ['scriptaliasmatch', 1]]);
const RUNTIME_ENV: Readonly<Record<string, (l: StageLayout) => string>> = {
  APACHE_RUN_DIR: (l) => l.run,
  APACHE_LOCK_DIR: (l) => path.join(l.run, 'lock'),
  APACHE_LOG_DIR: (l) => l.logs,
  APACHE_PID_FILE: (l) => path.join(l.run, 'httpd.pid'),
};

/** The real path, or the path itself when it does not resolve. */
export function realpathOr(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

/** Writes a staged file (latin1, one byte per character), creating its directory. */
function writeStaged(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, Buffer.from(text, 'latin1'), { mode: 0o600 });
}

/** The server's ServerRoot mapping as discovery resolved it, and the ServerRoot its main config writes (null when none). */
export function serverRootOf(main: ServerFileText, root: string): { serverRoot: ServerRoot; configured: string | null } {
  const facts = FileFacts.of(parse(main.original));
  return {
    serverRoot: resolveServerRoot({ mainPath: main.realPath, facts, override: root, includesMatch: () => false }),
    configured: configuredServerRoot(facts, main.realPath),
  };
}

export function stageServer(input: StageInput): Stage {
  const { layout, probe, hooks } = input;
  const notes = new Set<string>();
  const sources = new Map<string, StagedSource>();
  const byReal = new Map(input.files.map((f) => [f.realPath, f]));

  const { serverRoot, configured } = serverRootOf(input.main, input.serverRoot);
  const realRoot = serverRoot.root;
  const realRootResolved = realpathOr(realRoot);
  // where a path of the tree goes: under the root into root/, anything else below fs/
  const placementMaps = normalizePrefixMaps([
    { from: realRoot, to: layout.root },
    { from: realRootResolved, to: layout.root },
  ]);
  const treeMaps = normalizePrefixMaps([
    ...(configured !== null ? [configured] : DEFAULT_ROOTS).map((from) => ({ from, to: layout.root })),
    ...placementMaps,
  ]);
  const placement = (abs: string) => mapPath(abs, placementMaps) ?? path.join(layout.outside, abs);

  // Debian: envvars as apache2ctl passes them, runtime directories in the stage
  const envvars = readEnvvars(realRoot) ?? readEnvvars(path.dirname(input.main.realPath));
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('APACHE_')) env[k] = v;
  if (envvars) {
    for (const [k, v] of envvars) env[k] = mapPrefixes(v, treeMaps);
    for (const [k, make] of Object.entries(RUNTIME_ENV)) {
      const value = make(layout);
      env[k] = value;
      if (k !== 'APACHE_PID_FILE') makeDirs(value);
    }
    notes.add(`envvars read (plain assignments) and passed in the environment; ${Object.keys(RUNTIME_ENV).join(', ')} in the stage`);
  }
  env.APACHE_CONFDIR = layout.root;
  env.LC_ALL = 'C';
  const includeContext: IncludeContext = {
    serverRoot,
    variables: new Map([...(envvars ?? new Map<string, string>()), ...(envvars?.has('APACHE_CONFDIR') ? [] : [['APACHE_CONFDIR', realRoot] as [string, string]])]),
  };

  const runtime = new RuntimePaths(layout.run, layout.logs, hooks !== undefined);
  let moduleFallback = false;

  /** The path httpd would open for a LoadModule argument of the original tree, on the host. */
  const moduleOnHost = (value: string): string => (path.isAbsolute(value) ? serverRoot.map(value) : path.join(realRoot, value));

  const rewriteFile = (tree: ConfigFile): string[] => {
    const includes: string[] = [];
    for (const node of walk(tree)) {
      if (node.kind !== 'directive' && node.kind !== 'section') continue;
      const line: Directive | SectionOpen = node.kind === 'directive' ? node : node.open;
      const name = node.name.toLowerCase();
      const values = line.values;
      const edits: (string | null | undefined)[] = line.args.map((w) => {
        const mapped = mapPrefixes(w.raw, treeMaps);
        return mapped === w.raw ? undefined : mapped;
      });
      const set = (i: number, value: string) => {
        if (i < values.length) edits[i] = quoteArg(value);
      };

      if (node.kind === 'directive') {
        if (name === 'serverroot' && values.length > 0) set(0, layout.root);
        else if (INCLUDES.has(name) && values.length > 0) {
          includes.push(values[0]);
          const v = values[0];
          if (path.isAbsolute(v) && mapPath(v, treeMaps) === null) set(0, path.join(layout.outside, v));
        } else if (name === LOAD_MODULE && values.length >= 2) {
          const onHost = moduleOnHost(values[1]);
          const fallback = probe.moduleDir ? path.join(probe.moduleDir, path.basename(values[1])) : null;
          if (!fs.existsSync(onHost) && fallback && fs.existsSync(fallback)) {
            set(1, fallback);
            moduleFallback = true;
          }
        } else if (RUNTIME_DIRECTIVES.has(name) && values.length > 0) {
          const staged = runtime.rewrite(RUNTIME_DIRECTIVES.get(name) as RuntimeKind, values[0]);
          if (staged !== null) set(0, staged);
        } else if (hooks && name === 'listen' && values.length > 0) {
          const staged = hooks.listen(values);
          if (staged === null) {
            line.raw = '#' + line.raw;
            continue;
          }
          edits[0] = staged;
          for (let i = 1; i < edits.length; i++) edits[i] = undefined;
        } else if (hooks && CONTENT_DIRECTIVES.has(name)) {
          const i = CONTENT_DIRECTIVES.get(name) as number;
          const staged = i < values.length ? hooks.contentPath(values[i], false) : null;
          if (staged !== null) set(i, staged);
        } else if (hooks && (name === 'authuserfile' || name === 'authgroupfile') && values.length > 0) {
          const staged = hooks.authFile(name === 'authuserfile' ? 'user' : 'group', values[0]);
          if (staged !== null) set(0, staged);
        }
      } else if (hooks && name === 'virtualhost') {
        const staged = hooks.virtualHost(values);
        staged.forEach((v, i) => set(i, v));
        for (let i = staged.length; i < edits.length; i++) edits[i] = null;
      } else if (hooks && (name === 'directory' || name === 'directorymatch') && values.length > 0) {
        const regex = name === 'directorymatch' || values[0] === '~';
        const i = values[0] === '~' ? 1 : 0;
        const staged = i < values.length ? hooks.contentPath(values[i], regex) : null;
        if (staged !== null) set(i, staged);
      }
      if (edits.some((e) => e !== undefined)) line.editArgs(edits);
    }
    return includes;
  };

  const staged = new Set<string>();
  // by real path: a file an Include reaches through a link (mods-enabled/x.load) is staged where the link is
  const stagedReal = new Set<string>();
  const stageFile = (target: string): void => {
    const where = placement(target);
    if (staged.has(where)) return;
    staged.add(where);
    stagedReal.add(realpathOr(target));
    const file = byReal.get(realpathOr(target));
    if (!file) {
      // reached by an Include but not migrated (binary, skipped): httpd reads it as it is
      if (!fs.existsSync(target)) return;
      fs.mkdirSync(path.dirname(where), { recursive: true, mode: 0o700 });
      fs.symlinkSync(target, where);
      sources.set(where, { display: target, original: null, migrated: null });
      return;
    }
    const tree = parse(file.migrated);
    const includes = rewriteFile(tree);
    writeStaged(where, tree.print());
    sources.set(where, { display: file.displayPath, original: file.original, migrated: file.migrated });
    for (const arg of includes) for (const next of includeTargets(arg, includeContext)) stageFile(next);
  };
  const mainTarget = mapPath(input.main.realPath, normalizePrefixMaps([{ from: realRootResolved, to: realRoot }])) ?? input.main.realPath;
  stageFile(mainTarget);
  const main = placement(mainTarget);
  // files of the run that the server holds without an Include naming them (under a --context main):
  // httpd is to judge them as part of it, so the staged main includes them at its end
  for (const file of input.files) {
    if (file.role !== 'included' || file.switchedOff || stagedReal.has(file.realPath)) continue;
    stageFile(file.realPath);
    fs.appendFileSync(main, `\nInclude "${placement(file.realPath)}"\n`);
  }

  overlay(layout.root, realRoot);

  if (configured !== null || treeMaps.length > 0) notes.add(`ServerRoot and the tree's absolute paths (${[...new Set(treeMaps.map((m) => m.from))].join(', ')}) -> the stage`);
  if (runtime.kinds.size > 0) notes.add('pid file, logs, mutex and lock directories, caches and sockets -> the stage');
  if (moduleFallback) notes.add(`LoadModule paths the tree does not hold -> ${probe.moduleDir} (the httpd's module directory)`);

  const displayMaps = normalizePrefixMaps([
    { from: layout.root, to: displayOf(realRoot, input.main) },
    { from: layout.outside, to: '' },
    { from: layout.dir, to: '<stage>' },
  ]);
  // httpd's compiled-in defaults (logs/httpd.pid, logs/error_log, the runtime directory) would
  // resolve through root/logs, a link to the host's own directory: set them first, in the stage;
  // the config's own lines (already pointed into the stage) still win
  const defaults = [
    `PidFile ${path.join(layout.run, 'default.pid')}`,
    `DefaultRuntimeDir ${layout.run}`,
    `ErrorLog ${path.join(layout.logs, 'default-error.log')}`,
  ].flatMap((d) => ['-C', d]);
  const rewritePerDirectory = (text: string): string => {
    const tree = parse(text);
    rewriteFile(tree);
    return tree.print();
  };
  return { layout, main, args: ['-d', layout.root, ...defaults, '-f', main], env, notes: [...notes], sources, displayMaps, includeContext, serverRoot, rewritePerDirectory };
}

/** The display form of the real root, from the main config's display path (relative when the user gave relative paths). */
function displayOf(realRoot: string, main: ServerFileText): string {
  const rel = path.relative(realRoot, main.realPath);
  if (!rel.startsWith('..') && main.displayPath.endsWith(rel)) {
    const shown = main.displayPath.slice(0, main.displayPath.length - rel.length).replace(/\/+$/, '');
    return shown || '.';
  }
  return realRoot;
}

/**
 * Fills every directory the stage created under root/ with links to the entries of the original
 * directory it stands for that the stage does not hold, recursively through the staged ones.
 */
function overlay(stagedDir: string, originalDir: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(originalDir);
  } catch {
    return;
  }
  for (const name of entries) {
    const staged = path.join(stagedDir, name);
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(staged);
    } catch {
      st = null;
    }
    if (!st) fs.symlinkSync(path.join(originalDir, name), staged);
    else if (st.isDirectory()) overlay(staged, path.join(originalDir, name));
  }
}
