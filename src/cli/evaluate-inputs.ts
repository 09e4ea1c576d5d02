import type { Command } from 'commander';
import { fromLanguageModel } from '../ai-sdk/from-language-model.js';
import { resolveProviderModel } from '../ai-sdk/provider-packages.js';
import type { LanguageBackend } from '../backends/language-backend.js';
import { loadExperiment } from '../evaluation/experiment-file.js';
import { experimentLlmAgent } from '../evaluation/experiment-participants.js';
import { experimentProviderBackends, hasProviderParticipants } from '../evaluation/experiment-providers.js';
import { experimentTournament } from '../evaluation/experiment-tournament.js';
import type { ParticipantLabel } from '../evaluation/participant-label.js';
import { loadSuite } from '../evaluation/suite.js';
import type { TournamentOptions } from '../evaluation/tournament.js';
import { type Environment, processEnvironment } from '../internal/environment.js';
import {
  isMultiIssueBaselineName,
  MULTI_ISSUE_BASELINES,
  type MultiIssueBaselineName,
} from '../multi-issue/multi-issue-baseline-registry.js';
import { MultiIssueLlmAgent } from '../multi-issue/multi-issue-llm-agent.js';
import type { MultiIssueNegotiator } from '../multi-issue/multi-issue-turn.js';
import type { Shard } from '../simulation/shard.js';
import { defaultApiKey } from './default-api-key.js';
import { CliUsageError } from './errors.js';
import { type ParticipantShorthand, parseParticipantShorthand } from './participant-shorthand.js';
import { givenSamplingFlag, type SamplingCliOptions, samplingFrom } from './sampling-options.js';

/** The options of `haggle evaluate` that say what to play and how (not how to print it). */
export interface EvaluateInputOptions extends SamplingCliOptions {
  experiment?: string;
  suite?: string;
  arm?: string[];
  opponent?: string[];
  roles: 'seller' | 'buyer' | 'both';
  maxRounds?: number;
  concurrency: number;
  timeout?: number;
  shard?: Shard;
  out?: string;
  resume?: boolean;
  overwrite?: boolean;
  allowOutAnywhere?: boolean;
  earlyStop: number;
}

/** Options an experiment file sets itself: giving them too would leave two answers to one question. */
const SET_BY_EXPERIMENT = [
  ['suite', '--suite'],
  ['arm', '--arm'],
  ['opponent', '--opponent'],
  ['roles', '--roles'],
  ['maxRounds', '--max-rounds'],
  ['timeout', '--timeout'],
  ['temperature', '--temperature'],
  ['topP', '--top-p'],
] as const;

/**
 * The tournament `haggle evaluate` runs: from `--experiment FILE`, or from `--suite` and `--arm`s.
 * Asynchronous because `provider` participants load their `@ai-sdk/*` package first.
 */
export async function evaluateTournament(
  options: EvaluateInputOptions,
  command: Command,
  signal: AbortSignal,
  env: Environment = processEnvironment(),
): Promise<TournamentOptions> {
  const run = {
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.resume ? { resume: true } : {}),
    ...(options.overwrite ? { overwrite: true } : {}),
    earlyStop: options.earlyStop,
    signal,
  };
  if (options.experiment !== undefined) {
    for (const [key, flag] of SET_BY_EXPERIMENT) {
      if (command.getOptionValueSource(key) === 'cli')
        throw new CliUsageError(
          `${flag} cannot be combined with --experiment: the experiment file sets it (edit the file, or drop --experiment)`,
        );
    }
    const loaded = loadExperiment(options.experiment);
    const providerBackends = hasProviderParticipants(loaded.experiment)
      ? await experimentProviderBackends(loaded.experiment, { env, file: loaded.file })
      : undefined;
    return experimentTournament(loaded, {
      ...run,
      env,
      ...(providerBackends ? { providerBackends } : {}),
      ...(options.out !== undefined ? { out: options.out } : {}),
      ...(options.allowOutAnywhere ? { allowOutAnywhere: true } : {}),
      ...(command.getOptionValueSource('concurrency') === 'cli' ? { concurrency: options.concurrency } : {}),
    }).options;
  }
  if (options.suite === undefined)
    throw new CliUsageError('evaluate needs --experiment FILE, or --suite FILE and at least one --arm');
  if (!options.arm || options.arm.length === 0)
    throw new CliUsageError(`--suite needs at least one --arm: a baseline or NAME=openai:MODEL@URL`);
  const suite = loadSuite(options.suite);
  const apiKey = defaultApiKey(env);
  const labels = {
    arms: {} as Record<string, ParticipantLabel>,
    opponents: {} as Record<string, ParticipantLabel>,
  };
  // Provider shorthands (`NAME=anthropic:MODEL`) load their package first; each key comes from the
  // provider package's own variable (ANTHROPIC_API_KEY, ...), never from an argument.
  const providerBackends = new Map<string, LanguageBackend>();
  for (const [option, values] of [
    ['--arm', options.arm],
    ['--opponent', options.opponent ?? []],
  ] as const) {
    for (const value of values) {
      if (!value.includes('=')) continue;
      const participant = parseParticipantShorthand(option, value);
      if (!('provider' in participant)) continue;
      const { model } = await resolveProviderModel(participant.provider);
      providerBackends.set(`${option}:${participant.name}`, fromLanguageModel(model));
    }
  }
  const build = (participant: ParticipantShorthand, option: '--arm' | '--opponent'): MultiIssueNegotiator =>
    'baseline' in participant
      ? MULTI_ISSUE_BASELINES[participant.baseline]()
      : 'provider' in participant
        ? new MultiIssueLlmAgent({
            backend: providerBackends.get(`${option}:${participant.name}`) as LanguageBackend,
            ...samplingFrom(options),
          })
        : experimentLlmAgent(
            {
              model: participant.llm.model,
              replicas: participant.llm.baseURLs,
              sampling: samplingFrom(options),
            },
            apiKey,
          );
  const kind = (participant: ParticipantShorthand): ParticipantLabel => ({
    kind: 'baseline' in participant ? 'baseline' : 'llm',
  });

  const arms: Record<string, MultiIssueNegotiator> = {};
  for (const value of options.arm) {
    const arm = parseParticipantShorthand('--arm', value);
    if (arm.name in arms)
      throw new CliUsageError(`--arm ${arm.name}: given twice; give each arm its own name`);
    arms[arm.name] = build(arm, '--arm');
    labels.arms[arm.name] = kind(arm);
  }
  // An opponent NAME=... plays the suite's opponent NAME; a bare name is the suite's own baseline.
  const given = new Map<string, ParticipantShorthand>();
  for (const value of options.opponent ?? []) {
    const equals = value.indexOf('=');
    const opponent =
      equals < 0
        ? ({ name: value, baseline: value as MultiIssueBaselineName } satisfies ParticipantShorthand)
        : parseParticipantShorthand('--opponent', value);
    if (given.has(opponent.name)) throw new CliUsageError(`--opponent ${opponent.name}: given twice`);
    given.set(opponent.name, opponent);
  }
  const wanted = given.size > 0 ? [...given.keys()] : suite.opponents;
  const opponents: Record<string, MultiIssueNegotiator> = {};
  for (const name of wanted) {
    if (!suite.opponents.includes(name))
      throw new CliUsageError(`--opponent ${name}: the suite's opponents are ${suite.opponents.join(', ')}`);
    const opponent = given.get(name) ?? { name, baseline: name as MultiIssueBaselineName };
    if ('baseline' in opponent && !isMultiIssueBaselineName(opponent.baseline))
      throw new CliUsageError(
        `opponent ${name}: no built-in negotiator of that name; say who plays it: --opponent ${name}=openai:MODEL@URL or --opponent ${name}=utility-conceder`,
      );
    opponents[name] = build(opponent, '--opponent');
    labels.opponents[name] = kind(opponent);
  }
  const anyLlm = [...Object.values(labels.arms), ...Object.values(labels.opponents)].some(
    (label) => label.kind === 'llm',
  );
  const sampling = givenSamplingFlag(options);
  if (sampling && !anyLlm)
    throw new CliUsageError(
      `${sampling} applies to LLM arms and opponents (NAME=openai:MODEL@URL); the baselines sample nothing`,
    );
  return {
    suite,
    onlyOpponents: wanted,
    arms,
    opponents,
    // Labels only where an LLM plays: a baseline tournament's header stays as it was, so its files resume.
    ...(anyLlm ? { labels } : {}),
    armRoles: options.roles === 'both' ? ['seller', 'buyer'] : [options.roles],
    ...(options.maxRounds !== undefined ? { maxRounds: options.maxRounds } : {}),
    concurrency: options.concurrency,
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
    ...(options.out ? { out: options.out } : {}),
    ...run,
  };
}
