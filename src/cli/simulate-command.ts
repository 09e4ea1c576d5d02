import type { Command } from 'commander';
import { HaggleError } from '../contract/errors.js';
import type { ListingContextInput } from '../contract/listing-context.js';
import { AlternatingOffersRules } from '../simulation/alternating-offers-rules.js';
import { BestOfferRules } from '../simulation/best-offer-rules.js';
import type { Rules } from '../simulation/rules.js';
import { simulate } from '../simulation/simulate.js';
import { CLI_AGENT_NAMES, type CliAgentName, createCliAgent } from './agent-registry.js';
import { addBackendOptions, type BackendCliOptions, createBackendNegotiators } from './backend-options.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { ProgressBar } from './progress-bar.js';
import { readJsonInput } from './read-json-input.js';
import { redactSecrets } from './redact-arguments.js';
import { resumeProvenanceNote } from './resume-note.js';
import { formatSummaryTable } from './summary-table.js';

interface SimulateCliOptions extends BackendCliOptions {
  sessions: number;
  seed: number;
  concurrency: number;
  buyer: CliAgentName;
  seller: CliAgentName;
  rules: 'best-offer' | 'alternating-offers';
  maxTurns?: number;
  contexts?: string;
  out?: string;
  resume?: boolean;
  overwrite?: boolean;
  json?: boolean;
  progress: boolean;
}

export function registerSimulateCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const simulateCommand = program
    .command('simulate')
    .description('play many negotiations between two negotiators and print a summary')
    .option('-n, --sessions <count>', 'sessions to play', parseIntegerOption('sessions', 1, 10_000_000), 500)
    .option('-s, --seed <seed>', 'run seed', parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER), 0)
    .option('-c, --concurrency <count>', 'sessions in flight', parseIntegerOption('concurrency', 1, 1024), 8)
    .option(
      '--buyer <agent>',
      `buyer: ${CLI_AGENT_NAMES.join(', ')}`,
      parseChoice('buyer', CLI_AGENT_NAMES),
      'population',
    )
    .option(
      '--seller <agent>',
      `seller: ${CLI_AGENT_NAMES.join(', ')}`,
      parseChoice('seller', CLI_AGENT_NAMES),
      'population',
    )
    .option(
      '--rules <name>',
      'best-offer or alternating-offers',
      parseChoice('rules', ['best-offer', 'alternating-offers'] as const),
      'best-offer',
    )
    .option(
      '--max-turns <count>',
      'turns before a session ends without a deal',
      parseIntegerOption('max-turns', 1, 1000),
    )
    .option('--contexts <file>', 'JSON file with an array of listing contexts (default: synthetic)')
    .option('-o, --out <file>', 'append each finished session to this JSONL file')
    .option('--resume', 'continue the run already in --out')
    .option('--overwrite', 'replace an existing --out file')
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar')
    .action(async (options: SimulateCliOptions, command: Command) => {
      const contexts = options.contexts ? readContexts(options.contexts, io) : undefined;
      const rules: Rules =
        options.rules === 'alternating-offers'
          ? new AlternatingOffersRules(options.maxTurns ? { maxTurns: options.maxTurns } : {})
          : new BestOfferRules(options.maxTurns ? { maxTurns: options.maxTurns } : {});
      const llm = createBackendNegotiators(options, command);
      if (options.resume && options.out) io.stderr.write(resumeProvenanceNote(options.out) ?? '');
      const startedAt = performance.now();
      const run = simulate({
        buyer: llm.buyer ?? createCliAgent(options.buyer),
        seller: llm.seller ?? createCliAgent(options.seller),
        sessions: options.sessions,
        seed: options.seed,
        concurrency: options.concurrency,
        rules,
        signal,
        ...(contexts ? { contexts } : {}),
        ...(options.out ? { out: options.out } : {}),
        ...(options.resume ? { resume: true } : {}),
        ...(options.overwrite ? { overwrite: true } : {}),
      });
      const bar = new ProgressBar(io.stderr, 'simulate', { unit: 'sessions' });
      let completed = 0;
      run.on('progress', (p) => {
        completed = p.completed;
        if (options.progress) bar.update(p.completed, p.total, `deals ${p.deals}`, p.resumed);
      });
      try {
        const summary = await run.done();
        bar.finish();
        if (options.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
        else io.stdout.write(`${formatSummaryTable(summary, (performance.now() - startedAt) / 1000)}\n`);
      } catch (error) {
        bar.finish();
        if (HaggleError.isInstance(error) && error.code === 'aborted') {
          io.stderr.write(interruptedMessage(completed, options, rawArguments(command)));
        }
        throw error;
      }
    });
  addBackendOptions(simulateCommand);
}

/**
 * What a user needs after Ctrl-C: how far the run got, that the file is intact, and the exact command
 * that continues it (the same arguments, with --resume instead of --overwrite).
 */
function interruptedMessage(completed: number, options: SimulateCliOptions, argv: readonly string[]): string {
  const progress = `haggle: stopped after ${completed} of ${options.sessions} sessions`;
  if (!options.out) return `${progress}; nothing was saved (pass --out FILE to make a run resumable)\n`;
  const args = redactSecrets(argv.filter((arg) => arg !== '--overwrite' && arg !== '--resume'));
  const resume = ['haggle', ...args, '--resume'].map(shellQuote).join(' ');
  return `${progress}; ${options.out} holds every finished session, intact.\nhaggle: resume with: ${resume}\n`;
}

/** The arguments as typed (commander keeps them on the program as `rawArgs`, untyped). */
function rawArguments(command: Command): string[] {
  const raw = (command.parent as { rawArgs?: unknown } | null)?.rawArgs;
  const args = Array.isArray(raw) ? raw.map(String) : [];
  // Parsed from `process.argv` the list starts with node and the script; from the user, with the command.
  const at = args.indexOf(command.name());
  return at >= 0 ? args.slice(at) : [command.name()];
}

function shellQuote(arg: string): string {
  if (arg.includes('"$HAGGLE_API_KEY"')) return arg; // left for the shell to expand
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

function readContexts(path: string, io: CliIo): ListingContextInput[] {
  const value = readJsonInput(path, 'contexts file', io.readStdin);
  if (!Array.isArray(value) || value.length === 0) {
    throw new CliUsageError(`contexts file ${path} must hold a non-empty JSON array of listing contexts`);
  }
  return value as ListingContextInput[];
}
