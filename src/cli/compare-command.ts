import type { Command } from 'commander';
import { compare } from '../simulation/metrics/compare.js';
import { formatComparison } from '../simulation/metrics/format.js';
import { formatReferenceComparison } from '../simulation/metrics/reference-format.js';
import { compareToReferences, isReferenceSetId } from '../simulation/metrics/references.js';
import { readRunFile } from '../simulation/run-file.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseIntegerOption, parseMarginOption } from './options.js';
import { terminalWidth } from './terminal-width.js';

interface CompareCliOptions {
  reference: string;
  resamples: number;
  seed: number;
  margin?: number;
  json?: boolean;
}

/**
 * `haggle compare RUN.jsonl --reference FILE|card:ID`: the report's comparison as a text table on the
 * terminal. Against a run file, every metric with the delta and its interval (as `compare()`); against
 * a published set, each published number beside the run's estimate, its exact interval, the interval
 * of the difference and a verdict (`consistent`, `inconsistent`, `too-few`, `cannot-tell`) against the
 * equivalence margin (`--margin`, haggle's choice of 2.5 pp by default).
 */
export function registerCompareCommand(program: Command, io: CliIo): void {
  program
    .command('compare')
    .description("print a run's metrics beside a reference run, or beside the model card's published numbers")
    .argument('<run>', 'run file (JSONL) written by simulate, or real sessions in that format')
    .requiredOption(
      '-r, --reference <file|set>',
      'run file to compare against, or published numbers: card:qwen3-4b-negotiation-50k-ep3',
    )
    .option(
      '--resamples <count>',
      'bootstrap resamples for the intervals against a run file (against card: they are exact)',
      parseIntegerOption('resamples', 10, 100_000),
      1000,
    )
    .option(
      '-s, --seed <seed>',
      'bootstrap seed (against a run file)',
      parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER),
      0,
    )
    .option(
      '--margin <pp>',
      "equivalence margin in percentage points: consistent only when the difference's interval lies inside ±margin (default 2.5; against a run file, for shares and price ratios)",
      parseMarginOption,
    )
    .option('--json', 'print the comparison as one JSON object')
    .action((run: string, options: CompareCliOptions) => {
      const sessions = readRunFile(run).sessions;
      if (sessions.length === 0) throw new CliUsageError(`${run} holds no sessions`);
      const bootstrap = { resamples: options.resamples, seed: options.seed };
      const layout = { width: terminalWidth(io.stdout) };
      if (isReferenceSetId(options.reference)) {
        // Exact intervals and tests: the bootstrap options play no part against published numbers.
        const result = compareToReferences(sessions, options.reference, {
          ...(options.margin !== undefined ? { margin: options.margin } : {}),
        });
        io.stdout.write(
          options.json ? `${JSON.stringify(result)}\n` : `${formatReferenceComparison(result, layout)}\n`,
        );
        return;
      }
      const reference = readRunFile(options.reference).sessions;
      if (reference.length === 0) throw new CliUsageError(`${options.reference} holds no sessions`);
      const result = compare(sessions, reference, {
        ...bootstrap,
        labels: { run: 'run', reference: 'reference' },
        ...(options.margin !== undefined
          ? { margins: { share: options.margin, 'list-ratio': options.margin } }
          : {}),
      });
      io.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${formatComparison(result, layout)}\n`);
    });
}
