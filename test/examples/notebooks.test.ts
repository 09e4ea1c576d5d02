import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel, repoRoot } from '../onnx/fixture-model.js';
import {
  type NotebookOutput,
  notebookModule,
  parseOutput,
  readNotebook,
  withOutputs,
} from './notebook-harness.js';

// Every notebook under examples/notebooks runs here, every code cell in order, with the Deno that the
// `deno` dev dependency ships, against the built package (dist/, as `npm install haggle` gives it): a
// notebook that no longer runs, or prints something else, fails the suite. See notebook-harness.ts for
// the one stand-in (`Deno.jupyter.display`, which exists only inside the kernel). The notebooks are
// committed with the outputs of such a run, so GitHub shows their tables and charts: a notebook whose
// saved outputs are not what it prints now fails too. HAGGLE_NOTEBOOK_OUTPUTS=1 writes them afresh.

const run = promisify(execFile);
const notebooksDir = join(repoRoot, 'examples', 'notebooks');
const notebooks = readdirSync(notebooksDir).filter((name) => name.endsWith('.ipynb'));
const deno = createRequire(import.meta.url).resolve('deno/bin.cjs');

/** A folder like a user's after `npm install haggle`: its node_modules/haggle is this repository. */
const userDir = join(repoRoot, '.cache', 'notebook-user');
const outputs = new Map<string, Promise<NotebookOutput>>();

beforeAll(() => {
  if (!existsSync(join(repoRoot, 'dist', 'index.js')) || !existsSync(join(repoRoot, 'dist', 'onnx.js')))
    throw new Error('the notebooks run against the built package: run `npm run build` first (npm test does)');
  rmSync(userDir, { recursive: true, force: true });
  mkdirSync(join(userDir, 'node_modules'), { recursive: true });
  symlinkSync(repoRoot, join(userDir, 'node_modules', 'haggle'), 'dir');
  // A package.json makes Deno resolve bare imports from node_modules, as npm left it.
  writeFileSync(join(userDir, 'package.json'), '{"private":true,"dependencies":{"haggle":"*"}}\n');
  const model = fixtureModel(1);
  // All notebooks at once: each is its own Deno process.
  for (const name of notebooks) {
    const file = join(userDir, name.replace(/\.ipynb$/, '.ts'));
    writeFileSync(file, notebookModule(join(notebooksDir, name)));
    outputs.set(
      name,
      run(process.execPath, [deno, 'run', '--allow-all', file], {
        cwd: userDir,
        timeout: 120_000,
        env: {
          ...process.env,
          HAGGLE_MODEL: model,
          NO_COLOR: '1',
          DENO_NO_UPDATE_CHECK: '1',
          DENO_DIR: join(repoRoot, '.cache', 'deno'),
        },
      }).then(({ stdout }) => parseOutput(stdout)),
    );
  }
  // Failures are reported by the test that awaits each one.
  for (const output of outputs.values()) output.catch(() => {});
});
afterAll(() => rmSync(userDir, { recursive: true, force: true }));

const output = (name: string) => outputs.get(name) as Promise<NotebookOutput>;
const svgOf = (display: Record<string, string> | undefined) => display?.['image/svg+xml'] ?? '';
const bars = (svg: string) => svg.match(/<rect class="bar" [^>]*><title>/g)?.length ?? 0;
const whiskers = (svg: string) => svg.match(/<g [^>]*class="whisker"/g)?.length ?? 0;
const REFRESH_OUTPUTS = process.env.HAGGLE_NOTEBOOK_OUTPUTS === '1';
/** What may differ between two runs of the same notebook: the loopback port, the device. */
const steady = (text: string) =>
  text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT').replace(/ on (cpu|cuda) /g, ' on DEVICE ');

describe('examples/notebooks', () => {
  it('are nbformat 4 notebooks for the Deno kernel, one per use', () => {
    expect(notebooks.sort()).toEqual([
      'agent-on-a-backend.ipynb',
      'simulate-and-compare.ipynb',
      'tournament.ipynb',
    ]);
    for (const name of notebooks) {
      const notebook = readNotebook(join(notebooksDir, name));
      expect(notebook.nbformat).toBe(4);
      expect(notebook.metadata.kernelspec).toMatchObject({ name: 'deno', language: 'typescript' });
      expect(notebook.metadata.language_info?.name).toBe('typescript');
      expect(notebook.cells.filter((cell) => cell.cell_type === 'code').length).toBeGreaterThan(1);
    }
  });

  it('simulate-and-compare: two runs, the comparison table agrees with them, one chart', async () => {
    const { lines, displays } = await output('simulate-and-compare.ipynb');
    expect(lines[0]).toMatch(/^300 listings, the first: ".+" at [\d.]+ [A-Z]{3}$/);
    const rate = (name: string) => {
      const match = lines
        .find((line) => line.startsWith(`${name}: `))
        ?.match(/^\w+: 300 finished, deal rate ([\d.]+)%/);
      expect(match, `${name}'s summary line`).toBeTruthy();
      return match?.[1];
    };
    const reference = rate('population');
    const run = rate('boulware');
    // formatComparison's deal-rate row: reference (source) then run (model), from the files written.
    const row = lines.find((line) => line.startsWith('deal rate '));
    expect(row).toMatch(new RegExp(`^deal rate\\s+${reference}%\\s+${run}%\\s`));
    expect(lines.some((line) => line.startsWith('final price / list price'))).toBe(true);
    expect(lines).toContain(
      'price-ratio, session-length, deal-rate-by-tier, label-deal-rate, label-concession',
    );
    expect(displays).toHaveLength(1);
    const svg = svgOf(displays[0]);
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // The report's price bins (5% of the list price each) x 2 runs: 40 bars from these seeded runs.
    expect(bars(svg)).toBe(40);
    expect(whiskers(svg)).toBeGreaterThan(10);
  }, 120_000);

  it('tournament: a score per arm and opponent, a paired verdict, one chart', async () => {
    const { lines, displays } = await output('tournament.ipynb');
    expect(lines[0]).toMatch(/^suite [0-9a-f]{16}…: 8 scenarios x 2 opponents x 3 seeds$/);
    const scores = lines.filter((line) => / matches \d+ +deal rate /.test(line));
    // 2 arms x (2 opponents + '*', all of them): 8 x 3 = 24 matches each, 48 against '*'.
    expect(scores).toHaveLength(6);
    expect(scores.filter((line) => / vs \* +matches 48 /.test(line))).toHaveLength(2);
    expect(scores.filter((line) => /matches 24 /.test(line))).toHaveLength(4);
    expect(lines.some((line) => /n = 48$/.test(line))).toBe(true);
    expect(lines).toContain('arm-utility, deal-rate');
    expect(displays).toHaveLength(1);
    expect(bars(svgOf(displays[0]))).toBe(6);
    expect(whiskers(svgOf(displays[0]))).toBe(6);
  }, 120_000);

  it('agent-on-a-backend: the local model, then the same model over HTTP, within the guardrail', async () => {
    const { lines, displays } = await output('agent-on-a-backend.ipynb');
    expect(lines[0]).toMatch(/^loaded fixture-model-v4-seed-1 on (cpu|cuda) \(fp32\)$/);
    const budget = Number(lines.find((line) => line.includes(', budget '))?.match(/budget (\d+)$/)?.[1]);
    expect(budget).toBeGreaterThan(0);
    const opening = lines.find((line) => line.startsWith('opening turn: '));
    expect(opening).toMatch(
      /^opening turn: (offer|offer_with_message|message_only|no_response)( at [\d.]+)?$/,
    );
    expect(lines.some((line) => /^serving at http:\/\/127\.0\.0\.1:\d+\/v1$/.test(line))).toBe(true);
    const turns = lines.filter((line) => /^ {2}(buyer|seller): /.test(line));
    const session = lines.find((line) => line.startsWith('session: '))?.match(/after (\d+) turns$/);
    expect(Number(session?.[1])).toBe(turns.length);
    expect(turns.length).toBeGreaterThan(0);
    // The buyer's guardrail holds over HTTP as in the process: no buyer price above the budget.
    for (const turn of [opening ?? '', ...turns.filter((line) => line.startsWith('  buyer'))]) {
      const price = turn.match(/ at ([\d.]+)$/)?.[1];
      if (price !== undefined) expect(Number(price)).toBeLessThanOrEqual(budget);
    }
    expect(displays).toHaveLength(0);
  }, 120_000);

  it.each(notebooks)(
    '%s is saved with the outputs it prints now',
    async (name) => {
      const path = join(notebooksDir, name);
      const fresh = withOutputs(path, await output(name));
      // Rewritten only when something other than the port or device changed, so a refresh leaves no churn.
      if (REFRESH_OUTPUTS && steady(readFileSync(path, 'utf8')) !== steady(fresh)) writeFileSync(path, fresh);
      const saved = readNotebook(path);
      for (const cell of saved.cells.filter((c) => c.cell_type === 'code'))
        expect(cell.outputs, 'every code cell has its outputs saved').toBeDefined();
      expect(
        steady(readFileSync(path, 'utf8')),
        `${name}'s saved outputs are stale: HAGGLE_NOTEBOOK_OUTPUTS=1 npx vitest run test/examples/notebooks.test.ts`,
      ).toBe(steady(fresh));
    },
    120_000,
  );
});
