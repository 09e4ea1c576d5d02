import { type TextStream, withOwnSequences } from './io.js';

export interface ProgressBarOptions {
  /** Characters of the bar on a terminal. Default 28. */
  width?: number;
  /** What is counted, for the rate: `sessions` gives `sessions/s`. Default `items`. */
  unit?: string;
  /** Milliseconds clock; tests pass their own. */
  now?: () => number;
}

/** Off a terminal: say nothing for short work, then about one line per 10%, at least one per 30 s. */
const QUIET_START_MS = 2_000;
const LINE_STEP = 0.1;
const LINE_MAX_GAP_MS = 30_000;
/** On a terminal: redraw at most about 20 times a second. */
const REDRAW_MS = 50;

/** `12s`, `3m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function formatRate(rate: number): string {
  return rate >= 100 ? rate.toFixed(0) : rate >= 10 ? rate.toFixed(1) : rate.toFixed(2);
}

/**
 * Progress of long CLI work on stderr. On a terminal, a bar redrawn in place with the rate and an ETA.
 * Off a terminal (a pipe, CI, a log file), plain lines, few of them: none for work that ends within two
 * seconds, then one per 10% of progress or per 30 seconds, so logs show progress without flooding.
 */
export class ProgressBar {
  private readonly width: number;
  private readonly unit: string;
  private readonly now: () => number;
  private readonly startedAt: number;
  private lastDraw = Number.NEGATIVE_INFINITY;
  private lastLineShare = 0;
  private drawn = false;
  private lines = 0;
  private last: { done: number; total: number; detail: string; baseline: number } | undefined;

  private readonly stream: TextStream;

  constructor(
    stream: TextStream,
    private readonly label: string,
    options: number | ProgressBarOptions = {},
  ) {
    // The bar's carriage returns and erase-line are haggle's own: past the escaping of file text.
    this.stream = withOwnSequences(stream);
    const resolved = typeof options === 'number' ? { width: options } : options;
    this.width = resolved.width ?? 28;
    this.unit = resolved.unit ?? 'items';
    this.now = resolved.now ?? Date.now;
    this.startedAt = this.now();
  }

  /** Whether the bar is drawn in place (a terminal) rather than written as plain lines. */
  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  /**
   * `baseline`: work already done before this process started (sessions kept from a resumed file);
   * it counts towards the total but not towards the rate.
   */
  update(done: number, total: number, detail = '', baseline = 0): void {
    this.last = { done, total, detail, baseline };
    const now = this.now();
    if (this.enabled) {
      if (done < total && now - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = now;
      this.stream.write(`\r${this.describe(done, total, detail, baseline, now, true)}\x1b[K`);
      this.drawn = true;
      return;
    }
    if (now - this.startedAt < QUIET_START_MS || done >= total) return;
    const share = total === 0 ? 1 : done / total;
    if (share - this.lastLineShare < LINE_STEP && now - this.lastDraw < LINE_MAX_GAP_MS) return;
    this.writeLine(done, total, detail, baseline, now);
  }

  /** Ends the bar's line on a terminal; off one, writes a last line if any line was written. */
  finish(): void {
    if (this.enabled) {
      if (this.drawn) this.stream.write('\n');
      return;
    }
    if (this.lines > 0 && this.last) {
      const { done, total, detail, baseline } = this.last;
      this.writeLine(done, total, detail, baseline, this.now());
    }
  }

  private writeLine(done: number, total: number, detail: string, baseline: number, now: number): void {
    this.lastDraw = now;
    this.lastLineShare = total === 0 ? 1 : done / total;
    this.lines++;
    this.stream.write(`${this.describe(done, total, detail, baseline, now, false)}\n`);
  }

  private describe(
    done: number,
    total: number,
    detail: string,
    baseline: number,
    now: number,
    bar: boolean,
  ): string {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const seconds = (now - this.startedAt) / 1000;
    const rate = seconds > 0 ? (done - baseline) / seconds : 0;
    const parts = [this.label];
    if (bar) {
      const filled = Math.round(share * this.width);
      parts.push(`${'█'.repeat(filled)}${'░'.repeat(this.width - filled)}`);
    }
    parts.push(`${done}/${total}`);
    if (detail) parts.push(detail);
    parts.push(`${Math.floor(share * 100)}%`);
    if (rate > 0) parts.push(`${formatRate(rate)} ${this.unit}/s`);
    if (rate > 0 && done < total) parts.push(`eta ${formatDuration((total - done) / rate)}`);
    if (done >= total) parts.push(`in ${formatDuration(seconds)}`);
    return parts.join(' ');
  }
}
