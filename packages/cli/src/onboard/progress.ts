import type { OutputStream } from '../context.js';
import { bar } from '../render/format.js';

export function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return m < 60 ? `${m}:${s}` : `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${s}`;
}

/**
 * Progress on stderr: a redrawn bar with an ETA on a terminal, one plain line per event in CI
 * logs (where carriage returns turn into noise).
 */
export class Progress {
  private readonly started = Date.now();
  private done = 0;
  private timedDone = 0;
  private timedMs = 0;

  constructor(
    private readonly out: OutputStream,
    private readonly total: number,
  ) {}

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  /** ETA from commits actually processed in this run (skipped ones take no time). */
  private eta(): string {
    if (this.timedDone === 0) return '--';
    return duration((this.timedMs / this.timedDone) * (this.total - this.done));
  }

  status(sha: string, what: string): void {
    if (!this.tty) return;
    const line = `${bar(this.done / Math.max(1, this.total))} ${this.done}/${this.total} ${sha.slice(0, 7)} ${what} · ETA ${this.eta()}`;
    this.out.write(`\r\x1b[K${line}`);
  }

  /** A finished commit; `ms` is undefined for commits skipped without work. */
  finished(sha: string, result: string, ms?: number): void {
    this.done++;
    if (ms !== undefined) {
      this.timedDone++;
      this.timedMs += ms;
    }
    const timing = ms === undefined ? '' : ` (${duration(ms)})`;
    const line = `[${this.done}/${this.total}] ${sha.slice(0, 7)} ${result}${timing}`;
    this.out.write(this.tty ? `\r\x1b[K${line}\n` : `${line}\n`);
  }

  /** A message that must not be overwritten by the next redraw. */
  note(message: string): void {
    this.out.write(this.tty ? `\r\x1b[K${message}\n` : `${message}\n`);
  }

  elapsedMs(): number {
    return Date.now() - this.started;
  }
}
