import type { Command } from 'commander';
import { createEnvironment, ENVIRONMENT_NAMES, type EnvironmentName } from '../env/create-environment.js';
import { DEFAULT_ENVIRONMENT_SERVER_LIMITS, EnvironmentServer } from '../env/env-server.js';
import { EpisodeLog } from '../env/episode-log.js';
import { experimentLlmAgent } from '../evaluation/experiment-participants.js';
import { MULTI_ISSUE_BASELINES } from '../evaluation/multi-issue-baseline-registry.js';
import type { MultiIssueNegotiator } from '../evaluation/multi-issue-turn.js';
import { loadSuite } from '../evaluation/suite.js';
import { CliUsageError } from './cli-error.js';
import { defaultApiKey } from './default-api-key.js';
import type { CliIo } from './io.js';
import { parseChoice, parseIntegerOption } from './options.js';
import { parseParticipantShorthand } from './participant-shorthand.js';

interface EnvServeCliOptions {
  env: EnvironmentName;
  suite: string;
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
  env
    .command('serve')
    .description("serve a negotiation environment over OpenEnv's protocol (/ws, /health, /schema, /metadata)")
    .requiredOption(
      '--env <name>',
      `the environment: ${ENVIRONMENT_NAMES.join(', ')}`,
      parseChoice('env', ENVIRONMENT_NAMES),
    )
    .requiredOption('--suite <file>', 'the suite whose negotiations episodes play (haggle suite --out)')
    .requiredOption(
      '--opponent <spec>',
      'the opponent: a multi-issue baseline (utility-conceder, ...) or NAME=openai:MODEL@URL',
    )
    .option(
      '-p, --port <port>',
      'port to listen on (0: any free port)',
      parseIntegerOption('port', 0, 65_535),
      8000,
    )
    .option('--host <address>', 'address to listen on (0.0.0.0 for other machines)', '127.0.0.1')
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
      'largest WebSocket message accepted',
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
      '--arm <name>',
      "the trained side's name in the run file (the arm haggle analyse reports)",
      'policy',
    )
    .action(async (options: EnvServeCliOptions) => {
      const suite = loadSuite(options.suite);
      const participant = parseParticipantShorthand('--opponent', options.opponent);
      const build = (): MultiIssueNegotiator =>
        'baseline' in participant
          ? MULTI_ISSUE_BASELINES[participant.baseline]()
          : experimentLlmAgent(
              { model: participant.llm.model, replicas: participant.llm.baseURLs },
              defaultApiKey(process.env),
            );
      const opponent = build();
      let noDeal: 'reservation' | number | undefined;
      if (options.noDeal !== undefined) {
        noDeal =
          options.noDeal === 'reservation' ? 'reservation' : parseNumberOption('no-deal')(options.noDeal);
      }
      const environmentOptions = {
        env: options.env,
        suite,
        opponent,
        opponentName: participant.name,
        armName: options.arm,
        ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
        rewards: {
          ...(options.invalidPenalty !== undefined ? { invalidAction: options.invalidPenalty } : {}),
          ...(options.stepReward !== undefined ? { step: options.stepReward } : {}),
          ...(noDeal !== undefined ? { noDeal } : {}),
        },
      };
      // Built once here so bad options fail the command before the port opens.
      const probe = createEnvironment(environmentOptions);
      const log = options.out ? EpisodeLog.open(options.out, probe.runHeader()) : undefined;
      const server = new EnvironmentServer({
        createEnvironment: () => createEnvironment(environmentOptions),
        name: options.env,
        description: `haggle ${options.env}: the trained side against ${participant.name} on suite ${suite.name}`,
        limits: {
          maxSessions: options.maxSessions,
          idleTimeoutMs: options.idleTimeout,
          maxMessageBytes: options.maxMessageBytes,
        },
        ...(log ? { log } : {}),
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
        `haggle env serve: ${options.env} against ${participant.name} (${probe.state().role} trained) at ${url} (WebSocket ${url.replace(/^http/, 'ws')}/ws)\n`,
      );
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      await server.close();
      log?.close();
      const stats = server.stats;
      io.stdout.write(
        `haggle env serve: stopped after ${stats.episodes} episodes (${stats.protocolErrors} error answers, ${stats.reaped} reaped idle, ${stats.refused} refused at capacity)\n`,
      );
    });
}
