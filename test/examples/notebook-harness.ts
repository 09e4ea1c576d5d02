import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** The parts of an .ipynb file (nbformat 4) the harness reads. */
export interface Notebook {
  nbformat: number;
  metadata: { kernelspec?: { name?: string; language?: string }; language_info?: { name?: string } };
  cells: { cell_type: string; source: string | string[] }[];
}

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
 * scope. Each cell is marked with a comment, so an error's line points back to its cell.
 */
export function notebookModule(path: string): string {
  const notebook = readNotebook(path);
  const cells = notebook.cells
    .map((cell, index) => ({ cell, index }))
    .filter(({ cell }) => cell.cell_type === 'code')
    .map(({ cell, index }) => `// ---- ${basename(path)}, cell ${index} ----\n${cellSource(cell)}\n`);
  return DISPLAY_SHIM + cells.join('\n').replaceAll('Deno.jupyter', '__haggleJupyter');
}

/** A notebook run's output: its text lines and the MIME bundles it displayed. */
export interface NotebookOutput {
  lines: string[];
  displays: Record<string, string>[];
}

export function parseOutput(stdout: string): NotebookOutput {
  const lines: string[] = [];
  const displays: Record<string, string>[] = [];
  for (const line of stdout.split('\n')) {
    if (line.startsWith('@@display ')) displays.push(JSON.parse(line.slice('@@display '.length)));
    else lines.push(line);
  }
  return { lines, displays };
}
