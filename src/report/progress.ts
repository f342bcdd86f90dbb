/**
 * Progress on standard error while servers run: `servers [bar] done/total | rate servers/s | ETA`.
 * Only on a terminal (stderr is a TTY) outside CI (`CI` unset or empty), not while the diff streams
 * onto that terminal, and only once the run
 * has lasted PROGRESS_AFTER_MS, so quick runs print nothing extra; the bar is cleared when the
 * run ends, before the findings and the summary are printed.
 */
import { SingleBar } from 'cli-progress';
import type { Progress } from '../run/main';

export const PROGRESS_AFTER_MS = 1000;

/** Overrides PROGRESS_AFTER_MS (milliseconds); the tests set 0. */
export const PROGRESS_AFTER_ENV = 'HTTPD_CODEMOD_PROGRESS_AFTER_MS';

export class ProgressBar implements Progress {
  private bar: SingleBar | null = null;
  private timer: NodeJS.Timeout | null = null;
  private total = 0;
  private done = 0;
  private began = 0;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly afterMs = PROGRESS_AFTER_MS,
    private readonly now: () => number = Date.now,
  ) {}

  start(total: number): void {
    this.total = total;
    this.began = this.now();
    if (total === 0) return;
    this.timer = setTimeout(() => this.show(), this.afterMs);
    this.timer.unref();
  }

  private rate(): string {
    const seconds = (this.now() - this.began) / 1000;
    return seconds > 0 ? (this.done / seconds).toFixed(1) : '0.0';
  }

  private show(): void {
    this.timer = null;
    if (this.done >= this.total) return;
    this.bar = new SingleBar({
      stream: this.stream,
      format: 'servers {bar} {value}/{total} | {rate} servers/s | ETA {eta_formatted}',
      barsize: 30,
      clearOnComplete: true,
      hideCursor: false,
      etaBuffer: 50,
    });
    this.bar.start(this.total, this.done, { rate: this.rate() });
  }

  update(done: number): void {
    this.done = done;
    this.bar?.update(done, { rate: this.rate() });
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.bar?.stop();
    this.bar = null;
  }
}

/**
 * A progress bar when `stream` is a terminal and `CI` is unset (or empty); undefined otherwise,
 * and when the diff streams onto the same terminal while servers run (it shows the progress, and
 * a bar redrawn between its lines would garble both).
 */
export function terminalProgress(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, options: { diffOnTerminal?: boolean } = {}): Progress | undefined {
  if (!stream.isTTY || (env.CI !== undefined && env.CI !== '') || options.diffOnTerminal) return undefined;
  const after = Number(env[PROGRESS_AFTER_ENV] ?? PROGRESS_AFTER_MS);
  return new ProgressBar(stream, Number.isFinite(after) && after >= 0 ? after : PROGRESS_AFTER_MS);
}
