#!/usr/bin/env node
/**
 * Command-line wiring (yargs) for `codemod`. The work happens in run/main.ts, which is loaded (with
 * the transforms and everything they use) only once the arguments are read and planning has
 * started on its worker: the two start side by side.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { terminalProgress } from './report/progress';
import { EXIT_ERROR } from './run/exit-codes';
import { defaultJobs } from './run/jobs';
import type { Mode, Output } from './run/main';
import { startPlan } from './run/plan-on-worker';

const out: Output = {
  stdout: (text) => process.stdout.write(Buffer.from(text, 'latin1')),
  stderr: (text) => process.stderr.write(text),
};

function listTransforms(): string {
  const { TRANSFORMS } = require('../transforms') as typeof import('../transforms');
  return TRANSFORMS.map((t) => `${t.id.padEnd(34)} ${String(t.order).padStart(5)}  ${t.title}\n${''.padEnd(42)}${t.row}\n`).join('');
}

function splitIds(values: unknown): string[] {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  return list.flatMap((v) => String(v).split(',')).map((s) => s.trim()).filter(Boolean);
}

function splitList(values: unknown): string[] {
  const list = Array.isArray(values) ? values : values === undefined ? [] : [values];
  return list.map(String).filter(Boolean);
}

/** `--verify` alone must not take the next argument (a path) as its value: it means `--verify=configtest`. */
function verifyFlag(argv: string[]): string[] {
  return argv.map((a) => (a === '--verify' ? '--verify=configtest' : a));
}

export async function cli(argv: string[]): Promise<number> {
  let exitCode = 0;
  const parser = yargs(verifyFlag(argv))
    .scriptName('codemod')
    .usage('$0 [options] <paths..>\n\nMigrate Apache httpd 2.2 configuration to httpd 2.4. Prints a unified diff unless --write or --check is given.')
    .command('$0 [paths..]', false)
    .command('explain <message>', 'explain an httpd 2.4 error message: its cause, the transform that fixes it, the manual remedy')
    .positional('paths', { type: 'string', array: true, describe: 'config files or directories (server trees)' })
    .option('write', { alias: 'w', type: 'boolean', describe: 'apply the changes in place (atomic writes)' })
    .option('check', { type: 'boolean', describe: 'print nothing but the files that would change; exit 1 if any would' })
    .option('patch', { type: 'string', describe: 'write the unified diff to FILE instead of standard output', requiresArg: true })
    .option('only', { type: 'string', requiresArg: true, describe: 'run only these transforms (ids, comma-separated or repeated)' })
    .option('skip', { type: 'string', requiresArg: true, describe: 'do not run these transforms' })
    .option('format', {
      choices: ['text', 'json', 'sarif', 'github'] as const,
      default: 'text' as const,
      describe: 'what standard output carries: the diff (text), or a report: JSON, SARIF 2.1.0, GitHub Actions annotations',
    })
    .option('report-dir', { type: 'string', requiresArg: true, describe: 'write a review site into DIR: index.html (every server), a page, patch and JSON per server' })
    .option('context', {
      // repeated, not `array: true`: an array option would swallow the paths after it
      type: 'string',
      requiresArg: true,
      describe: 'a main config (and what it includes) to read for the parents, AllowOverride, ServerRoot and modules of the files being migrated; never written (repeatable)',
    })
    .option('server-root', { type: 'string', describe: 'ServerRoot to resolve relative Include paths against', requiresArg: true })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'do not list info findings' })
    .option('httpd', { type: 'string', requiresArg: true, describe: 'a 2.4 httpd binary to probe for built-in modules and its module directory' })
    .option('mpm', { choices: ['prefork', 'worker', 'event'] as const, describe: 'MPM to load when the 2.2 config does not say (default prefork)' })
    .option('pin-defaults', { type: 'boolean', default: false, describe: 'write the 2.2 values of settings whose default changed in 2.4' })
    .option('dual-syntax', { type: 'boolean', default: false, describe: 'write access rules that work on both 2.2 and 2.4' })
    .option('jobs', { alias: 'j', type: 'number', requiresArg: true, describe: `servers to run at once on worker threads (default: the machine's cores, ${defaultJobs()} here)` })
    .option('verify', {
      type: 'string',
      describe: 'before writing, stage each migrated server and let the httpd (--httpd, else apache2/httpd on PATH) check it with -t; --verify=requests also starts it on loopback ports and replays requests derived from the config. A refused server is not written (exit 2)',
    })
    .option('list-transforms', { type: 'boolean', default: false, describe: 'print the ordered transforms and exit' })
    .conflicts('write', 'check')
    .strict()
    .help()
    .version()
    .exitProcess(false)
    .fail((message, error) => {
      process.stderr.write(`codemod: ${message ?? error?.message}\nRun codemod --help for usage.\n`);
      exitCode = EXIT_ERROR;
    });
  const args = parser.parseSync();
  if (exitCode !== 0) return exitCode;
  if (args.help || args.version) return 0;
  if (args._[0] === 'explain') {
    const { explain } = require('./explain/explain') as typeof import('./explain/explain');
    const answer = explain(String(args.message ?? ''));
    process.stdout.write(answer.text);
    return answer.matched ? 0 : 1;
  }
  if (args['list-transforms']) {
    process.stdout.write(listTransforms());
    return 0;
  }
  const paths = (args.paths as string[] | undefined) ?? [];
  if (paths.length === 0) {
    process.stderr.write('codemod: no paths given\nRun codemod --help for usage.\n');
    return EXIT_ERROR;
  }
  const mode: Mode = args.write ? 'write' : args.check ? 'check' : 'diff';
  const verify = args.verify === undefined ? undefined : args.verify === 'configtest' || args.verify === '' ? 'configtest' : args.verify === 'requests' ? 'requests' : null;
  if (verify === null) {
    process.stderr.write(`codemod: --verify takes no value or =requests, not ${args.verify}\nRun codemod --help for usage.\n`);
    return EXIT_ERROR;
  }
  const jobs = args.jobs === undefined ? defaultJobs() : args.jobs;
  if (!Number.isInteger(jobs) || jobs < 1) {
    process.stderr.write(`codemod: --jobs takes a whole number of at least 1, not ${args.jobs}\nRun codemod --help for usage.\n`);
    return EXIT_ERROR;
  }
  const serverRoot = args['server-root'];
  const context = splitList(args.context);
  const planning = startPlan(paths, { cwd: undefined, serverRoot, context });
  try {
    const { main } = require('./run/main') as typeof import('./run/main');
    return await main(
      {
        paths,
        planning,
        mode,
        patchFile: args.patch,
        only: splitIds(args.only),
        skip: splitIds(args.skip),
        format: args.format,
        serverRoot,
        context,
        quiet: args.quiet,
        runOptions: { httpd: args.httpd, mpm: args.mpm, pinDefaults: args['pin-defaults'], dualSyntax: args['dual-syntax'] },
        jobs,
        reportDir: args['report-dir'],
        progress: terminalProgress(process.stderr, process.env, {
          diffOnTerminal: mode === 'diff' && args.format === 'text' && !args.patch && process.stdout.isTTY === true,
        }),
        ...(verify ? { verify } : {}),
      },
      out,
    );
  } catch (error) {
    planning.cancel();
    process.stderr.write(`codemod: ${(error as Error).message}\n`);
    return EXIT_ERROR;
  }
}

if (require.main === module) {
  cli(hideBin(process.argv)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`codemod: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_ERROR;
    },
  );
}
