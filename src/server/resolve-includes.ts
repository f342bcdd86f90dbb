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
import { FileFacts } from './file-facts';
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

/** The files one Include argument reaches, in httpd's order; [] when unresolvable or matching nothing. */
export function includeTargets(arg: string, ctx: IncludeContext): string[] {
  const expanded = expandIncludeVariables(arg, ctx.variables);
  if (expanded === null) return [];
  const abs = path.isAbsolute(expanded)
    ? ctx.serverRoot.map(path.resolve(expanded))
    : path.resolve(ctx.serverRoot.root, expanded);
  return expandIncludePattern(abs);
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

export function followIncludes(
  main: FoundFile,
  registry: FileRegistry,
  ctx: IncludeContext,
  display: (absPath: string) => string,
): IncludeClosure {
  const order: FoundFile[] = [];
  const edges = new Map<FoundFile, FoundFile[]>();
  const errors: Problem[] = [];
  const skipped: Problem[] = [];
  const visited = new Set<FoundFile>();

  const visit = (file: FoundFile, filePath: string): void => {
    visited.add(file);
    order.push(file);
    const reached: FoundFile[] = [];
    edges.set(file, reached);
    for (const include of includeLines(file.facts)) {
      for (const target of includeTargets(include.arg, ctx)) {
        const loaded = registry.load(target);
        if (loaded.kind === 'error') {
          const where = `${display(filePath)} line ${include.line}`;
          errors.push({ absPath: target, message: `${loaded.message} (included from ${where})` });
        } else if (loaded.kind === 'binary') {
          skipped.push({ absPath: target, message: BINARY_MESSAGE });
        } else if (loaded.kind === 'file') {
          if (!reached.includes(loaded.file)) reached.push(loaded.file);
          if (!visited.has(loaded.file)) visit(loaded.file, target);
        }
      }
    }
  };
  visit(main, main.preferredPath);
  return { order, edges, errors, skipped };
}
