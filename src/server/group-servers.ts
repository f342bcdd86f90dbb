/**
 * Groups the files found into servers.
 *
 * Main configs are the files named httpd.conf / apache2.conf and the files
 * that include others or set ServerRoot, unless another such file includes
 * them (in a cycle, a file named like a main config wins, then the first
 * by path), and the files given with --context. Each main owns itself and the
 * files it reaches, in include order; a file reached by two mains belongs to
 * the first (context mains first, then by path). A context main and the files
 * it reaches that the run did not find are read, never written (role 'context').
 *
 * A file of the run that no Include reaches is not migrated out of context
 * when a server's tree holds it:
 * - a per-directory file (named `.htaccess`, or named by a server's
 *   AccessFileName in a directory that server may serve, access-file-scope.ts)
 *   belongs to that server, with the directory it is read for;
 * - a config file that a switched-off line would include (`#Include
 *   conf/extra/httpd-dav.conf`, `sites-available/x` beside `Include
 *   sites-enabled/`) is placed where that line would put it, and any other
 *   config file below the server's ServerRoot at the end of its main config
 *   (`asIf` says which), as if included.
 * With --context, what is left belongs under the first context main (at its
 * end): the context supplies its parents. Otherwise what is left are
 * fragments, each a server of its own; a per-directory file below a directory
 * a fragment names (DocumentRoot, <Directory>, Alias) joins that fragment. A scanned file whose name is no configuration name is read
 * only when some AccessFileName names it.
 */
import * as path from 'path';
import { FileRole, PlannedFile, ServerPlan } from './types';
import { comparePaths } from './display-path';
import { FileRegistry, FoundFile } from './file-registry';
import { isHtaccess, isMainConfigName } from './file-names';
import { AccessFileIndex, AccessFileScope, accessFileScope, logicalDirectory } from './access-file-scope';
import { includeContextFor } from './include-context';
import { BINARY_MESSAGE } from './read-source';
import { IncludeContext, Problem, followIncludes, hasServerDirectives } from './resolve-includes';
import { literalServerRoot } from './server-root';

export interface GroupInput {
  /** Files named on the command line or met by a directory scan. */
  readonly found: readonly FoundFile[];
  /**
   * Regular files a directory scan met whose names mark no configuration,
   * not read yet: each is read only when a main's AccessFileName names it.
   */
  readonly unread?: readonly string[];
  /** Main configs given with --context: read for their parents and modules, never written. */
  readonly context?: readonly FoundFile[];
  readonly registry: FileRegistry;
  readonly serverRootOverride: string | null;
  readonly display: (absPath: string) => string;
}

export interface Grouping {
  readonly servers: ServerPlan[];
  readonly errors: Problem[];
  readonly skipped: Problem[];
  /** Files placed in some server. */
  readonly members: ReadonlySet<FoundFile>;
}

interface Candidate {
  readonly ctx: IncludeContext;
  readonly reached: ReadonlySet<FoundFile>;
}

/** A server being assembled: its main, its files in order, and where its per-directory files may be. */
interface Assembly {
  readonly main: FoundFile | null;
  readonly ctx: IncludeContext | null;
  readonly context: boolean;
  readonly files: { file: FoundFile; role: FileRole; asIf?: string; directory?: string }[];
  readonly includes: Map<FoundFile, readonly FoundFile[]>;
  accessFiles: AccessFileScope | null;
}

export function groupServers(input: GroupInput): Grouping {
  const { display } = input;
  const found = new Set(input.found);
  const contextMains = [...new Set(input.context ?? [])];
  const candidates = [...new Set([...contextMains, ...input.found.filter(isMainCandidate)])];
  const isCandidate = new Set(candidates);
  const directoryRealPaths = input.registry.realPaths;
  const closures = new Map<FoundFile, Candidate>();
  for (const candidate of candidates) {
    const ctx = includeContextFor(candidate, input.serverRootOverride);
    const closure = followIncludes(candidate, input.registry, ctx, display);
    closures.set(candidate, { ctx, reached: new Set(closure.order) });
  }

  // Display paths are final once every Include has been followed.
  const keys = new Map<FoundFile, string>();
  const keyOf = (f: FoundFile): string => {
    let key = keys.get(f);
    if (key === undefined) keys.set(f, (key = display(f.preferredPath)));
    return key;
  };
  const byPath = (a: FoundFile, b: FoundFile) => comparePaths(keyOf(a), keyOf(b));
  const realPaths = new Map<FoundFile, string>();
  const realPathOf = (f: FoundFile): string => {
    let real = realPaths.get(f);
    if (real === undefined) realPaths.set(f, (real = f.realPath));
    return real;
  };

  const reaches = (from: FoundFile, to: FoundFile): boolean => from !== to && (closures.get(from)?.reached.has(to) ?? false);
  // in a cycle, httpd.conf / apache2.conf wins, then the first by path
  const firstInCycle = (a: FoundFile, b: FoundFile): boolean => (hasMainName(a) !== hasMainName(b) ? hasMainName(a) : byPath(a, b) < 0);
  const isContext = new Set(contextMains);
  const mains = candidates
    .filter((c) => !candidates.some((d) => reaches(d, c) && (!reaches(c, d) || firstInCycle(d, c))))
    .sort((a, b) => Number(isContext.has(b)) - Number(isContext.has(a)) || (isContext.has(a) ? contextMains.indexOf(a) - contextMains.indexOf(b) : byPath(a, b)));
  const reachedByAMain = new Set<FoundFile>();
  for (const m of mains) for (const f of (closures.get(m) as Candidate).reached) reachedByAMain.add(f);

  const errors: Problem[] = [];
  const skipped: Problem[] = [];
  const members = new Set<FoundFile>();
  const assemblies: Assembly[] = [];

  // each main with what it includes, and what switched-off lines would include
  for (const main of mains) {
    const { ctx, reached } = closures.get(main) as Candidate;
    const context = isContext.has(main);
    const eligible = (f: FoundFile) => found.has(f) && !members.has(f) && !isCandidate.has(f) && !reachedByAMain.has(f);
    // `reached` is the main's real closure, as followIncludes would make it again (the registry answers each path as before)
    const closure = followIncludes(main, input.registry, ctx, display, { eligible, real: reached });
    const assembly: Assembly = { main, ctx, context, files: [], includes: new Map(), accessFiles: null };
    for (const f of closure.order) {
      if (members.has(f)) continue;
      members.add(f);
      const placed = closure.virtual.get(f);
      const role: FileRole = f === main ? (found.has(f) ? 'main' : 'context') : context && !found.has(f) ? 'context' : 'included';
      const asIf = placed ? `as if included by line ${placed.line} of ${keyOf(placed.by)}: ${placed.how}` : undefined;
      assembly.files.push({ file: f, role, ...(asIf ? { asIf } : {}) });
      assembly.includes.set(f, closure.edges.get(f) ?? []);
    }
    for (const e of closure.errors) errors.push(e);
    for (const s of closure.skipped) skipped.push(s);
    assemblies.push(assembly);
  }

  // per-directory files of the servers (before the tree's other files: a name AccessFileName gives is not a config file)
  for (const a of assemblies) {
    if (a.main && a.ctx) a.accessFiles = accessFileScope(a.main.preferredPath, a.files.map((x) => x.file.facts), a.ctx, directoryRealPaths);
  }
  attachPerDirectoryFiles(assemblies, input, members, errors, skipped);

  // config files below a server's ServerRoot that no line names: as if included at the end of its main
  const loose = () => input.found.filter((f) => !members.has(f)).sort(byPath);
  for (const f of loose()) {
    if (namesOf(f).some(isHtaccess) || isCandidate.has(f)) continue;
    const home = deepestRoot(assemblies, f);
    if (!home || !home.main || !home.ctx) continue;
    members.add(f);
    home.files.push({
      file: f,
      role: 'included',
      asIf: `as if included at the end of ${keyOf(home.main)}: it lies in the server's tree (ServerRoot ${home.ctx.serverRoot.root}) but no Include line, not even a commented-out one, names it`,
    });
    home.includes.set(f, []);
  }


  // with --context, what is still loose belongs under the (first) context main: it supplies the parents
  const context = assemblies.find((a) => a.context && a.main && a.ctx);
  if (context && context.main && context.ctx) {
    for (const f of loose()) {
      if (namesOf(f).some(isHtaccess)) continue;
      members.add(f);
      context.files.push({ file: f, role: 'included' });
      context.includes.set(f, []);
    }
    context.accessFiles = accessFileScope(context.main.preferredPath, context.files.map((x) => x.file.facts), context.ctx, directoryRealPaths);
    attachPerDirectoryFiles([context], input, members, errors, skipped);
  }

  // fragments, and the per-directory files below the directories they name
  for (const f of loose()) {
    if (namesOf(f).some(isHtaccess)) continue;
    members.add(f);
    const fragment: Assembly = { main: null, ctx: null, context: false, files: [{ file: f, role: 'fragment' }], includes: new Map([[f, []]]), accessFiles: null };
    fragment.accessFiles = accessFileScope(f.preferredPath, [f.facts], literalContext(f), directoryRealPaths, { fragment: true });
    assemblies.push(fragment);
  }
  attachPerDirectoryFiles(
    assemblies.filter((a) => a.main === null),
    input,
    members,
    errors,
    skipped,
  );
  for (const f of loose()) {
    members.add(f);
    assemblies.push({ main: null, ctx: null, context: false, files: [{ file: f, role: 'htaccess' }], includes: new Map([[f, []]]), accessFiles: null });
  }

  const servers: ServerPlan[] = [];
  for (const a of assemblies) {
    // a context with nothing of the run in it is not a server to migrate
    if (a.files.every((x) => x.role === 'context')) continue;
    const files: PlannedFile[] = a.files.map((x) => ({
      realPath: realPathOf(x.file),
      displayPath: keyOf(x.file),
      role: x.role,
      ...(x.asIf !== undefined ? { asIf: x.asIf } : {}),
      ...(x.directory !== undefined ? { directory: x.directory } : {}),
    }));
    const includes = new Map<string, readonly string[]>();
    for (const x of a.files) includes.set(realPathOf(x.file), (a.includes.get(x.file) ?? []).map(realPathOf));
    const main = a.main ? files[0] : null;
    servers.push({ id: files[0].displayPath, main, serverRoot: a.ctx ? a.ctx.serverRoot.root : null, files, includes });
  }
  // mains first (context ones as given, then by path), then fragments and lone per-directory files by path
  const headed = servers.filter((s) => s.main !== null);
  const rest = servers.filter((s) => s.main === null).sort((a, b) => comparePaths(a.id, b.id));
  return { servers: [...headed, ...rest], errors, skipped, members };
}

/**
 * Gives each per-directory file that is not placed yet to the first server that reads it, with the
 * directory it is read for; files a scan met under other names are read only when some server's
 * AccessFileName names them.
 */
function attachPerDirectoryFiles(assemblies: readonly Assembly[], input: GroupInput, members: Set<FoundFile>, errors: Problem[], skipped: Problem[]): void {
  const withScope = assemblies.filter((a) => a.accessFiles !== null);
  if (withScope.length === 0) return;
  const index = new AccessFileIndex(withScope.map((a) => a.accessFiles as AccessFileScope));
  const owners = new Map<AccessFileScope, Assembly>(withScope.map((a) => [a.accessFiles as AccessFileScope, a]));
  const place = (f: FoundFile, absPath: string): boolean => {
    const owner = index.owner(absPath);
    if (!owner) return false;
    const assembly = owners.get(owner.scope) as Assembly;
    members.add(f);
    assembly.files.push({ file: f, role: 'htaccess', directory: logicalDirectory(owner.scope, owner.dir) });
    assembly.includes.set(f, []);
    return true;
  };
  const pending = input.found.filter((f) => !members.has(f)).sort((a, b) => comparePaths(a.preferredPath, b.preferredPath));
  for (const f of pending) {
    if (namesOf(f).some(isMainConfigName)) continue;
    for (const p of f.paths) if (place(f, p)) break;
  }
  for (const absPath of input.unread ?? []) {
    if (!index.matches(absPath)) continue;
    const loaded = input.registry.load(absPath);
    if (loaded.kind === 'binary') skipped.push({ absPath, message: BINARY_MESSAGE });
    else if (loaded.kind === 'error') errors.push({ absPath, message: loaded.message });
    else if (loaded.kind === 'file' && !members.has(loaded.file)) place(loaded.file, absPath);
  }
  // a server's per-directory files follow its config files, by path
  for (const a of withScope) {
    const config = a.files.filter((x) => x.role !== 'htaccess');
    const perDir = a.files.filter((x) => x.role === 'htaccess').sort((x, y) => comparePaths(x.file.preferredPath, y.file.preferredPath));
    a.files.splice(0, a.files.length, ...config, ...perDir);
  }
}

/** The server whose ServerRoot holds `f` most closely (on this machine), if any. */
function deepestRoot(assemblies: readonly Assembly[], f: FoundFile): Assembly | null {
  let best: Assembly | null = null;
  for (const a of assemblies) {
    if (!a.ctx) continue;
    const root = a.ctx.serverRoot.root;
    const inside = f.paths.some((p) => isWithin(root, p));
    if (inside && (!best || root.length > (best.ctx as IncludeContext).serverRoot.root.length)) best = a;
  }
  return best;
}

function isWithin(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/** A fragment's paths are taken as written: it names the live directories of the server it belongs to. */
function literalContext(f: FoundFile): IncludeContext {
  return { serverRoot: literalServerRoot(path.dirname(f.preferredPath)), variables: null };
}

/** The names a file was found under, and its real name (realPath falls back to the path found). */
function namesOf(f: FoundFile): string[] {
  return [...f.paths.map((p) => path.basename(p)), path.basename(f.realPath)];
}

function hasMainName(f: FoundFile): boolean {
  return namesOf(f).some(isMainConfigName);
}

function isMainCandidate(f: FoundFile): boolean {
  if (namesOf(f).some(isHtaccess)) return false;
  return hasMainName(f) || hasServerDirectives(f.facts);
}
