import type { Command } from 'commander';
import { NegotiationAgent } from '../agent/negotiation-agent.js';
import { OpenAICompatibleBackend } from '../backends/openai/node-backend.js';
import { type ListingContext, ListingContextSchema } from '../contract/listing-context.js';
import type { Negotiator } from '../contract/negotiator.js';
import { parseInput } from '../contract/validate.js';
import type { BestOfferReward } from '../env/best-offer-environment.js';
import type { CreateEnvironmentOptions } from '../env/create-environment.js';
import { createEnvironment, ENVIRONMENT_NAMES, type EnvironmentName } from '../env/create-environment.js';
import { DEFAULT_ENVIRONMENT_SERVER_LIMITS, EnvironmentServer } from '../env/env-server.js';
import { EpisodeLog } from '../env/episode-log.js';
import type { EpisodeRewardOptions } from '../env/episode-rewards.js';
import type { ObservationFields } from '../env/observation-json.js';
import { experimentLlmAgent } from '../evaluation/experiment-participants.js';
import { loadSuite } from '../evaluation/suite.js';
import { processEnvironment } from '../internal/environment.js';
import {
  MULTI_ISSUE_BASELINE_NAMES,
  MULTI_ISSUE_BASELINES,
} from '../multi-issue/multi-issue-baseline-registry.js';
import type { MultiIssueNegotiator } from '../multi-issue/multi-issue-turn.js';
import { CLI_AGENT_NAMES, type CliAgentName, createCliAgent } from './agent-registry.js';
import { defaultApiKey } from './default-api-key.js';
import { registerEnvSessionsCommand } from './env-sessions-command.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption, withListenOptions } from './options.js';
import { parseParticipantShorthand } from './participant-shorthand.js';
import { readJsonInput } from './read-json-input.js';

interface EnvServeCliOptions {
  env: EnvironmentName;
  suite?: string;
  contexts?: string;
  catalogSeed?: number;
  reward?: BestOfferReward;
  opponent: string;
  port: number;
  host: string;
  out?: string;
  maxSessions: number;
  idleTimeout: number;
  maxMessageBytes: number;
  maxRounds?: number;
  invalidPenalty?: number;
  stepReward?: number;
  noDeal?: string;
  arm: string;
  observation: ObservationFields;
}

function parseNumberOption(name: string) {
  return (raw: string): number => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value))
      throw new CliUsageError(`--${name} must be a number, got "${raw}"`);
    return value;
  };
}

/**
 * `haggle env serve`: a training environment over OpenEnv's WebSocket protocol until Ctrl-C, each
 * finished episode appended to `--out`. The suite and opponent are checked before the port opens.
 */
export function registerEnvCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const env = program.command('env').description('training environments (OpenEnv protocol) for RL trainers');
  registerEnvSessionsCommand(env, io);
  withListenOptions(
    env
      .command('serve')
      .description(
        "serve a negotiation environment over OpenEnv's protocol (/ws, /health, /schema, /metadata)",
      ),
  )
    .requiredOption(
      '--env <name>',
      `the environment: ${ENVIRONMENT_NAMES.join(', ')}`,
      parseChoice('env', ENVIRONMENT_NAMES),
    )
    .option('--suite <file>', 'multi-issue: the suite whose negotiations episodes play (haggle suite --out)')
    .option(
      '--contexts <file>',
      'best-offer: JSON array of listing contexts (default: the synthetic catalog)',
    )
    .option(
      '--catalog-seed <seed>',
      'best-offer: seed of the synthetic catalog',
      parseIntegerOption('catalog-seed', 0, 2 ** 31),
    )
    .option(
      '--reward <shape>',
      'best-offer: price-over-list (default) or deal',
      parseChoice('reward', ['price-over-list', 'deal'] as const),
    )
    .requiredOption(
      '--opponent <spec>',
      `the opponent: multi-issue ${MULTI_ISSUE_BASELINE_NAMES.join(', ')}; best-offer ${CLI_AGENT_NAMES.join(', ')}; or NAME=openai:MODEL@URL`,
    )
    .option('--out <file>', 'append every finished episode to this JSONL (haggle analyse reads it)')
    .option(
      '--max-sessions <n>',
      'most episodes (connections) at once; one more is refused with CAPACITY_REACHED',
      parseIntegerOption('max-sessions', 1, 100_000),
      DEFAULT_ENVIRONMENT_SERVER_LIMITS.maxSessions,
    )
    .option(
      '--idle-timeout <ms>',
      'a connection silent this long loses its episode',
      parseIntegerOption('idle-timeout', 1, 86_400_000),
      DEFAULT_ENVIRONMENT_SERVER_LIMITS.idleTimeoutMs,
    )
    .option(
      '--max-message-bytes <n>',
      'largest WebSocket message accepted, its fragments counted as they arrive; memory per connection is at most about 4x this + 1 MiB',
      parseIntegerOption('max-message-bytes', 1024, 1024 * 1024 * 1024),
      DEFAULT_ENVIRONMENT_SERVER_LIMITS.maxMessageBytes,
    )
    .option(
      '--max-rounds <n>',
      "turns per negotiation (default: the suite's)",
      parseIntegerOption('max-rounds', 1, 1000),
    )
    .option(
      '--invalid-penalty <r>',
      'reward of an episode ended by an invalid action (default -1)',
      parseNumberOption('invalid-penalty'),
    )
    .option(
      '--step-reward <r>',
      'reward of each step that does not end the episode (default 0)',
      parseNumberOption('step-reward'),
    )
    .option('--no-deal <r>', 'reward without agreement: "reservation" (default) or a number')
    .option(
      '--observation <fields>',
      'full (default) or minimal: without prompt and template (messages rendered), for trainers that apply their own chat template',
      parseChoice('observation', ['full', 'minimal'] as const),
      'full',
    )
    .option(
      '--arm <name>',
      "the trained side's name in the run file (the arm haggle analyse reports)",
      'policy',
    )
    .action(async (options: EnvServeCliOptions) => {
      let noDeal: 'reservation' | number | undefined;
      if (options.noDeal !== undefined) {
        noDeal =
          options.noDeal === 'reservation' ? 'reservation' : parseNumberOption('no-deal')(options.noDeal);
      }
      const rewards = {
        ...(options.invalidPenalty !== undefined ? { invalidAction: options.invalidPenalty } : {}),
        ...(options.stepReward !== undefined ? { step: options.stepReward } : {}),
        ...(noDeal !== undefined ? { noDeal } : {}),
      };
      const { environmentOptions, opponentName, about } = options.env.startsWith('best-offer')
        ? bestOfferOptions(options, rewards, io)
        : multiIssueOptions(options, rewards);
      // Built once here so bad options fail the command before the port opens.
      const probe = createEnvironment(environmentOptions);
      const log = options.out ? EpisodeLog.open(options.out, probe.runHeader()) : undefined;
      const server = new EnvironmentServer({
        createEnvironment: () => createEnvironment(environmentOptions),
        name: options.env,
        description: `haggle ${options.env}: the trained side against ${opponentName} on ${about}`,
        limits: {
          maxSessions: options.maxSessions,
          idleTimeoutMs: options.idleTimeout,
          maxMessageBytes: options.maxMessageBytes,
        },
        ...(log ? { log } : {}),
        observation: options.observation,
        onFailure: (failure) => io.stderr.write(`haggle env serve: ${failure.message}\n`),
      });
      let url: string;
      try {
        url = await server.listen({ port: options.port, host: options.host });
      } catch (error) {
        log?.close();
        throw new CliUsageError(
          `cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      io.stdout.write(
        `haggle env serve: ${options.env} against ${opponentName} (${probe.state().role} trained) at ${url} (WebSocket ${url.replace(/^http/, 'ws')}/ws)\n`,
      );
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await server.close();
      log?.close();
      const stats = server.stats;
      io.stdout.write(
        `haggle env serve: stopped after ${stats.episodes} episodes (${stats.protocolErrors} error answers, ${stats.reaped} reaped idle, ${stats.refused} refused at capacity, ${stats.flooded} closed for flooding)\n`,
      );
    });
}

type Rewards = EpisodeRewardOptions;

function multiIssueOptions(options: EnvServeCliOptions, rewards: Rewards) {
  if (!options.suite)
    throw new CliUsageError(`--env ${options.env} needs --suite FILE (write one with haggle suite --out)`);
  const suite = loadSuite(options.suite);
  const participant = parseParticipantShorthand('--opponent', options.opponent);
  if ('provider' in participant)
    throw new CliUsageError(
      `--opponent ${participant.name}=${participant.provider.provider}:...: env serve takes a baseline or NAME=openai:MODEL@URL (AI SDK provider opponents are for haggle evaluate)`,
    );
  const opponent: MultiIssueNegotiator =
    'baseline' in participant
      ? MULTI_ISSUE_BASELINES[participant.baseline]()
      : experimentLlmAgent(
          { model: participant.llm.model, replicas: participant.llm.baseURLs },
          defaultApiKey(processEnvironment()),
        );
  const environmentOptions: CreateEnvironmentOptions = {
    env: options.env as 'multi-issue-seller' | 'multi-issue-buyer',
    suite,
    opponent,
    opponentName: participant.name,
    armName: options.arm,
    ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
    rewards,
  };
  return { environmentOptions, opponentName: participant.name, about: `suite ${suite.name}` };
}

function bestOfferOptions(options: EnvServeCliOptions, rewards: Rewards, io: CliIo) {
  if (options.suite)
    throw new CliUsageError(`--env ${options.env} plays listings: give --contexts FILE or none, not --suite`);
  const spec = options.opponent;
  let opponent: Negotiator;
  let opponentName: string;
  const equals = spec.indexOf('=');
  if ((CLI_AGENT_NAMES as string[]).includes(spec)) {
    opponent = createCliAgent(spec as CliAgentName);
    opponentName = spec;
  } else if (equals > 0 && spec.slice(equals + 1).startsWith('openai:')) {
    // The multi-issue spelling NAME=openai:MODEL@URL, parsed (and its URL checked) by the same code.
    const participant = parseParticipantShorthand('--opponent', spec);
    if (!('llm' in participant)) throw new CliUsageError(`--opponent ${participant.name}: not an LLM`);
    const apiKey = defaultApiKey(processEnvironment());
    const backend = new OpenAICompatibleBackend({
      baseURL: participant.llm.baseURLs,
      model: participant.llm.model,
      ...(apiKey !== undefined ? { apiKey } : {}),
    });
    opponent = new NegotiationAgent({ backend });
    opponentName = participant.name;
  } else {
    throw new CliUsageError(
      `--opponent ${spec.split('@')[0]}: a best-offer opponent is one of ${CLI_AGENT_NAMES.join(', ')} or NAME=openai:MODEL@URL`,
    );
  }
  const contexts = options.contexts ? readContexts(options.contexts, io) : undefined;
  const environmentOptions: CreateEnvironmentOptions = {
    env: options.env as 'best-offer-seller' | 'best-offer-buyer',
    opponent,
    opponentName,
    armName: options.arm,
    ...(contexts ? { contexts } : {}),
    ...(options.catalogSeed !== undefined ? { catalogSeed: options.catalogSeed } : {}),
    ...(options.reward ? { reward: options.reward } : {}),
    rewards,
  };
  const about = contexts
    ? `${contexts.length} listings of ${options.contexts}`
    : `the synthetic catalog (seed ${options.catalogSeed ?? 0})`;
  return { environmentOptions, opponentName, about };
}

function readContexts(path: string, io: CliIo): ListingContext[] {
  const value = readJsonInput(path, 'contexts file', io.readStdin);
  if (!Array.isArray(value) || value.length === 0)
    throw new CliUsageError(`contexts file ${path} must hold a non-empty JSON array of listing contexts`);
  return value.map((context, i) => parseInput(ListingContextSchema, context, `${path}[${i}]`));
}
