import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/cli/progress-bar.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return {
    writes,
    stream: { isTTY, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
  };
}

describe('ProgressBar', () => {
  it('draws in place on a terminal and ends with a newline', () => {
    const { writes, stream: s } = stream(true);
    const bar = new ProgressBar(s, 'simulate', 10);
    bar.update(5, 10, 'deals 2');
    bar.update(10, 10, 'deals 4');
    bar.finish();
    expect(writes[0]).toMatch(/^\rsimulate █{5}░{5} 5\/10 deals 2/);
    expect(writes[1]).toMatch(/█{10} 10\/10 deals 4/);
    expect(writes.at(-1)).toBe('\n');
  });

  it('stays silent off a terminal', () => {
    const { writes, stream: s } = stream(false);
    const bar = new ProgressBar(s, 'simulate');
    bar.update(1, 2);
    bar.finish();
    expect(writes).toEqual([]);
  });
});
