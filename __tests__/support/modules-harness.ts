/**
 * Helpers for the module planner's tests against the real httpd 2.4: migrate a copied server
 * tree with only the module transforms (rename-module-references, load-modules), and run
 * `apache2 -t` on it while setting aside the lines other transforms own.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { run, RunResult } from '../../src/run/runner';
import { discover } from '../../src/server/discover';
import { loadModules } from '../../transforms/load-modules';
import { renameModuleReferences } from '../../transforms/rename-module-references';
import { RunOptions } from '../../src/model/run-options';
import { isKnownDirective24 } from '../../src/modules/table';
import { APACHE2, MODULES_DIR } from './httpd';

export const MODULE_TRANSFORMS = [renameModuleReferences, loadModules];

/** Copies a directory tree (symlinks kept as links). */
export function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/** Runs the module transforms on `paths` and writes every changed file; returns the run. */
export function migrate(paths: readonly string[], options: RunOptions, transforms = MODULE_TRANSFORMS): RunResult {
  const discovery = discover(paths, { cwd: path.dirname(paths[0]) });
  const result = run(discovery, transforms, options);
  for (const f of result.files) {
    if (f.status === 'changed') fs.writeFileSync(f.file.realPath, Buffer.from(f.output, 'latin1'));
  }
  return result;
}

export interface ConfigtestRun {
  readonly ok: boolean;
  /** The last output of `apache2 -t`. */
  readonly output: string;
  /** Lines commented out because 2.4 has no such directive at all (another transform's job), as `file:line: text`. */
  readonly setAside: string[];
}

/**
 * `apache2 -t` on `args`, repeated while the error is "Invalid command 'X'" for an X that
 * httpd 2.4 does not define at all (removed in 2.4, e.g. LockFile: another transform's job):
 * that line is commented out in the copy and the test runs again. An "Invalid command" for
 * a directive 2.4 has — a module not loaded — stops the loop: that is the planner's concern.
 */
export function configtestSettingAside(args: readonly string[], env: NodeJS.ProcessEnv = {}): ConfigtestRun {
  const setAside: string[] = [];
  for (let i = 0; i < 40; i++) {
    const r = spawnSync(APACHE2, ['-t', ...args], { encoding: 'utf8', env: { ...process.env, ...env, LC_ALL: 'C' } });
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
    if (r.status === 0) return { ok: true, output, setAside };
    const m = /Syntax error on line (\d+) of ([^:]+):\s*\n?\s*Invalid command '([^']+)'/.exec(output);
    if (!m || isKnownDirective24(m[3])) return { ok: false, output, setAside };
    const [, lineText, file, name] = m;
    const lines = fs.readFileSync(file, 'latin1').split('\n');
    const n = Number(lineText) - 1;
    setAside.push(`${file}:${n + 1}: ${lines[n]}`);
    lines[n] = `#${lines[n]}`;
    fs.writeFileSync(file, lines.join('\n'), 'latin1');
    if (!name) break;
  }
  return { ok: false, output: 'too many lines set aside', setAside };
}

/** `modules` → the real module directory, so `modules/mod_x.so` resolves under a copied ServerRoot. */
export function linkModules(serverRoot: string): void {
  const link = path.join(serverRoot, 'modules');
  if (!fs.existsSync(link)) fs.symlinkSync(MODULES_DIR, link);
}

/** Replaces every occurrence of `from` in the text files under `dir` (test-side path mapping). */
export function replaceInTree(dir: string, from: string, to: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) replaceInTree(p, from, to);
    else if (entry.isFile()) {
      const text = fs.readFileSync(p, 'latin1');
      if (text.includes(from)) fs.writeFileSync(p, text.split(from).join(to), 'latin1');
    }
  }
}
