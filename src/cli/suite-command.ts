import type { Command } from 'commander';
import { PARTICIPANT_NAME } from '../evaluation/experiment-schema.js';
import {
  DEFAULT_SUITE_OPPONENTS,
  type GenerateSuiteOptions,
  generateSuite,
  saveSuite,
} from '../evaluation/suite.js';
import { SECONDARY_ISSUE_NAMES } from '../multi-issue/scenario-generator.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { MULTI_ISSUE_AGENT_NAMES } from './multi-issue-registry.js';
import { commaList, parseChoice, parseIntegerOption } from './options.js';

interface SuiteCliOptions {
  out: string;
  scenarios: number;
  seedsPerPair: number;
  seed: number;
  opponents: string;
  name?: string;
  firstMover?: 'seller' | 'buyer';
  maxRounds?: number;
  issues?: string;
  extraIssueWeights?: number[];
  priceSteps?: number;
  sellerReservation?: [number, number];
  buyerReservation?: [number, number];
}

/** `a,b,c` as finite numbers, or a usage error naming the flag. */
function numbers(flag: string) {
  return (text: string): number[] => {
    const values = text.split(',').map((s) => Number(s.trim()));
    if (values.length === 0 || values.some((v) => !Number.isFinite(v)) || text.trim() === '')
      throw new CliUsageError(`--${flag} ${text}: write comma-separated numbers`);
    return values;
  };
}

function range(flag: string) {
  return (text: string): [number, number] => {
    const values = numbers(flag)(text);
    if (values.length !== 2) throw new CliUsageError(`--${flag} ${text}: write LOW,HIGH (e.g. 0.2,0.45)`);
    return values as [number, number];
  };
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
    .option(
      '--first-mover <role>',
      'who proposes first: seller (default) or buyer',
      parseChoice('first-mover', ['seller', 'buyer'] as const),
    )
    .option(
      '--max-rounds <count>',
      'turns per negotiation (default 10)',
      parseIntegerOption('max-rounds', 1, 1000),
    )
    .option(
      '--issues <names>',
      `secondary issues scenarios may add to the price, comma-separated (default all; "none" for price only): ${SECONDARY_ISSUE_NAMES.join(', ')}`,
    )
    .option(
      '--extra-issue-weights <weights>',
      'relative weights of 0, 1, 2, ... secondary issues per scenario (default 1,3,3,2)',
      numbers('extra-issue-weights'),
    )
    .option(
      '--price-steps <count>',
      'grid points of the price issue (default 21)',
      parseIntegerOption('price-steps', 2, 201),
    )
    .option(
      '--seller-reservation <low,high>',
      "range of the seller's reservation utility (default 0.2,0.45)",
      range('seller-reservation'),
    )
    .option(
      '--buyer-reservation <low,high>',
      "range of the buyer's reservation utility (default 0.2,0.45)",
      range('buyer-reservation'),
    )
    .action((options: SuiteCliOptions) => {
      const opponents = commaList(options.opponents);
      // Any name will do: a baseline's name plays itself, another (an LLM buyer) is given its player by
      // `haggle evaluate --opponent NAME=openai:MODEL@URL` or an experiment file.
      const unknown = opponents.filter((name) => !PARTICIPANT_NAME.test(name));
      if (unknown.length > 0) {
        throw new CliUsageError(
          `--opponents: ${unknown.join(', ')} is not a name (1-64 letters, digits, ".", "_", "/" or "-"); the baselines are ${MULTI_ISSUE_AGENT_NAMES.join(', ')}`,
        );
      }
      const reservation = {
        ...(options.sellerReservation ? { seller: options.sellerReservation } : {}),
        ...(options.buyerReservation ? { buyer: options.buyerReservation } : {}),
      };
      const generate: GenerateSuiteOptions = {
        scenarios: options.scenarios,
        seedsPerPair: options.seedsPerPair,
        seed: options.seed,
        opponents,
        ...(options.name ? { name: options.name } : {}),
        ...(options.firstMover ? { firstMover: options.firstMover } : {}),
        ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
        ...(options.issues !== undefined
          ? { issues: options.issues.trim() === 'none' ? [] : commaList(options.issues) }
          : {}),
        ...(options.extraIssueWeights ? { extraIssueWeights: options.extraIssueWeights } : {}),
        ...(options.priceSteps !== undefined ? { priceSteps: options.priceSteps } : {}),
        ...(Object.keys(reservation).length > 0 ? { reservation } : {}),
      };
      const suite = generateSuite(generate);
      saveSuite(options.out, suite);
      const negotiations = suite.scenarios.length * suite.opponents.length * suite.seedsPerPair;
      io.stdout.write(`${options.out}: ${suite.name}, ${negotiations} negotiations, id ${suite.id}\n`);
    });
}
