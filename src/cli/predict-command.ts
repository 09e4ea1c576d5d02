import type { Command } from 'commander';
import { NegotiationAgent } from '../agent/negotiation-agent.js';
import { HistorySchema, RoleSchema } from '../contract/history.js';
import { ListingContextSchema } from '../contract/listing-context.js';
import type { Negotiator, PredictInput } from '../contract/negotiator.js';
import { parseInput } from '../contract/validate.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import { legalMovesAfter } from '../rules/replay.js';
import { actionsOf } from '../rules/rules.js';
import { CLI_AGENT_NAMES, type CliAgentName, createCliAgent } from './agent-registry.js';
import {
  addBackendOptions,
  type BackendCliOptions,
  createCliBackend,
  printBackendWarning,
} from './backend-options.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { readJsonInput } from './read-json-input.js';
import { addSamplingOptions, samplingFrom } from './sampling-options.js';

interface PredictCliOptions extends BackendCliOptions {
  context: string;
  history?: string;
  role?: 'buyer' | 'seller';
  agent: CliAgentName;
  seed: number;
}

export function registerPredictCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const command = program
    .command('predict')
    .description('print the next turn for a listing and its history, as one JSON object')
    .requiredOption(
      '--context <file>',
      'JSON file (or - for stdin): a listing context, or { "context", "history", "role" }',
    )
    .option(
      '--history <file>',
      'JSON file with the history so far (an array of { role, turn, elapsedHours })',
    )
    .option(
      '--role <role>',
      'whose turn: buyer or seller (default: whoever moves next)',
      parseChoice('role', ['buyer', 'seller'] as const),
    )
    .option(
      '--agent <name>',
      `negotiator: ${CLI_AGENT_NAMES.join(', ')}`,
      parseChoice('agent', CLI_AGENT_NAMES),
      'population',
    )
    .option(
      '-s, --seed <seed>',
      'seed for this decision',
      parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER),
      0,
    );
  // With --backend, the turn comes from the model (e.g. --backend onnx --model DIR) instead of --agent.
  addSamplingOptions(addBackendOptions(command)).action(async (options: PredictCliOptions) => {
    const input = readPredictInput(options, io);
    if (options.backend && command.getOptionValueSource('agent') === 'cli') {
      throw new CliUsageError('--agent and --backend exclude each other: a backend plays an LLM agent');
    }
    const backend = createCliBackend(options);
    const negotiator: Negotiator = backend
      ? new NegotiationAgent({
          backend,
          sampling: samplingFrom(options),
          onWarning: printBackendWarning(io.stderr),
        })
      : createCliAgent(options.agent);
    try {
      const turn = await negotiator.predict(input, { seed: options.seed, signal });
      io.stdout.write(`${JSON.stringify(turn)}\n`);
    } finally {
      await (backend as { dispose?: () => Promise<void> } | undefined)?.dispose?.();
    }
  });
}

function readPredictInput(options: PredictCliOptions, io: CliIo): PredictInput {
  const raw = readJsonInput(options.context, 'context file', io.readStdin);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CliUsageError(`context file ${options.context} must hold a JSON object`);
  }
  const wrapped = 'context' in raw;
  const body = raw as { context?: unknown; history?: unknown; role?: unknown };
  const context = (wrapped ? body.context : raw) as PredictInput['context'];
  let history: unknown = (wrapped ? body.history : undefined) ?? [];
  if (options.history) history = readJsonInput(options.history, 'history file', io.readStdin);
  if (!Array.isArray(history))
    throw new CliUsageError('the history must be a JSON array of { role, turn, elapsedHours }');
  let role = options.role ?? (wrapped ? body.role : undefined);
  if (role === undefined) {
    // Alternation, the buyer first: the next mover is the opposite of the last one.
    const last = history[history.length - 1] as { role?: unknown } | undefined;
    role = last?.role === 'buyer' ? 'seller' : 'buyer';
  }
  const parsedRole = RoleSchema.safeParse(role);
  if (!parsedRole.success)
    throw new CliUsageError(`the role must be buyer or seller; got ${JSON.stringify(role)}`);
  const listing = parseInput(ListingContextSchema, context, 'ListingContext');
  const past = parseInput(HistorySchema, history, 'History');
  // Replayed under Best Offer rules, so the negotiator is offered only what is legal now, prices included.
  const legalMoves = legalMovesAfter(new BestOfferRules(), listing, past, parsedRole.data);
  return {
    context: listing,
    history: past,
    role: parsedRole.data,
    legalActions: actionsOf(legalMoves),
    legalMoves,
  };
}
