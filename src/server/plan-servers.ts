/**
 * planServers(paths) → the servers to migrate, as plans (paths and Include graph, no texts or
 * trees).
 *
 * Inputs are files or directories. While planning, every file is read once, whatever number of
 * paths (symlinks, hardlinks, Include lines) lead to it, and only the facts discovery needs are
 * kept (file-facts.ts); a server's files are parsed when it runs (load-server.ts), so a fleet's
 * plan stays small. Bad input never throws: it becomes an InputError, and the rest proceeds.
 *
 * This module is what the plan worker loads (plan-worker.ts): it imports neither the loader nor
 * anything of semantics/, so the worker starts planning sooner.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DiscoverOptions, InputError, Plan } from './types';
import { comparePaths, toDisplayPath } from './display-path';
import { FileRegistry, FoundFile, OnRead } from './file-registry';
import { groupServers } from './group-servers';
import { BINARY_MESSAGE, describeFsError } from './read-source';
import { scanDirectory } from './scan-directory';

/** `onRead` is told of each file read (plan-worker.ts hands the texts of a one-server run to the main thread). */
export function planServers(paths: readonly string[], options: DiscoverOptions = {}, onRead?: OnRead): Plan {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const display = (absPath: string): string => toDisplayPath(absPath, cwd);
  const registry = new FileRegistry(onRead);
  const errors: InputError[] = [];
  const skipped = new Map<string, { absPath: string; reason: string }>();
  const found: FoundFile[] = [];
  const seen = new Set<FoundFile>();
  const notConfig: string[] = [];

  const addFound = (file: FoundFile): void => {
    if (seen.has(file)) return;
    seen.add(file);
    found.push(file);
  };
  const skip = (absPath: string, reason: string): void => {
    if (!skipped.has(absPath)) skipped.set(absPath, { absPath, reason });
  };

  for (const given of paths) {
    const abs = path.resolve(cwd, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (err) {
      errors.push({ path: display(abs), message: describeFsError(err) });
      continue;
    }
    if (stat.isDirectory()) {
      const scan = scanDirectory(abs, registry.realPaths);
      scan.skipped.forEach((s) => skip(s.path, s.reason));
      // a loop: a tree may hold more other files (web content) than one call takes arguments
      for (const other of scan.otherFiles) notConfig.push(other);
      for (const file of scan.configFiles) {
        const loaded = registry.load(file);
        if (loaded.kind === 'file') addFound(loaded.file);
        else if (loaded.kind === 'binary') skip(file, BINARY_MESSAGE);
        else if (loaded.kind === 'error') errors.push({ path: display(file), message: loaded.message });
      }
      continue;
    }
    const loaded = registry.load(abs);
    if (loaded.kind === 'file') addFound(loaded.file);
    else if (loaded.kind === 'binary') errors.push({ path: display(abs), message: BINARY_MESSAGE });
    else if (loaded.kind === 'error') errors.push({ path: display(abs), message: loaded.message });
  }

  const context: FoundFile[] = [];
  for (const given of options.context ?? []) {
    const abs = path.resolve(cwd, given);
    const loaded = registry.load(abs);
    if (loaded.kind === 'file') context.push(loaded.file);
    else if (loaded.kind === 'directory') errors.push({ path: display(abs), message: '--context takes a main config file, not a directory' });
    else if (loaded.kind === 'binary') errors.push({ path: display(abs), message: BINARY_MESSAGE });
    else errors.push({ path: display(abs), message: `--context: ${loaded.message}` });
  }

  const grouping = groupServers({
    found,
    context,
    unread: notConfig,
    registry,
    serverRootOverride: options.serverRoot !== undefined ? path.resolve(cwd, options.serverRoot) : null,
    display,
  });

  for (const problem of grouping.errors) {
    const error = { path: display(problem.absPath), message: problem.message };
    if (!errors.some((e) => e.path === error.path && e.message === error.message)) errors.push(error);
  }
  grouping.skipped.forEach((p) => skip(p.absPath, p.message));
  notConfig.forEach((p) => skip(p, 'not a configuration file name'));

  // A file an Include reached is no longer skipped, whatever its name.
  const used = new Set<string>();
  for (const f of grouping.members) {
    for (const p of f.paths) used.add(p);
    used.add(f.realPath);
  }
  const skippedList = [...skipped.values()]
    .filter((s) => !used.has(s.absPath) && !used.has(realPathOrSelf(s.absPath)))
    .map((s) => ({ path: display(s.absPath), reason: s.reason }))
    .sort((a, b) => comparePaths(a.path, b.path));

  return { servers: grouping.servers, errors, skipped: skippedList };
}

function realPathOrSelf(absPath: string): string {
  try {
    return fs.realpathSync.native(absPath);
  } catch {
    return absPath;
  }
}
