import { describe, expect, it } from 'vitest';
import { formatHours } from '../../src/simulation/transcript.js';

// Issue 26: `haggle show` and the HTML report printed "1 d 24 h" and "5 d 24 h": the hours were rounded
// after the days were taken, so 47.6 h became 1 d and a rounded 24 h. Each unit now carries into the next.

describe('formatHours: durations that carry into the next unit', () => {
  it('rounds hours into days: never "24 h" after the days', () => {
    expect(formatHours(47.6)).toBe('2 d');
    expect(formatHours(47.5)).toBe('2 d');
    expect(formatHours(47.4)).toBe('1 d 23 h');
    expect(formatHours(143.7)).toBe('6 d');
    expect(formatHours(24 * 5 + 23.49)).toBe('5 d 23 h');
    expect(formatHours(48)).toBe('2 d');
    expect(formatHours(50)).toBe('2 d 2 h');
  });

  it('rounds minutes into hours and tenths of an hour into days', () => {
    expect(formatHours(0)).toBe('0 min');
    expect(formatHours(25 / 60)).toBe('25 min');
    expect(formatHours(59.4 / 60)).toBe('59 min');
    expect(formatHours(59.7 / 60)).toBe('1.0 h');
    expect(formatHours(1)).toBe('1 h');
    expect(formatHours(5.5)).toBe('5.5 h');
    expect(formatHours(3.14)).toBe('3.1 h');
    expect(formatHours(23.94)).toBe('23.9 h');
    expect(formatHours(23.96)).toBe('1 d');
  });

  it('never prints a unit at or past its carry point, over a fine sweep', () => {
    const wrong: string[] = [];
    for (let step = 0; step < 24 * 8 * 1000; step++) {
      const hours = step / 1000;
      const text = formatHours(hours);
      const match = /^(?:(\d+) min|([\d.]+) h|(\d+) d(?: (\d+) h)?)$/.exec(text);
      const [, minutes, onlyHours, , restHours] = match ?? [];
      const fine =
        match !== null &&
        (minutes === undefined || Number(minutes) < 60) &&
        (onlyHours === undefined || Number(onlyHours) < 24) &&
        (restHours === undefined || (Number(restHours) > 0 && Number(restHours) < 24));
      if (!fine) wrong.push(`${hours} -> ${text}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
