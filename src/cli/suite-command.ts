import type { Command } from 'commander';
import { PARTICIPANT_NAME } from '../evaluation/experiment-schema.js';
import { DEFAULT_SUITE_OPPONENTS, generateSuite, saveSuite } from '../evaluation/suite.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { MULTI_ISSUE_AGENT_NAMES } from './multi-issue-registry.js';
import { parseIntegerOption } from './options.js';

interface SuiteCliOptions {
  out: string;
  scenarios: number;
  seedsPerPair: number;
  seed: number;
  opponents: string;
  name?: string;
}

export function registerSuiteCommand(program: Command, io: CliIo): void {
  program
    .command('suite')
    .description('generate a seeded suite of multi-issue bargaining scenarios and save it as JSON')
    .requiredOption('-o, --out <file>', 'where to write the suite')
    .option('--scenarios <count>', 'scenarios', parseIntegerOption('scenarios', 1, 10_000), 48)
    .option(
      '--seeds-per-pair <count>',
      'seeds per scenario and opponent',
      parseIntegerOption('seeds-per-pair', 1, 10_000),
      12,
    )
    .option('-s, --seed <seed>', 'suite seed', parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER), 0)
    .option(
      '--opponents <names>',
      `comma-separated names: baselines (${MULTI_ISSUE_AGENT_NAMES.join(', ')}) or any other name, played by an LLM in evaluate`,
      DEFAULT_SUITE_OPPONENTS.join(','),
    )
    .option('--name <name>', 'a name for the suite')
    .action((options: SuiteCliOptions) => {
      const opponents = options.opponents
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      // Any name will do: a baseline's name plays itself, another (an LLM buyer) is given its player by
      // `haggle evaluate --opponent NAME=openai:MODEL@URL` or an experiment file.
      const unknown = opponents.filter((name) => !PARTICIPANT_NAME.test(name));
      if (unknown.length > 0) {
        throw new CliUsageError(
          `--opponents: ${unknown.join(', ')} is not a name (1-64 letters, digits, ".", "_", "/" or "-"); the baselines are ${MULTI_ISSUE_AGENT_NAMES.join(', ')}`,
        );
      }
      const suite = generateSuite({
        scenarios: options.scenarios,
        seedsPerPair: options.seedsPerPair,
        seed: options.seed,
        opponents,
        ...(options.name ? { name: options.name } : {}),
      });
      saveSuite(options.out, suite);
      const negotiations = suite.scenarios.length * suite.opponents.length * suite.seedsPerPair;
      io.stdout.write(`${options.out}: ${suite.name}, ${negotiations} negotiations, id ${suite.id}\n`);
    });
}
