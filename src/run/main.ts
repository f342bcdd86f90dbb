/**
 * One invocation of the tool, independent of argument parsing: discover,
 * transform, then report (diff, patch file, JSON) and write when asked.
 * Returns the exit code: 0 nothing left to do, 1 changes pending (dry run,
 * --check) or findings a human must act on, 2 usage, I/O or parse errors.
 */
import * as fs from 'fs';
import { selectTransforms } from '../../transforms';
import { errorLine, findingLines } from '../report/findings';
import { jsonReport } from '../report/json';
import { patchOf } from '../report/patch';
import { summarize, summaryLine } from '../report/summary';
import { discover } from '../server/discover';
import { InputError } from '../server/types';
import { RunOptions } from '../model/run-options';
import { run } from './runner';
import { writeFileSafely } from './write';

export type Mode = 'diff' | 'write' | 'check';

export interface MainOptions {
  readonly paths: readonly string[];
  readonly mode: Mode;
  readonly patchFile?: string;
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly format?: 'text' | 'json';
  readonly serverRoot?: string;
  readonly quiet?: boolean;
  readonly cwd?: string;
  /** Settings the transforms read (--httpd, --mpm, --pin-defaults, --dual-syntax). */
  readonly runOptions?: RunOptions;
}

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const EXIT_OK = 0;
export const EXIT_PENDING = 1;
export const EXIT_ERROR = 2;

export function main(options: MainOptions, out: Output): number {
  const transforms = selectTransforms(options.only, options.skip);
  const discovery = discover(options.paths, { cwd: options.cwd, serverRoot: options.serverRoot });
  const result = run(discovery, transforms, options.runOptions ?? {});
  const changed = result.files.filter((f) => f.status === 'changed');
  const patch = patchOf(changed.map((f) => ({ displayPath: f.file.displayPath, before: f.file.original, after: f.output })));

  const writeErrors: InputError[] = [];
  if (options.mode === 'write') {
    for (const f of changed) {
      try {
        writeFileSafely(f.file.realPath, f.output);
      } catch (error) {
        writeErrors.push({ path: f.file.displayPath, message: `cannot write: ${(error as Error).message}` });
      }
    }
  }
  if (options.patchFile) {
    try {
      fs.writeFileSync(options.patchFile, Buffer.from(patch, 'latin1'));
    } catch (error) {
      writeErrors.push({ path: options.patchFile, message: `cannot write the patch: ${(error as Error).message}` });
    }
  }
  result.errors.push(...writeErrors);
  const summary = summarize(result);

  if (options.format === 'json') {
    out.stdout(jsonReport(result, summary, patch, options.mode));
  } else {
    if (options.mode === 'diff' && !options.patchFile) out.stdout(patch);
    const lines: string[] = [];
    if (options.mode === 'check') {
      for (const f of changed) lines.push(`would change: ${f.file.displayPath}`);
    } else {
      lines.push(...findingLines(result.findings, { quiet: options.quiet }));
    }
    lines.push(...result.errors.map(errorLine));
    lines.push(summaryLine(summary, options.mode === 'write' ? 'changed' : 'would change'));
    out.stderr(lines.map((l) => l + '\n').join(''));
  }

  if (result.errors.length > 0) return EXIT_ERROR;
  if (options.mode === 'check') return changed.length > 0 ? EXIT_PENDING : EXIT_OK;
  if (options.mode === 'diff' && changed.length > 0) return EXIT_PENDING;
  return summary.needManual > 0 ? EXIT_PENDING : EXIT_OK;
}
