/**
 * A one-line progress bar for long CLI work, redrawn in place on a terminal. Off the terminal (a pipe,
 * CI) it stays silent, so logs are not flooded with carriage returns.
 */
export class ProgressBar {
  private lastDraw = 0;
  private drawn = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly label: string,
    private readonly width = 28,
  ) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(done: number, total: number, detail = ''): void {
    if (!this.enabled) return;
    const now = Date.now();
    // Redraw at most ~20 times a second, and always for the last step.
    if (done < total && now - this.lastDraw < 50) return;
    this.lastDraw = now;
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(share * this.width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(this.width - filled)}`;
    const seconds = (now - this.startedAt) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 && done < total ? ` eta ${Math.ceil((total - done) / rate)}s` : '';
    this.stream.write(`\r${this.label} ${bar} ${done}/${total}${detail ? ` ${detail}` : ''}${eta}\x1b[K`);
    this.drawn = true;
  }

  finish(): void {
    if (this.enabled && this.drawn) this.stream.write('\n');
  }
}
