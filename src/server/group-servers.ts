/**
 * Groups the files found into servers.
 *
 * Main configs are the files named httpd.conf / apache2.conf and the files
 * that include others or set ServerRoot, unless another such file includes
 * them (in a cycle, a file named like a main config wins, then the first
 * by path). Each main owns itself and the
 * files it reaches, in include order; a file reached by two mains belongs to
 * the first by path. Every file found but reached by no main (.htaccess files,
 * fragments, disabled sites) is a server of its own.
 *
 * A file reached by no main is a per-directory file (role 'htaccess') when it
 * is named `.htaccess`, or when a main's AccessFileName names it and it lies
 * in a directory that server may serve (access-file-scope.ts). A scanned file
 * whose name is no configuration name is read only in that second case.
 */
import * as path from 'path';
import { FileRole, PlannedFile, ServerPlan } from './types';
import { comparePaths } from './display-path';
import { FileRegistry, FoundFile } from './file-registry';
import { isHtaccess, isMainConfigName } from './file-names';
import { AccessFileIndex, AccessFileScope, accessFileScope } from './access-file-scope';
import { includeContextFor } from './include-context';
import { BINARY_MESSAGE } from './read-source';
import { IncludeClosure, Problem, followIncludes, hasServerDirectives } from './resolve-includes';

export interface GroupInput {
  /** Files named on the command line or met by a directory scan. */
  readonly found: readonly FoundFile[];
  /**
   * Regular files a directory scan met whose names mark no configuration,
   * not read yet: each is read only when a main's AccessFileName names it.
   */
  readonly unread?: readonly string[];
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

export function groupServers(input: GroupInput): Grouping {
  const { display } = input;
  const candidates = input.found.filter(isMainCandidate);
  const closures = new Map<
    FoundFile,
    { closure: IncludeClosure; root: string; reached: Set<FoundFile>; accessFiles: AccessFileScope }
  >();
  for (const candidate of candidates) {
    const ctx = includeContextFor(candidate, input.serverRootOverride);
    const closure = followIncludes(candidate, input.registry, ctx, display);
    const accessFiles = accessFileScope(candidate.preferredPath, closure.order.map((f) => f.facts), ctx);
    closures.set(candidate, { closure, root: ctx.serverRoot.root, reached: new Set(closure.order), accessFiles });
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

  const reaches = (from: FoundFile, to: FoundFile): boolean =>
    from !== to && (closures.get(from)?.reached.has(to) ?? false);
  // in a cycle, httpd.conf / apache2.conf wins, then the first by path
  const firstInCycle = (a: FoundFile, b: FoundFile): boolean =>
    hasMainName(a) !== hasMainName(b) ? hasMainName(a) : byPath(a, b) < 0;
  const mains = candidates
    .filter((c) => !candidates.some((d) => reaches(d, c) && (!reaches(c, d) || firstInCycle(d, c))))
    .sort(byPath);

  const planned = new Map<FoundFile, PlannedFile>();
  const plannedOf = (f: FoundFile, role: FileRole): PlannedFile => {
    let file = planned.get(f);
    if (!file) {
      file = { realPath: realPathOf(f), displayPath: keyOf(f), role };
      planned.set(f, file);
    }
    return file;
  };

  const servers: ServerPlan[] = [];
  const errors: Problem[] = [];
  const skipped: Problem[] = [];
  const members = new Set<FoundFile>();
  for (const main of mains) {
    const { closure, root } = closures.get(main) as { closure: IncludeClosure; root: string };
    const owned = closure.order.filter((f) => !members.has(f));
    owned.forEach((f) => members.add(f));
    const files = owned.map((f) => plannedOf(f, f === main ? 'main' : 'included'));
    const includes = new Map<string, readonly string[]>();
    for (const f of owned) includes.set(realPathOf(f), (closure.edges.get(f) ?? []).map(realPathOf));
    servers.push({ id: keyOf(main), main: files[0], serverRoot: root, files, includes });
    errors.push(...closure.errors);
    skipped.push(...closure.skipped);
  }

  const scopes = new AccessFileIndex(mains.map((m) => (closures.get(m) as { accessFiles: AccessFileScope }).accessFiles));
  const isPerDirectory = (absPath: string): boolean => isHtaccess(path.basename(absPath)) || scopes.matches(absPath);

  const loose = input.found.filter((f) => !members.has(f));
  for (const absPath of input.unread ?? []) {
    if (!scopes.matches(absPath)) continue;
    const loaded = input.registry.load(absPath);
    if (loaded.kind === 'binary') skipped.push({ absPath, message: BINARY_MESSAGE });
    else if (loaded.kind === 'error') errors.push({ absPath, message: loaded.message });
    else if (loaded.kind === 'file' && !members.has(loaded.file) && !loose.includes(loaded.file)) loose.push(loaded.file);
  }
  loose.sort(byPath);
  for (const f of loose) {
    members.add(f);
    const role: FileRole = f.paths.some(isPerDirectory) ? 'htaccess' : 'fragment';
    const file = plannedOf(f, role);
    servers.push({
      id: file.displayPath,
      main: null,
      serverRoot: null,
      files: [file],
      includes: new Map([[file.realPath, []]]),
    });
  }
  return { servers, errors, skipped, members };
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
