import { describe, expect, it } from 'vitest';
import { formatDuration, ProgressBar } from '../../src/cli/progress-bar.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

/** A clock the test moves by hand: no real time passes, nothing depends on the machine's speed. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('ProgressBar', () => {
  it('draws in place on a terminal, with the rate and an ETA, and ends with a newline', () => {
    const { writes, stream: s } = stream(true);
    const time = clock();
    const bar = new ProgressBar(s, 'simulate', { width: 10, unit: 'sessions', now: time.now });
    time.advance(2000);
    bar.update(5, 10, 'deals 2');
    time.advance(2000);
    bar.update(10, 10, 'deals 4');
    bar.finish();
    expect(writes[0]).toBe('\rsimulate █████░░░░░ 5/10 deals 2 50% 2.50 sessions/s eta 2s\x1b[K');
    expect(writes[1]).toBe('\rsimulate ██████████ 10/10 deals 4 100% 2.50 sessions/s in 4s\x1b[K');
    expect(writes.at(-1)).toBe('\n');
  });

  it('counts only the work of this process in the rate (a resumed run starts part-way)', () => {
    const { writes, stream: s } = stream(true);
    const time = clock();
    const bar = new ProgressBar(s, 'simulate', { unit: 'sessions', now: time.now });
    time.advance(10_000);
    bar.update(600, 1000, '', 500);
    expect(writes[0]).toMatch(/600\/1000 60% 10\.0 sessions\/s eta 40s/);
  });

  it('redraws at most every 50 ms on a terminal, but always the last step', () => {
    const { writes, stream: s } = stream(true);
    const time = clock();
    const bar = new ProgressBar(s, 'simulate', { now: time.now });
    for (let i = 1; i <= 100; i++) bar.update(i, 100);
    expect(writes).toHaveLength(2);
    expect(writes[1]).toMatch(/100\/100/);
  });

  it('off a terminal: nothing for short work', () => {
    const { writes, stream: s } = stream(false);
    const time = clock();
    const bar = new ProgressBar(s, 'simulate', { now: time.now });
    for (let i = 1; i <= 1000; i++) {
      time.advance(1);
      bar.update(i, 1000);
    }
    bar.finish();
    expect(writes).toEqual([]);
  });

  it('off a terminal: plain lines, about one per 10% and at least one per 30 s, then a last one', () => {
    const { writes, stream: s } = stream(false);
    const time = clock();
    const bar = new ProgressBar(s, 'simulate', { unit: 'sessions', now: time.now });
    for (let i = 1; i <= 10_000; i++) {
      time.advance(10); // 100 s in all
      bar.update(i, 10_000, `deals ${Math.floor(i / 2)}`);
    }
    bar.finish();
    expect(writes.every((w) => w.endsWith('\n') && !w.includes('\r') && !w.includes('\x1b'))).toBe(true);
    expect(writes.length).toBeGreaterThanOrEqual(9);
    expect(writes.length).toBeLessThanOrEqual(12);
    expect(writes[0]).toMatch(/^simulate \d+\/10000 deals \d+ \d+% 100 sessions\/s eta \S+\n$/);
    expect(writes.at(-1)).toBe('simulate 10000/10000 deals 5000 100% 100 sessions/s in 1m40s\n');

    // A slow run (an LLM): still a line at least every 30 seconds.
    const slow = stream(false);
    const slowTime = clock();
    const slowBar = new ProgressBar(slow.stream, 'simulate', { now: slowTime.now });
    for (let i = 1; i <= 20; i++) {
      slowTime.advance(20_000);
      slowBar.update(i, 1000);
    }
    expect(slow.writes.length).toBeGreaterThanOrEqual(10);
  });

  it('formats durations for people', () => {
    expect([formatDuration(0.4), formatDuration(59), formatDuration(185), formatDuration(3720)]).toEqual([
      '0s',
      '59s',
      '3m05s',
      '1h02m',
    ]);
  });
});
