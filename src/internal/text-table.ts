/** How a column's cells line up: names to the left, numbers to the right. */
export type ColumnAlign = 'left' | 'right';

/** How `textTable` lays a table out. */
export interface TextTableOptions {
  /** Per column; default left for every column. */
  align?: readonly ColumnAlign[];
  /** The widest a line may be (a terminal's columns); default: no limit, always the aligned table. */
  width?: number;
  /** A line of dashes under the header. */
  rule?: boolean;
  /**
   * Too wide, first try wrapping the first column (long metric names) onto continuation lines, keeping
   * the table's columns; the other columns must leave it `MIN_WRAPPED_COLUMN` characters.
   */
  wrapFirstColumn?: boolean;
  /** In the vertical layout, the columns that name a row (its heading line). Default 1. */
  keyColumns?: number;
}

/** The narrowest a wrapped first column may get before the vertical layout reads better. */
const MIN_WRAPPED_COLUMN = 24;
const GAP = '  ';

/**
 * A table as text for a terminal. Aligned columns when they fit `width`; otherwise (haggle's choice, so
 * no line is wider than the terminal and no value is broken mid-number) the first column wrapped onto
 * continuation lines when `wrapFirstColumn` allows, else one block per row: the row's key on a line,
 * then one `column  value` line per other column.
 */
export function textTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: TextTableOptions = {},
): string {
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const widths = columnWidths(header, rows);
  const aligned = alignedLines(header, rows, widths, options);
  if (longest(aligned) <= width) return aligned.join('\n');
  if (options.wrapFirstColumn) {
    const room = width - widths.slice(1).reduce((sum, w) => sum + w + GAP.length, 0);
    if (room >= MIN_WRAPPED_COLUMN) {
      const wrapped = wrappedFirstColumn(header, rows, [room, ...widths.slice(1)], options);
      if (longest(wrapped) <= width) return wrapped.join('\n');
    }
  }
  return verticalLines(header, rows, width, options.keyColumns ?? 1).join('\n');
}

/** `text` broken at spaces into lines of at most `width` characters; later lines start with `indent`. */
export function wrapText(text: string, width: number, indent = ''): string {
  return wrapLines(text, width, indent).join('\n');
}

/**
 * `label` then `value`, the value wrapped in its own column: later lines start under the value's first
 * character, so a label's padding is kept (`deal rate   50.0% (12 deals of ...` / `            sessions)`).
 */
export function labelled(label: string, value: string, width: number): string {
  const [first = '', ...more] = wrapLines(value, Math.max(8, width - label.length));
  return [`${label}${first}`.trimEnd(), ...more.map((rest) => `${' '.repeat(label.length)}${rest}`)].join(
    '\n',
  );
}

function wrapLines(text: string, width: number, indent = ''): string[] {
  if (!Number.isFinite(width) || text.length <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const prefix = lines.length === 0 ? '' : indent;
    const candidate = line === '' ? `${prefix}${word}` : `${line} ${word}`;
    if (candidate.length <= width || line === '') {
      line = candidate;
      continue;
    }
    lines.push(line);
    line = `${indent}${word}`;
  }
  lines.push(line);
  // A single word longer than the line (a path, a URL) is cut: nothing may run past the width.
  return lines.flatMap((l) => chunks(l, width, indent));
}

function chunks(line: string, width: number, indent: string): string[] {
  if (line.length <= width || width <= indent.length) return [line];
  const out = [line.slice(0, width)];
  for (let at = width; at < line.length; at += width - indent.length)
    out.push(`${indent}${line.slice(at, at + width - indent.length)}`);
  return out;
}

function columnWidths(header: readonly string[], rows: readonly (readonly string[])[]): number[] {
  return header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
}

function longest(lines: readonly string[]): number {
  return Math.max(0, ...lines.map((line) => line.length));
}

function pad(cell: string, width: number, align: ColumnAlign | undefined): string {
  return align === 'right' ? cell.padStart(width) : cell.padEnd(width);
}

function line(cells: readonly string[], widths: readonly number[], options: TextTableOptions): string {
  return cells
    .map((cell, i) => pad(cell, widths[i] as number, options.align?.[i]))
    .join(GAP)
    .trimEnd();
}

function alignedLines(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  widths: readonly number[],
  options: TextTableOptions,
): string[] {
  return [
    line(header, widths, options),
    ...ruleLines(widths, options),
    ...rows.map((row) => line(row, widths, options)),
  ];
}

/** The line of dashes under the header, when `options.rule` asks for one. */
function ruleLines(widths: readonly number[], options: TextTableOptions): string[] {
  return options.rule
    ? [
        line(
          widths.map((w) => '-'.repeat(w)),
          widths,
          options,
        ),
      ]
    : [];
}

/** The aligned table with the first column `widths[0]` wide: a longer name goes on on the next lines. */
function wrappedFirstColumn(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  widths: readonly number[],
  options: TextTableOptions,
): string[] {
  const first = widths[0] as number;
  const blank = widths.slice(1).map(() => '');
  const wrapRow = (row: readonly string[]) => {
    const [name, ...more] = wrapLines(row[0] ?? '', first, '  ');
    return [
      line([name ?? '', ...row.slice(1)], widths, options),
      ...more.map((rest) => line([rest, ...blank], widths, options)),
    ];
  };
  return [...wrapRow(header), ...ruleLines(widths, options), ...rows.flatMap(wrapRow)];
}

function verticalLines(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number,
  keyColumns: number,
): string[] {
  const names = header.slice(keyColumns);
  const nameWidth = Math.max(0, ...names.map((name) => name.length));
  const out: string[] = [];
  for (const row of rows) {
    if (out.length > 0) out.push('');
    const key = header
      .slice(0, keyColumns)
      .map((name, i) => (keyColumns === 1 ? row[i] : `${name} ${row[i]}`))
      .join(', ');
    out.push(...wrapLines(key, width, '  '));
    names.forEach((name, i) => {
      out.push(labelled(`  ${name.padEnd(nameWidth)}${GAP}`, row[keyColumns + i] ?? '', width));
    });
  }
  return out;
}
