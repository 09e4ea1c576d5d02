import type { Command } from 'commander';
import { HaggleError } from '../contract/errors.js';
import type { ListingContextInput } from '../contract/listing-context.js';
import { processEnvironment } from '../internal/environment.js';
import { AlternatingOffersRules } from '../rules/alternating-offers-rules.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import type { Rules } from '../rules/rules.js';
import { RunFailedEarlyError } from '../simulation/errors.js';
import { isFinished } from '../simulation/failures.js';
import { simulate } from '../simulation/node-simulate.js';
import type { Shard } from '../simulation/shard.js';
import { shardSize } from '../simulation/shard.js';
import type { SimulationSummary } from '../simulation/summary.js';
import { CLI_AGENT_NAMES, type CliAgentName, createCliAgent } from './agent-registry.js';
import {
  addBackendOptions,
  type BackendCliOptions,
  createBackendNegotiators,
  printBackendWarning,
} from './backend-options.js';
import { CliUsageError } from './errors.js';
import { addFailureLimitOptions, enforceFailureLimit, printFailures } from './failure-limit.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { ProgressBar } from './progress-bar.js';
import { readJsonInput } from './read-json-input.js';
import { rawArguments, resumeCommand, withResumeHint } from './resume-command.js';
import { resumeProvenanceNote } from './resume-note.js';
import { addSamplingOptions } from './sampling-options.js';
import { parseShardOption } from './shard-option.js';
import { formatSummaryTable } from './summary-table.js';
import { terminalWidth } from './terminal-width.js';

interface SimulateCliOptions extends BackendCliOptions {
  sessions: number;
  seed: number;
  concurrency: number;
  buyer: CliAgentName;
  seller: CliAgentName;
  rules: 'best-offer' | 'alternating-offers';
  maxTurns?: number;
  contexts?: string;
  cycleContexts?: boolean;
  shard?: Shard;
  out?: string;
  resume?: boolean;
  overwrite?: boolean;
  json?: boolean;
  progress: boolean;
  maxErrorRate: number;
  earlyStop: number;
}

export function registerSimulateCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const simulateCommand = program
    .command('simulate')
    .description('play many negotiations between two negotiators and print a summary')
    .option(
      '-n, --sessions <count>',
      'sessions to play (with --contexts: one per context)',
      parseIntegerOption('sessions', 1, 10_000_000),
      500,
    )
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
    .option(
      '--contexts <file>',
      'JSON file with an array of listing contexts, one session each (default: synthetic)',
    )
    .option('--cycle-contexts', 'with --contexts: play more sessions than contexts, taking them in turn')
    .option(
      '--shard <K/N>',
      'play only shard K of N (sessions with index % N = K-1); join with haggle merge',
      parseShardOption,
    )
    .option('-o, --out <file>', 'write each session to this JSONL file the moment it finishes')
    .option('--resume', 'continue the run already in --out')
    .option('--overwrite', 'replace an existing --out file')
    .option('--json', 'print the summary as one JSON object');
  addFailureLimitOptions(simulateCommand, 'sessions')
    .option('--no-progress', 'no progress bar')
    .action(async (options: SimulateCliOptions, command: Command) => {
      const contexts = options.contexts ? readContexts(options.contexts, io) : undefined;
      if (contexts) options.sessions = sessionsForContexts(options, contexts.length, command);
      const rules: Rules =
        options.rules === 'alternating-offers'
          ? new AlternatingOffersRules(options.maxTurns ? { maxTurns: options.maxTurns } : {})
          : new BestOfferRules(options.maxTurns ? { maxTurns: options.maxTurns } : {});
      // The agent reports each distinct warning once (a CUDA-to-CPU fallback, a setting a server
      // ignores): the CLI says it on stderr rather than let it pass silently.
      const llm = createBackendNegotiators(
        options,
        command,
        processEnvironment(),
        printBackendWarning(io.stderr),
      );
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
        ...(options.cycleContexts ? { cycleContexts: true } : {}),
        ...(options.shard ? { shard: options.shard } : {}),
        ...(options.out ? { out: options.out } : {}),
        ...(options.resume ? { resume: true } : {}),
        ...(options.overwrite ? { overwrite: true } : {}),
        earlyStop: options.earlyStop,
      });
      run.on('note', ({ message }) => io.stderr.write(`haggle: note: ${message}\n`));
      const bar = new ProgressBar(io.stderr, 'simulate', { unit: 'sessions' });
      let completed = 0;
      // Failures of the sessions played now; 'session-end' comes just before 'progress'.
      let failed = 0;
      run.on('session-end', ({ result }) => {
        if (!isFinished(result)) failed++;
      });
      run.on('progress', (p) => {
        completed = p.completed;
        const detail = failed > 0 ? `deals ${p.deals}, failed ${failed}` : `deals ${p.deals}`;
        if (options.progress) bar.update(p.completed, p.total, detail, p.resumed);
      });
      let summary: SimulationSummary;
      try {
        summary = await run.done();
      } catch (error) {
        bar.finish();
        if (HaggleError.isInstance(error) && error.code === 'aborted') {
          io.stderr.write(
            interruptedMessage(options.out ? run.sessionsOnFile : completed, options, rawArguments(command)),
          );
        }
        if (error instanceof RunFailedEarlyError && options.out) {
          // Still one line. A resumed run keeps file lines as they are, failures included.
          error.message += `; ${options.out} holds the sessions played, as failures (--resume plays them again once the cause is fixed)`;
        }
        throw withResumeHint(error, rawArguments(command));
      }
      bar.finish();
      if (options.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
      else
        io.stdout.write(
          `${formatSummaryTable(summary, (performance.now() - startedAt) / 1000, terminalWidth(io.stdout))}\n`,
        );
      const counts = {
        total: summary.sessions,
        unfinished: summary.sessions - summary.finished,
        errorMessages: summary.errorMessages,
      };
      printFailures(io, counts, 'sessions');
      enforceFailureLimit(counts, options.maxErrorRate, 'sessions');
    });
  addBackendOptions(simulateCommand);
  addSamplingOptions(simulateCommand);
}

/**
 * What a user needs after Ctrl-C: exactly what is on file (every session that finished is: each is
 * written the moment it finishes) and the command that continues the run.
 */
function interruptedMessage(finished: number, options: SimulateCliOptions, argv: readonly string[]): string {
  const total = shardSize(options.sessions, options.shard);
  const shard = options.shard ? ` (shard ${options.shard.index}/${options.shard.count})` : '';
  const progress = `haggle: stopped after ${finished} of ${total} sessions${shard}`;
  if (!options.out) return `${progress}; nothing was saved (pass --out FILE to make a run resumable)\n`;
  return (
    `${progress}; ${options.out} holds the run header and all ${finished} finished sessions, one complete line ` +
    'each, in the order they finished (a completed run puts them in session order).\n' +
    `haggle: resume with: ${resumeCommand(argv)}\n`
  );
}

/**
 * One session per context: without --sessions, as many as there are contexts; more than that only
 * with --cycle-contexts.
 */
function sessionsForContexts(options: SimulateCliOptions, contexts: number, command: Command): number {
  if (command.getOptionValueSource('sessions') !== 'cli') return contexts;
  if (options.sessions > contexts && !options.cycleContexts) {
    throw new CliUsageError(
      `--sessions ${options.sessions} is more than the ${contexts} contexts in ${options.contexts} (one session each): ` +
        'leave out --sessions to play each once, or pass --cycle-contexts to play them in turn',
    );
  }
  return options.sessions;
}

function readContexts(path: string, io: CliIo): ListingContextInput[] {
  const value = readJsonInput(path, 'contexts file', io.readStdin);
  if (!Array.isArray(value) || value.length === 0) {
    throw new CliUsageError(`contexts file ${path} must hold a non-empty JSON array of listing contexts`);
  }
  return value as ListingContextInput[];
}
