import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** The parts of an .ipynb file (nbformat 4) the harness reads. */
export interface Notebook {
  nbformat: number;
  metadata: { kernelspec?: { name?: string; language?: string }; language_info?: { name?: string } };
  cells: NotebookCell[];
}

/** A cell; a code cell also holds what it printed and displayed when it last ran (nbformat 4). */
export interface NotebookCell {
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  outputs?: CellOutput[];
  [key: string]: unknown;
}

/** One output of a code cell: printed text, or a displayed MIME bundle. */
export type CellOutput =
  | { output_type: 'stream'; name: 'stdout'; text: string[] }
  | { output_type: 'display_data'; data: Record<string, string | string[]>; metadata: Record<string, never> };

export function readNotebook(path: string): Notebook {
  return JSON.parse(readFileSync(path, 'utf8')) as Notebook;
}

/** A cell's source as one string (nbformat allows a string or a list of lines). */
export function cellSource(cell: Notebook['cells'][number]): string {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source;
}

/**
 * Test harness only, not shipped: `Deno.jupyter` exists only inside `deno jupyter` (elsewhere its getter
 * throws and cannot be redefined), so the cells' `Deno.jupyter` is rewritten to this stand-in. It
 * implements `display` alone, the one call the notebooks make: it formats the value as the kernel does
 * (a raw MIME bundle, or an object with the `Symbol.for('Jupyter.display')` method) and prints the
 * bundle on a `@@display` line for the test to read. Any other `Deno.jupyter` call fails the test.
 */
const DISPLAY_SHIM = `const __haggleJupyter = {
  async display(value, options = { raw: true }) {
    const format = value?.[Symbol.for('Jupyter.display')];
    const bundle = typeof format === 'function' ? await format.call(value) : options.raw ? value : { 'text/plain': String(value) };
    console.log('@@display ' + JSON.stringify(bundle));
  },
};
`;

/**
 * Every code cell of the notebook in order, as one module: what the kernel runs cell after cell, in one
 * scope. Each cell is marked with a comment, so an error's line points back to its cell, and prints a
 * `@@cell` line first, so the output can be told apart by cell.
 */
export function notebookModule(path: string): string {
  const notebook = readNotebook(path);
  const cells = notebook.cells
    .map((cell, index) => ({ cell, index }))
    .filter(({ cell }) => cell.cell_type === 'code')
    .map(
      ({ cell, index }) =>
        `// ---- ${basename(path)}, cell ${index} ----\nconsole.log('@@cell ${index}');\n${cellSource(cell)}\n`,
    );
  return DISPLAY_SHIM + cells.join('\n').replaceAll('Deno.jupyter', '__haggleJupyter');
}

/** A notebook run's output: its text lines and the MIME bundles it displayed, all and by cell. */
export interface NotebookOutput {
  lines: string[];
  displays: Record<string, string>[];
  /** By code cell index: what the cell printed and displayed, in order. */
  cells: Map<number, CellOutput[]>;
}

export function parseOutput(stdout: string): NotebookOutput {
  const lines: string[] = [];
  const displays: Record<string, string>[] = [];
  const cells = new Map<number, CellOutput[]>();
  let current: CellOutput[] = [];
  const text = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  for (const line of text.split('\n')) {
    const cell = /^@@cell (\d+)$/.exec(line);
    if (cell) {
      current = [];
      cells.set(Number(cell[1]), current);
    } else if (line.startsWith('@@display ')) {
      const bundle = JSON.parse(line.slice('@@display '.length)) as Record<string, string>;
      displays.push(bundle);
      current.push({ output_type: 'display_data', data: multiline(bundle), metadata: {} });
    } else {
      lines.push(line);
      const last = current.at(-1);
      if (last?.output_type === 'stream') last.text.push(`${line}\n`);
      else current.push({ output_type: 'stream', name: 'stdout', text: [`${line}\n`] });
    }
  }
  return { lines, displays, cells };
}

/** nbformat keeps text as a list of lines (each with its newline): a diff of the file then reads by line. */
function multiline(bundle: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(bundle).map(([type, value]) => [type, value.split(/(?<=\n)/)]));
}

/**
 * The notebook as Jupyter saves it after running every cell in order: each code cell with its outputs
 * and an execution count (1, 2, ...), so GitHub and other viewers show the tables and charts without a
 * kernel. Written as Jupyter writes (one-space indent, a final newline), so a rerun that prints the same
 * gives the same bytes.
 */
export function withOutputs(path: string, output: NotebookOutput): string {
  const notebook = readNotebook(path);
  let count = 0;
  for (const [index, cell] of notebook.cells.entries()) {
    if (cell.cell_type !== 'code') continue;
    cell.execution_count = ++count;
    cell.outputs = output.cells.get(index) ?? [];
  }
  return `${JSON.stringify(notebook, null, 1)}\n`;
}
