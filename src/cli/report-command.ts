import type { Command } from 'commander';
import { isTournamentFile, writeTournamentReport } from '../report/tournament-report.js';
import { writeReport } from '../report/write-report.js';
import { formatReferenceComparison } from '../simulation/metrics/reference-format.js';
import type { CliIo } from './io.js';
import { parseIntegerOption, parseMarginOption } from './options.js';
import { terminalWidth } from './terminal-width.js';

interface ReportCliOptions {
  reference?: string;
  out?: string;
  title?: string;
  runName?: string;
  referenceName?: string;
  resamples: number;
  seed: number;
  transcripts: number;
  margin?: number;
}

/** `RUN.jsonl` -> `RUN.html`, next to it. */
function defaultOut(run: string): string {
  return `${run.replace(/\.jsonl$/i, '')}.html`;
}

export function registerReportCommand(program: Command, io: CliIo): void {
  program
    .command('report')
    .description('write one self-contained HTML report (metrics, charts) for a run file')
    .argument(
      '<run>',
      'run file (JSONL) written by simulate (or real sessions in that format), or tournament results from evaluate --out',
    )
    .option(
      '-r, --reference <file|set>',
      'run file to compare against (e.g. the source population), or published numbers: card:qwen3-4b-negotiation-50k-ep3',
    )
    .option('-o, --out <file>', 'HTML file to write (default: the run file with .html)')
    .option('--title <text>', 'page title')
    .option('--run-name <name>', 'name of the run in tables and legends (default: its file name)')
    .option('--reference-name <name>', 'name of the reference (default: its file name)')
    .option(
      '--resamples <count>',
      'bootstrap resamples for the confidence intervals',
      parseIntegerOption('resamples', 10, 100_000),
      1000,
    )
    .option(
      '-s, --seed <seed>',
      'bootstrap (and transcript sample) seed',
      parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER),
      0,
    )
    .option(
      '--transcripts <count>',
      'sessions shown as dialogues, sampled by outcome (0: none)',
      parseIntegerOption('transcripts', 0, 1000),
      6,
    )
    .option(
      '--margin <pp>',
      "equivalence margin in percentage points for the verdicts: consistent only when the difference's interval lies inside ±margin (default 2.5)",
      parseMarginOption,
    )
    .action((run: string, options: ReportCliOptions) => {
      // A tournament's results (haggle evaluate --out) get their own page: scores per arm and opponent.
      if (isTournamentFile(run)) {
        const written = writeTournamentReport({
          run,
          out: options.out ?? defaultOut(run),
          ...(options.title !== undefined ? { title: options.title } : {}),
        });
        io.stdout.write(`wrote ${written.out} (${written.matches} tournament matches)\n`);
        return;
      }
      const result = writeReport({
        run,
        out: options.out ?? defaultOut(run),
        bootstrap: { resamples: options.resamples, seed: options.seed },
        transcripts: options.transcripts,
        ...(options.margin !== undefined ? { margin: options.margin } : {}),
        ...(options.reference ? { reference: options.reference } : {}),
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.runName !== undefined ? { runName: options.runName } : {}),
        ...(options.referenceName !== undefined ? { referenceName: options.referenceName } : {}),
      });
      const against =
        result.sessions.reference === undefined
          ? result.published
            ? ` against ${result.published.set.id}`
            : ''
          : ` against ${result.sessions.reference} reference sessions`;
      // The published comparison is a few lines: the terminal gets it too, as `compare` prints its table.
      if (result.published)
        io.stdout.write(
          `${formatReferenceComparison(result.published, { width: terminalWidth(io.stdout) })}\n\n`,
        );
      io.stdout.write(`wrote ${result.out} (${result.sessions.run} sessions${against})\n`);
    });
}
