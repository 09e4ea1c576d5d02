import type { Command } from 'commander';
import { RoleSchema } from '../contract/history.js';
import type { PredictInput } from '../contract/negotiator.js';
import { CLI_AGENT_NAMES, type CliAgentName, createCliAgent } from './agent-registry.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { readJsonInput } from './read-json-input.js';

interface PredictCliOptions {
  context: string;
  history?: string;
  role?: 'buyer' | 'seller';
  agent: CliAgentName;
  seed: number;
}

export function registerPredictCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  program
    .command('predict')
    .description("print the next turn for a listing and its history, as one JSON object")
    .requiredOption(
      '--context <file>',
      'JSON file (or - for stdin): a listing context, or { "context", "history", "role" }',
    )
    .option('--history <file>', 'JSON file with the history so far (an array of { role, turn, elapsedHours })')
    .option('--role <role>', 'whose turn: buyer or seller (default: whoever moves next)', parseChoice('role', ['buyer', 'seller'] as const))
    .option('--agent <name>', `negotiator: ${CLI_AGENT_NAMES.join(', ')}`, parseChoice('agent', CLI_AGENT_NAMES), 'population')
    .option('-s, --seed <seed>', 'seed for this decision', parseIntegerOption('seed', 0, Number.MAX_SAFE_INTEGER), 0)
    .action(async (options: PredictCliOptions) => {
      const input = readPredictInput(options, io);
      const turn = await createCliAgent(options.agent).predict(input, { seed: options.seed, signal });
      io.stdout.write(`${JSON.stringify(turn)}\n`);
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
  if (!Array.isArray(history)) throw new CliUsageError('the history must be a JSON array of { role, turn, elapsedHours }');
  let role = options.role ?? (wrapped ? body.role : undefined);
  if (role === undefined) {
    // Alternation, the buyer first: the next mover is the opposite of the last one.
    const last = history[history.length - 1] as { role?: unknown } | undefined;
    role = last?.role === 'buyer' ? 'seller' : 'buyer';
  }
  const parsedRole = RoleSchema.safeParse(role);
  if (!parsedRole.success) throw new CliUsageError(`the role must be buyer or seller; got ${JSON.stringify(role)}`);
  return { context, history: history as PredictInput['history'], role: parsedRole.data };
}
