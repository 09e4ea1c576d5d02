import { describe, expect, it } from 'vitest';
import { labelled, textTable, wrapText } from '../../src/internal/text-table.js';

const header = ['metric', 'reference', 'run', 'delta', '95% CI'];
const rows = [
  ['deal rate', '50.0%', '53.3%', '+3.3 pp', '[−8.3, +18.3] pp'],
  [
    "M7 opponent's next concession after seller declare_cost_limit_seller_firm",
    '11.7%',
    '–',
    '–',
    '[−100.0, −4.0] pp',
  ],
];
const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));
/** Every cell is printed whole somewhere in the output: no value is broken mid-number. */
const cellsIntact = (text: string, cells: string[]) => cells.every((cell) => text.includes(cell));

describe('textTable', () => {
  it('prints the aligned table when it fits, whatever the width', () => {
    const aligned = textTable(header, rows, { align: ['left', 'right', 'right', 'right', 'right'] });
    expect(textTable(header, rows, { align: ['left', 'right', 'right', 'right', 'right'], width: 200 })).toBe(
      aligned,
    );
    expect(aligned.split('\n')).toHaveLength(3);
    expect(widest(aligned)).toBeGreaterThan(100);
  });

  it('wraps a long first column to fit, keeping the other columns on the row', () => {
    const text = textTable(header, rows, {
      align: ['left', 'right', 'right', 'right', 'right'],
      width: 80,
      wrapFirstColumn: true,
    });
    expect(widest(text)).toBeLessThanOrEqual(80);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^metric\s+reference\s+run\s+delta\s+95% CI$/);
    expect(lines.find((line) => line.startsWith("M7 opponent's"))).toMatch(
      /11\.7%\s+–\s+–\s+\[−100\.0, −4\.0\] pp$/,
    );
    expect(lines.some((line) => line.trim() === 'declare_cost_limit_seller_firm')).toBe(true);
    expect(
      cellsIntact(
        text,
        rows.flatMap((row) => row.slice(1)),
      ),
    ).toBe(true);
  });

  it('switches to one block per row when the columns cannot fit', () => {
    const wide = ['arm', 'opponent', 'deal rate [95% CI]', 'arm utility [95% CI]', 'welfare', 'rounds'];
    const scores = [
      [
        'utility-boulware',
        'utility-tit-for-tat',
        '0.750 [0.583, 0.917]',
        '0.629 [0.543, 0.713]',
        '1.210',
        '3.25',
      ],
      ['utility-linear', 'all', '0.938 [0.854, 1.000]', '0.605 [0.575, 0.633]', '1.190', '2.10'],
    ];
    const text = textTable(wide, scores, { width: 60, keyColumns: 2, rule: true });
    expect(widest(text)).toBeLessThanOrEqual(60);
    expect(text.split('\n').slice(0, 6)).toEqual([
      'arm utility-boulware, opponent utility-tit-for-tat',
      '  deal rate [95% CI]    0.750 [0.583, 0.917]',
      '  arm utility [95% CI]  0.629 [0.543, 0.713]',
      '  welfare               1.210',
      '  rounds                3.25',
      '',
    ]);
    expect(
      cellsIntact(
        text,
        scores.flatMap((row) => row.slice(2)),
      ),
    ).toBe(true);
  });
});

describe('wrapText and labelled', () => {
  it('break at spaces within the width, a hanging indent after the first line', () => {
    const text = wrapText('one two three four five six seven eight nine ten', 16, '  ');
    expect(text.split('\n')).toEqual(['one two three', '  four five six', '  seven eight', '  nine ten']);
    expect(
      labelled('outcomes  ', 'accepted 12, declined 4, expired 7, no-response 2', 30).split('\n'),
    ).toEqual(['outcomes  accepted 12,', '          declined 4, expired', '          7, no-response 2']);
  });

  it('cut a word longer than the line, so nothing runs past it', () => {
    const text = wrapText(`see ${'x'.repeat(50)}`, 20, '  ');
    expect(widest(text)).toBeLessThanOrEqual(20);
    expect(text.replace(/\s/g, '')).toBe(`see${'x'.repeat(50)}`);
  });
});
