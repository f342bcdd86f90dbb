/**
 * Follows Include / IncludeOptional lines from a main config, recursively and
 * cycle-safe, in the order httpd reads them (depth first: an included file's
 * own includes come before the next line of its includer). Include lines
 * nested in sections (<IfModule>, <VirtualHost>…) count: discovery cannot
 * tell which conditions hold, and their files must be migrated either way.
 */
import * as path from 'path';
import { expandIncludeVariables } from './envvars';
import { expandIncludePattern } from './expand-include-pattern';
import { COMMENTED_INCLUDE, FileFacts } from './file-facts';
import { FileRegistry, FoundFile } from './file-registry';
import { BINARY_MESSAGE } from './read-source';
import { ServerRoot } from './server-root';

export interface IncludeContext {
  readonly serverRoot: ServerRoot;
  /** `${VAR}` values (from Debian's envvars), or null when none are known. */
  readonly variables: ReadonlyMap<string, string> | null;
}

export interface IncludeLine {
  readonly line: number;
  readonly arg: string;
}

const INCLUDE = ['Include', 'IncludeOptional'];

export function includeLines(facts: FileFacts): IncludeLine[] {
  const out: IncludeLine[] = [];
  for (const d of facts.get(...INCLUDE)) {
    const values = d.values;
    if (values.length > 0 && values[0] !== '') out.push({ line: d.line, arg: values[0] });
  }
  return out;
}

/** Whether a file acts like a main config: it includes others or sets ServerRoot. */
export function hasServerDirectives(facts: FileFacts): boolean {
  return facts.get(...INCLUDE, 'ServerRoot').length > 0;
}

/**
 * The files one Include argument reaches, in httpd's order; [] when unresolvable or matching
 * nothing. `expand` turns the absolute pattern into files (a planning pass remembers them: FileRegistry.expand).
 */
export function includeTargets(arg: string, ctx: IncludeContext, expand: (absPattern: string) => readonly string[] = expandIncludePattern): readonly string[] {
  const expanded = expandIncludeVariables(arg, ctx.variables);
  if (expanded === null) return [];
  const abs = path.isAbsolute(expanded)
    ? ctx.serverRoot.map(path.resolve(expanded))
    : path.resolve(ctx.serverRoot.root, expanded);
  return expand(abs);
}

export interface Problem {
  /** Absolute path of the file concerned. */
  readonly absPath: string;
  readonly message: string;
}

export interface IncludeClosure {
  /** The main config, then every file it reaches, each once, in include order. */
  readonly order: FoundFile[];
  /** For each file in `order`, the files its Include lines reached (each once, in order). */
  readonly edges: ReadonlyMap<FoundFile, readonly FoundFile[]>;
  /** Reached files that could not be read. */
  readonly errors: Problem[];
  /** Reached files passed over (binary). */
  readonly skipped: Problem[];
}

/** How a file no Include reaches was placed in a server: the line that would include it. */
export interface VirtualInclusion {
  /** The file holding the line. */
  readonly by: FoundFile;
  readonly line: number;
  /** The line, as the user would read it (`#Include conf/extra/httpd-dav.conf`, the `sites-available/` twin of `Include sites-enabled/`). */
  readonly how: string;
}

export interface VirtualIncludes {
  /** Files that may be placed through a virtual line (found by the run, in no other server). */
  readonly eligible: (file: FoundFile) => boolean;
  /** The files the main's real Include lines reach (its closure without virtual lines), when already known. */
  readonly real?: ReadonlySet<FoundFile>;
}

/**
 * Lines that would include files if the administrator switched them on: a commented-out
 * `#Include path` (Apache's own httpd.conf enables its extra/ files this way), and for an Include
 * of a Debian-style `X-enabled` directory the same pattern over `X-available` (a2ensite / a2enmod /
 * a2enconf link one into the other).
 */
function virtualLines(facts: FileFacts): (IncludeLine & { how: string })[] {
  const out: (IncludeLine & { how: string })[] = [];
  for (const d of facts.get(COMMENTED_INCLUDE)) {
    if (d.values.length > 0 && d.values[0] !== '') out.push({ line: d.line, arg: d.values[0], how: `#Include ${d.values[0]} (commented out)` });
  }
  for (const l of includeLines(facts)) {
    const twin = l.arg.replace(/(^|\/)([^/]*)-enabled(\/|$)/, '$1$2-available$3');
    if (twin !== l.arg) out.push({ line: l.line, arg: twin, how: `${twin}, the files a2en* would link into ${l.arg}` });
  }
  return out;
}

export function followIncludes(
  main: FoundFile,
  registry: FileRegistry,
  ctx: IncludeContext,
  display: (absPath: string) => string,
  virtual?: VirtualIncludes,
): IncludeClosure & { readonly virtual: ReadonlyMap<FoundFile, VirtualInclusion> } {
  // the real closure first: a file an Include reaches keeps its place even when a switched-off line names it earlier
  const real = virtual ? (virtual.real ?? new Set(followIncludes(main, registry, ctx, display).order)) : null;
  const order: FoundFile[] = [];
  const edges = new Map<FoundFile, FoundFile[]>();
  const errors: Problem[] = [];
  const skipped: Problem[] = [];
  const visited = new Set<FoundFile>();
  const placed = new Map<FoundFile, VirtualInclusion>();

  const visit = (file: FoundFile, filePath: string, inVirtual: boolean): void => {
    visited.add(file);
    order.push(file);
    const reached: FoundFile[] = [];
    edges.set(file, reached);
    const lines: (IncludeLine & { how?: string })[] = [...includeLines(file.facts)];
    if (virtual) lines.push(...virtualLines(file.facts));
    lines.sort((a, b) => a.line - b.line || Number(a.how !== undefined) - Number(b.how !== undefined));
    for (const include of lines) {
      const switchedOff = include.how !== undefined || inVirtual;
      for (const target of includeTargets(include.arg, ctx, (p) => registry.expand(p))) {
        if (switchedOff) {
          // a line that is not in force: only files the run found and no real Include reaches, and no complaints
          // (looked up, not loaded: the path must not become one the file is shown under)
          const met = registry.find(target);
          if (!met || visited.has(met) || real?.has(met) || !virtual?.eligible(met)) continue;
          placed.set(met, { by: file, line: include.line, how: include.how ?? `Include ${include.arg} of a file placed the same way` });
          visit(met, target, true);
          continue;
        }
        const loaded = registry.load(target);
        if (loaded.kind === 'error') {
          const where = `${display(filePath)} line ${include.line}`;
          errors.push({ absPath: target, message: `${loaded.message} (included from ${where})` });
        } else if (loaded.kind === 'binary') {
          skipped.push({ absPath: target, message: BINARY_MESSAGE });
        } else if (loaded.kind === 'file') {
          if (!reached.includes(loaded.file)) reached.push(loaded.file);
          if (!visited.has(loaded.file)) visit(loaded.file, target, false);
        }
      }
    }
  };
  visit(main, main.preferredPath, false);
  return { order, edges, errors, skipped, virtual: placed };
}
