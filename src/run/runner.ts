/**
 * Runs the ordered transforms over each server and collects, per file, the
 * new text and the findings. One broken file never stops the batch: a file
 * that does not parse cleanly, or whose transform throws, keeps its original
 * bytes and is reported as an error.
 */
import { ConfigFile, Node, fileOf, parse } from '../cst';
import { NameIndex, nameIndex } from '../cst/name-index';
import { writtenFor24 } from '../semantics/era';
import { Discovery, InputError, ServerTree, SourceFile } from '../server/types';
import { Finding, Severity } from '../model/finding';
import { ModuleRequest } from '../model/module-request';
import { RunOptions } from '../model/run-options';
import { ModulePlanEntry } from '../model/server-outcome';
import { Transform, TransformContext } from '../../transforms/types';

export type FileStatus = 'changed' | 'unchanged' | 'error';

export interface FileResult {
  readonly file: SourceFile;
  readonly status: FileStatus;
  /** The text to write (equal to the original unless status is 'changed'). */
  readonly output: string;
  /** Why the file was left alone, when status is 'error'. */
  readonly error?: InputError;
}

export interface RunResult {
  readonly files: FileResult[];
  readonly findings: Finding[];
  /** Input errors (missing, unreadable, binary) and per-file failures. */
  readonly errors: InputError[];
  readonly skipped: Discovery['skipped'];
}

function lineOf(node: Node | null): number {
  return node ? node.line : 0;
}

export class ServerRun {
  readonly findings: Finding[] = [];
  readonly moduleRequests: ModuleRequest[] = [];
  readonly modulePlan: ModulePlanEntry[] = [];
  /** Files left alone, by realPath, with the reason. */
  readonly failed = new Map<string, InputError>();

  constructor(
    readonly server: ServerTree,
    readonly options: RunOptions,
  ) {}

  context(transform: Transform, file: SourceFile | null): TransformContext {
    const record = (target: SourceFile, node: Node | null, code: string, message: string, severity: Severity) => {
      this.findings.push({ code, severity, message, file: target.displayPath, line: lineOf(node), transform: transform.id });
    };
    return {
      server: this.server,
      file,
      options: this.options,
      moduleRequests: this.moduleRequests,
      note: (node, code, message, severity = 'info') => {
        if (!file) throw new Error(`${transform.id}: note() needs a file; use noteIn() in applyServer`);
        record(file, node, code, message, severity);
      },
      noteIn: (target, node, code, message, severity = 'info') => record(target, node, code, message, severity),
      planModule: (entry) => {
        this.modulePlan.push(entry);
      },
      requireModule: (module, reason, at = null) => {
        const node = at && 'tree' in at ? null : at;
        // the file being transformed wins: the owner of `at` is looked for only in applyServer
        const owner = file ? null : at && 'tree' in at ? at : node ? this.sourceOf(node) : null;
        const where = file ?? owner ?? this.server.main ?? this.server.files[0];
        this.moduleRequests.push({ module, reason, file: where.displayPath, line: lineOf(node), transform: transform.id });
      },
    };
  }

  /** Files by tree, for sourceOf; rebuilt when a file's tree was replaced (fail() parses it again) since. */
  private owners: Map<ConfigFile, SourceFile> | null = null;

  /** The server file whose tree holds `node`, if any (the first one, as a search of server.files would find). */
  sourceOf(node: Node): SourceFile | null {
    const tree = fileOf(node);
    if (!tree) return null;
    let found = this.owners?.get(tree);
    if (found === undefined || found.tree !== tree) {
      this.owners = new Map();
      for (const f of this.server.files) if (!this.owners.has(f.tree)) this.owners.set(f.tree, f);
      found = this.owners.get(tree);
    }
    return found ?? null;
  }

  fail(file: SourceFile, error: InputError): void {
    if (!this.failed.has(file.realPath)) this.failed.set(file.realPath, error);
    file.tree = parse(file.original);
    this.healthyFiles = null;
  }

  /** healthy()'s answer until a file fails (the server's files and their roles do not change during a run). */
  private healthyFiles: readonly SourceFile[] | null = null;

  /** Files transforms may edit: not failed, and not read for context only (--context). Do not change the array. */
  healthy(): readonly SourceFile[] {
    return (this.healthyFiles ??= this.server.files.filter((f) => !this.failed.has(f.realPath) && f.role !== 'context'));
  }
}

/**
 * Findings a transform may report against a context file (--context): what the migrated files need
 * from it and the run could not write there. Anything else about a context file is not the run's
 * business and is dropped.
 */
const CONTEXT_FINDINGS = new Set(['module-needed', 'context-override-needed']);

/**
 * A file placed as if included is not read by the server today: nothing in it needs a human before
 * 2.4 starts, so its `manual` findings are reported as `review`, saying when they matter.
 */
function softenSwitchedOff(run: ServerRun): void {
  const off = new Set(run.server.files.filter((f) => f.asIf !== undefined).map((f) => f.displayPath));
  if (off.size === 0) return;
  run.findings.forEach((f, i) => {
    if (!off.has(f.file) || f.severity !== 'manual') return;
    run.findings[i] = { ...f, severity: 'review', message: `not read by the server today; before switching this file on: ${f.message}` };
  });
}

/** Context files are read, never written: whatever a server-wide transform did to their trees is undone. */
function releaseContext(run: ServerRun): void {
  for (const file of run.server.files) {
    if (file.role === 'context' && !file.tree.printsAs(file.original)) file.tree = parse(file.original);
  }
  const contextPaths = new Set(run.server.files.filter((f) => f.role === 'context').map((f) => f.displayPath));
  if (contextPaths.size === 0) return;
  const kept = run.findings.filter((f) => !contextPaths.has(f.file) || CONTEXT_FINDINGS.has(f.code));
  // a loop, not splice(…, ...kept): a large server's findings outnumber the arguments one call can take
  run.findings.length = 0;
  for (const f of kept) run.findings.push(f);
}

/** Checks what must hold before any transform touches a file. */
function precheck(file: SourceFile): InputError | null {
  const { tree } = file;
  if (!tree.printsAs(file.original)) {
    return { path: file.displayPath, message: 'internal error: the parsed tree does not print back the same bytes' };
  }
  const first = tree.diagnostics[0];
  if (first) return { path: file.displayPath, line: first.line, message: first.message };
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Which transforms a file's names trigger, worked out once per version of the file's tree: the
 * file's distinct names (its name index's keys) are looked up in a map from trigger name to
 * transforms, instead of every transform asking the index for each of its names in every file.
 * An answer is kept with the index it was read from; an edit makes a new index (name-index.ts),
 * so the next question about that file reads the new one.
 */
class Dispatcher {
  /** Position of each transform with triggers, in the marks below. */
  private readonly slot = new Map<Transform, number>();
  private readonly byDirective = new Map<string, number[]>();
  private readonly bySection = new Map<string, number[]>();
  private readonly marks = new Map<ConfigFile, { index: NameIndex; triggered: boolean[] }>();

  constructor(transforms: readonly Transform[]) {
    const enlist = (map: Map<string, number[]>, names: readonly string[] | undefined, slot: number) => {
      for (const name of names ?? []) {
        const lower = name.toLowerCase();
        const list = map.get(lower);
        if (list) list.push(slot);
        else map.set(lower, [slot]);
      }
    };
    for (const t of transforms) {
      if (!t.triggers || this.slot.has(t)) continue;
      const slot = this.slot.size;
      this.slot.set(t, slot);
      enlist(this.byDirective, t.triggers.directives, slot);
      enlist(this.bySection, t.triggers.sections, slot);
    }
  }

  /** The transform's slot, or null when it has no triggers (it runs everywhere). */
  slotOf(transform: Transform): number | null {
    return this.slot.get(transform) ?? null;
  }

  /** Whether the transform in `slot` has something to look at in this tree (always, for null: no triggers). */
  concerns(slot: number | null, tree: ConfigFile): boolean {
    if (slot === null) return true;
    const index = nameIndex(tree);
    let known = this.marks.get(tree);
    if (known === undefined || known.index !== index) {
      const triggered: boolean[] = [];
      const mark = (map: ReadonlyMap<string, number[]>, names: Iterable<string>) => {
        for (const name of names) {
          const slots = map.get(name);
          if (slots !== undefined) for (const s of slots) triggered[s] = true;
        }
      };
      mark(this.byDirective, index.directivesByName.keys());
      mark(this.bySection, index.sectionsByName.keys());
      known = { index, triggered };
      this.marks.set(tree, known);
    }
    return known.triggered[slot] === true;
  }
}

export function runServer(server: ServerTree, transforms: readonly Transform[], options: RunOptions): ServerRun {
  const run = new ServerRun(server, options);
  const dispatcher = new Dispatcher(transforms);
  for (const file of server.files) {
    const problem = precheck(file);
    if (problem && file.role !== 'context') run.fail(file, problem);
  }
  for (const transform of transforms) {
    // a transform that writes back 2.2's meaning sees no file written for 2.4
    const shown = (f: SourceFile) => !transform.restores22Meaning || !f.writtenFor24;
    const slot = dispatcher.slotOf(transform);
    if (transform.applyFile) {
      // a file that fails meanwhile gets a new list (fail()), this loop goes on over the one it took
      for (const file of transform.restores22Meaning ? run.healthy().filter(shown) : run.healthy()) {
        if (!dispatcher.concerns(slot, file.tree)) continue;
        try {
          transform.applyFile(file.tree, run.context(transform, file));
        } catch (error) {
          run.fail(file, { path: file.displayPath, message: `transform ${transform.id} failed: ${describe(error)}` });
        }
      }
    }
    if (transform.applyServer && (slot === null || server.files.some((f) => dispatcher.concerns(slot, f.tree)))) {
      try {
        const view: ServerTree = transform.restores22Meaning
          ? { ...server, main: server.main && shown(server.main) ? server.main : null, files: server.files.filter(shown) }
          : server;
        transform.applyServer(view, run.context(transform, null));
      } catch (error) {
        for (const file of run.healthy()) {
          run.fail(file, { path: file.displayPath, message: `transform ${transform.id} failed for server ${server.id}: ${describe(error)}` });
        }
      }
    }
  }
  releaseContext(run);
  softenSwitchedOff(run);
  return run;
}

export function fileResult(file: SourceFile, failed: InputError | undefined): FileResult {
  if (failed) return { file, status: 'error', output: file.original, error: failed };
  // an untouched tree is told apart without printing it
  if (file.tree.printsAs(file.original)) return { file, status: 'unchanged', output: file.original };
  const output = file.tree.print();
  return { file, status: output === file.original ? 'unchanged' : 'changed', output };
}

export function run(discovery: Discovery, transforms: readonly Transform[], options: RunOptions = {}): RunResult {
  const files: FileResult[] = [];
  const findings: Finding[] = [];
  const errors: InputError[] = [...discovery.errors];
  for (const server of discovery.servers) {
    const result = runServer(server, transforms, options);
    const failedPaths = new Set<string>();
    for (const file of server.files) {
      const failed = result.failed.get(file.realPath);
      if (failed) {
        errors.push(failed);
        failedPaths.add(file.displayPath);
      }
      files.push(fileResult(file, failed));
    }
    for (const f of result.findings) if (!failedPaths.has(f.file)) findings.push(f);
  }
  return { files, findings, errors, skipped: discovery.skipped };
}

/**
 * Transforms one text on its own, as a one-file server (fixtures, tests, benchmarks):
 * a whole server's main config, a fragment, or a .htaccess file.
 */
export function transformText(
  text: string,
  transforms: readonly Transform[],
  options: RunOptions = {},
  displayPath = 'input.conf',
  role: 'main' | 'fragment' | 'htaccess' = 'fragment',
): { output: string; findings: Finding[]; errors: InputError[] } {
  const tree = parse(text);
  const file: SourceFile = { realPath: '/' + displayPath, displayPath, role, original: text, tree, ...(writtenFor24(tree) ? { writtenFor24: true } : {}) };
  const main = role === 'main' ? file : null;
  const server: ServerTree = { id: displayPath, main, serverRoot: null, files: [file], includes: new Map() };
  const result = run({ servers: [server], errors: [], skipped: [] }, transforms, options);
  return { output: result.files[0].output, findings: result.findings, errors: result.errors };
}

