/**
 * Progress on stderr: only on a terminal, only outside CI, only for runs longer than a moment,
 * and never anything else changed. The terminal is a real pseudo-terminal made by `script`
 * (util-linux; Debian's bsdutils, an essential package).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import { PROGRESS_AFTER_ENV, PROGRESS_AFTER_MS, ProgressBar, terminalProgress } from '../src/report/progress';
import { BIN, codemod, tempDir, writeFile } from './support/report-fleet';

/** A stream that says it is a terminal and keeps what is written. */
function fakeTerminal(): { stream: NodeJS.WriteStream; written: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & PassThrough;
  Object.assign(stream, { isTTY: true, columns: 100 });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, written: () => text };
}

describe('ProgressBar', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('a run shorter than the delay prints nothing', () => {
    const t = fakeTerminal();
    const bar = new ProgressBar(t.stream, 1000);
    bar.start(5);
    for (let i = 1; i <= 5; i++) {
      jest.advanceTimersByTime(150);
      bar.update(i);
    }
    bar.stop();
    jest.advanceTimersByTime(5000);
    expect(t.written()).toBe('');
  });

  test('after the delay: servers done / total and the rate; cleared at the end', () => {
    const t = fakeTerminal();
    const bar = new ProgressBar(t.stream, 1000);
    bar.start(10);
    jest.advanceTimersByTime(500);
    bar.update(2);
    expect(t.written()).toBe('');
    jest.advanceTimersByTime(500); // 1 s: 2 servers in 1 s
    expect(t.written()).toMatch(/servers .* 2\/10 \| 2\.0 servers\/s \| ETA /);
    jest.advanceTimersByTime(1000);
    bar.update(6);
    jest.advanceTimersByTime(200);
    expect(t.written()).toMatch(/ 6\/10 \| 3\.0 servers\/s/);
    bar.stop();
    // the line is erased: what follows starts on a clean line
    expect(t.written()).toMatch(/\x1b\[2K[^\n]*$/);
  });

  test('no servers: nothing', () => {
    const t = fakeTerminal();
    const bar = new ProgressBar(t.stream, 0);
    bar.start(0);
    jest.advanceTimersByTime(1000);
    bar.stop();
    expect(t.written()).toBe('');
  });
});

test('terminalProgress: a TTY outside CI only', () => {
  const tty = fakeTerminal().stream;
  const pipe = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.WriteStream;
  expect(terminalProgress(tty, {})).toBeInstanceOf(ProgressBar);
  expect(terminalProgress(tty, { CI: '' })).toBeInstanceOf(ProgressBar);
  expect(terminalProgress(tty, { CI: 'true' })).toBeUndefined();
  expect(terminalProgress(tty, { CI: '1' })).toBeUndefined();
  expect(terminalProgress(pipe, {})).toBeUndefined();
  expect(terminalProgress(tty, {}, { diffOnTerminal: true })).toBeUndefined();
  expect(terminalProgress(tty, {}, { diffOnTerminal: false })).toBeInstanceOf(ProgressBar);
  expect(PROGRESS_AFTER_MS).toBe(1000);
});

describe('the CLI on a pseudo-terminal', () => {
  const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
  let tmp: string;

  beforeAll(() => {
    if (!SCRIPT) throw new Error('script (util-linux, Debian package bsdutils) is missing: this test does not skip');
  });
  beforeEach(() => {
    tmp = tempDir('codemod-progress-');
    for (let i = 0; i < 40; i++) writeFile(tmp, `fleet/site${String(i).padStart(2, '0')}.conf`, i % 3 === 0 ? 'MaxClients 5\n' : 'Listen 80\n');
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Runs codemod with stderr on a pseudo-terminal (what `script` records) and stdout into a file, or on the terminal too. */
  function onTerminal(args: string, env: NodeJS.ProcessEnv, stdoutToo = false): { terminal: string; stdout: string; status: number | null } {
    const base = { ...process.env };
    delete base.CI;
    delete base[PROGRESS_AFTER_ENV];
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${args}${stdoutToo ? '' : ' > out.txt'}`;
    const r = spawnSync(SCRIPT as string, ['-qec', command, '/dev/null'], { cwd: tmp, env: { ...base, ...env }, encoding: 'latin1' });
    const stdout = stdoutToo ? '' : fs.readFileSync(path.join(tmp, 'out.txt'), 'latin1');
    return { terminal: r.stdout.replace(/\r\n/g, '\n'), stdout, status: r.status };
  }

  test('shows servers done / total and the rate, then the same findings, summary and stdout as without', () => {
    const plain = codemod(tmp, ['--jobs', '1', 'fleet']);
    const r = onTerminal('--jobs 1 fleet', { [PROGRESS_AFTER_ENV]: '0' });
    expect(r.status).toBe(plain.status);
    expect(r.terminal).toMatch(/servers .*\d+\/40 \| \d+\.\d servers\/s \| ETA /);
    expect(r.stdout).toBe(plain.stdout);
    // the bar is erased before the report: the terminal ends with exactly what stderr says without it
    expect(r.terminal.endsWith(plain.stderr)).toBe(true);
    expect(r.terminal.length).toBeGreaterThan(plain.stderr.length);
    expect(plain.stderr).not.toMatch(/servers\/s|\x1b/);
  });

  test('not while the diff streams onto the same terminal; with --check or --write it shows', () => {
    const plain = codemod(tmp, ['--jobs', '1', 'fleet']);
    const both = onTerminal('--jobs 1 fleet', { [PROGRESS_AFTER_ENV]: '0' }, true);
    expect(both.terminal).toBe(plain.stdout + plain.stderr);
    const check = onTerminal('--check --jobs 1 fleet', { [PROGRESS_AFTER_ENV]: '0' }, true);
    expect(check.terminal).toMatch(/servers .*\d+\/40 \| /);
    expect(check.terminal.endsWith(codemod(tmp, ['--check', 'fleet']).stderr)).toBe(true);
  });

  test('with CI set, or a run shorter than a moment: byte for byte what a pipe gets', () => {
    const plain = codemod(tmp, ['--jobs', '2', 'fleet']);
    const ci = onTerminal('--jobs 2 fleet', { CI: 'true', [PROGRESS_AFTER_ENV]: '0' });
    expect(ci.terminal).toBe(plain.stderr);
    expect(ci.stdout).toBe(plain.stdout);
    expect(ci.status).toBe(plain.status);
    // the default delay: one small server is done long before it
    const quick = onTerminal('fleet/site00.conf', {});
    expect(quick.terminal).toBe(codemod(tmp, ['fleet/site00.conf']).stderr);
  });
});
