import { InvalidInputError, InvalidModelOutputError, type ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type { JsonSchema } from '../contract/json-schema.js';
import type { IssueSpace } from '../evaluation/issue-space.js';
import { type MultiIssueResult, runMultiIssueNegotiation } from '../evaluation/multi-issue-negotiation.js';
import { multiIssueMessages } from '../evaluation/multi-issue-prompt.js';
import {
  type MultiIssueInput,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  multiIssueTurnJsonSchema,
  standingProposal,
} from '../evaluation/multi-issue-turn.js';
import { validateMultiIssueText } from '../evaluation/multi-issue-validation.js';
import { bargainingReward } from '../evaluation/reward.js';
import { type Scenario, type ScenarioGeometry, scenarioGeometry } from '../evaluation/scenario.js';
import {
  DEFAULT_FIRST_MOVER,
  DEFAULT_MAX_ROUNDS,
  type Suite,
  type SuiteMatch,
  suiteMatches,
} from '../evaluation/suite.js';
import { scoreMatch } from '../evaluation/tournament.js';
import { redact } from '../internal/redact.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { currentProvenance, withoutLocations } from '../simulation/provenance.js';
import type {
  Environment,
  EnvironmentObservation,
  EnvironmentResetOptions,
  EnvironmentState,
  EnvironmentStepInfo,
  EnvironmentStepResult,
  EpisodeRecord,
  RunHeader,
} from './environment.js';
import { EnvironmentStateError } from './environment-error.js';
import { type EpisodeRewardOptions, resolveEpisodeRewards } from './episode-rewards.js';
import { deepFreeze } from './observation-json.js';
import { TurnHandoff } from './turn-handoff.js';

/** The multi-issue environments: the trained side sells or buys. */
export type MultiIssueEnvironmentName = 'multi-issue-seller' | 'multi-issue-buyer';

/** Options of a multi-issue environment: the suite, the opponent, and the reward's shape. */
export interface MultiIssueEnvironmentOptions {
  env: MultiIssueEnvironmentName;
  /** Where episodes come from: episode seed `s` plays the suite's negotiation `s mod n` (see docs/training.md). */
  suite: Suite;
  /** The opponent: a multi-issue baseline or an LLM participant (`MultiIssueLlmAgent`). */
  opponent: MultiIssueNegotiator;
  /** The opponent's name as the suite and the run file spell it. */
  opponentName: string;
  /** Turns per negotiation. Default the suite's (10 when it states none). */
  maxRounds?: number;
  rewards?: EpisodeRewardOptions;
  /** Replaces the system message the trained model reads (as `MultiIssueLlmAgent`'s `systemPrompt`). */
  systemPrompt?: string;
  /** The trained side's name in run files (the arm of `haggle analyse`). Default `policy`. */
  armName?: string;
}

type Stop = { kind: 'turn'; input: MultiIssueInput } | { kind: 'end'; result: MultiIssueResult };

interface Episode {
  id: string | null;
  seed: number;
  match: SuiteMatch;
  scenario: Scenario;
  handoff: TurnHandoff<MultiIssueInput, MultiIssueTurn, MultiIssueResult>;
  controller: AbortController;
  stop: Stop;
  steps: number;
  rawTexts: string[];
  invalid?: ValidationIssue[];
  busy: boolean;
  reward?: number | null;
}

// Geometry (every outcome's utilities, the frontier) is costly and the same for every episode of a scenario.
const geometries = new WeakMap<Scenario, ScenarioGeometry>();
function geometryOf(scenario: Scenario): ScenarioGeometry {
  let geometry = geometries.get(scenario);
  if (!geometry) {
    geometry = scenarioGeometry(scenario);
    geometries.set(scenario, geometry);
  }
  return geometry;
}

// A turn's schema depends only on the issue space and whether accept is legal: built once per process
// (not per environment: a server builds an environment per connection), frozen, shared, so the server's
// cache of its JSON (observation-json.ts) hits across connections too.
const turnSchemas = new WeakMap<IssueSpace, { withAccept?: JsonSchema; withoutAccept?: JsonSchema }>();
function turnSchemaOf(space: IssueSpace, canAccept: boolean): JsonSchema {
  let bySpace = turnSchemas.get(space);
  if (!bySpace) {
    bySpace = {};
    turnSchemas.set(space, bySpace);
  }
  const key = canAccept ? 'withAccept' : 'withoutAccept';
  let schema = bySpace[key];
  if (!schema) {
    schema = deepFreeze(multiIssueTurnJsonSchema(space, { canAccept }));
    bySpace[key] = schema;
  }
  return schema;
}

/**
 * A multi-issue bargaining episode: the suite's negotiation picked by the seed, played by the same
 * `runMultiIssueNegotiation` a tournament runs, with the trained side's turns given by `step(text)` and
 * judged by the same validation as `MultiIssueLlmAgent`; the reward at the end is `bargainingReward`.
 */
export class MultiIssueEnvironment implements Environment {
  readonly name: MultiIssueEnvironmentName;
  readonly role: Role;
  private readonly options: MultiIssueEnvironmentOptions;
  private readonly matches: SuiteMatch[];
  private readonly scenarios: Map<string, Scenario>;
  private readonly maxRounds: number;
  private readonly rewards: ReturnType<typeof resolveEpisodeRewards>;
  private episode: Episode | undefined;
  private resets = 0;

  constructor(options: MultiIssueEnvironmentOptions) {
    this.options = options;
    this.name = options.env;
    this.role = options.env === 'multi-issue-seller' ? 'seller' : 'buyer';
    this.rewards = resolveEpisodeRewards(options.rewards);
    const problems: ValidationIssue[] = [];
    if (typeof options.opponent?.predict !== 'function')
      problems.push({
        path: 'opponent',
        message: 'must be a multi-issue negotiator (a baseline or MultiIssueLlmAgent)',
      });
    if (!options.opponentName) problems.push({ path: 'opponentName', message: 'must name the opponent' });
    if (options.suite?.scenarios?.length === undefined || options.suite.scenarios.length === 0)
      problems.push({
        path: 'suite',
        message: 'must be a suite with at least one scenario (generateSuite, loadSuite)',
      });
    if (
      options.maxRounds !== undefined &&
      (!Number.isInteger(options.maxRounds) || options.maxRounds < 1 || options.maxRounds > 1000)
    )
      problems.push({ path: 'maxRounds', message: 'must be an integer from 1 to 1000' });
    if (problems.length > 0) throw new InvalidInputError('MultiIssueEnvironmentOptions', problems);
    const suite = options.suite;
    // The opponent's own matches of the suite (the same seeds a tournament gives them); an opponent the
    // suite does not name plays the suite's scenarios as if it were the suite's only opponent.
    this.matches = suite.opponents.includes(options.opponentName)
      ? suiteMatches(suite, [options.opponentName])
      : suiteMatches({ ...suite, opponents: [options.opponentName] });
    this.scenarios = new Map(suite.scenarios.map((s) => [s.id, s]));
    this.maxRounds = options.maxRounds ?? suite.maxRounds ?? DEFAULT_MAX_ROUNDS;
  }

  /** Negotiations an episode seed can pick (seed `s` plays number `s mod episodes`). */
  get episodes(): number {
    return this.matches.length;
  }

  async reset(options: EnvironmentResetOptions = {}): Promise<EnvironmentStepResult> {
    const seed = options.seed ?? this.resets;
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new InvalidInputError('reset', [{ path: 'seed', message: 'must be a non-negative integer' }]);
    this.resets++;
    this.close();
    const match = this.matches[seed % this.matches.length] as SuiteMatch;
    const scenario = this.scenarios.get(match.scenarioId) as Scenario;
    const handoff = new TurnHandoff<MultiIssueInput, MultiIssueTurn, MultiIssueResult>();
    const controller = new AbortController();
    const trained: MultiIssueNegotiator = {
      predict: (input, predictOptions) => handoff.requestTurn(input, predictOptions?.signal),
      describe: () => ({ kind: 'external' }),
    };
    const opponent = this.options.opponent;
    runMultiIssueNegotiation({
      scenario,
      seller: this.role === 'seller' ? trained : opponent,
      buyer: this.role === 'buyer' ? trained : opponent,
      seed: match.seed,
      maxRounds: this.maxRounds,
      firstMover: this.options.suite.firstMover ?? DEFAULT_FIRST_MOVER,
      signal: controller.signal,
    }).then(
      (result) => handoff.end(result),
      (error: unknown) => handoff.crash(error),
    );
    const episode: Episode = {
      id: options.episodeId ?? null,
      seed,
      match,
      scenario,
      handoff,
      controller,
      stop: { kind: 'turn', input: undefined as unknown as MultiIssueInput },
      steps: 0,
      rawTexts: [],
      busy: true,
    };
    this.episode = episode;
    try {
      return await this.advance(episode);
    } finally {
      episode.busy = false;
    }
  }

  async step(text: string): Promise<EnvironmentStepResult> {
    const episode = this.episode;
    if (!episode) throw new EnvironmentStateError('no episode: call reset before step');
    if (episode.busy)
      throw new EnvironmentStateError('a reset or step of this episode is still running: await it first');
    if (episode.stop.kind === 'end')
      throw new EnvironmentStateError('the episode is done: call reset to start the next one');
    if (typeof text !== 'string')
      throw new InvalidInputError('step', [
        { path: 'text', message: "must be the model's raw output (a string)" },
      ]);
    const input = episode.stop.input;
    episode.busy = true;
    episode.steps++;
    episode.rawTexts.push(text);
    const canAccept = standingProposal(input.history, input.role) !== null;
    const checked = validateMultiIssueText(text, input, canAccept);
    if (checked.turn) {
      episode.handoff.answer(checked.turn);
    } else {
      episode.invalid = checked.issues;
      // The same failure an LLM arm's invalid output is in a tournament: the negotiation ends with
      // reason `error`, failed by the trained side, and `bargainingReward` gives the penalty.
      episode.handoff.fail(
        new InvalidModelOutputError({ rawTexts: [text], issues: checked.issues, attempts: 1 }),
      );
    }
    try {
      return await this.advance(episode);
    } finally {
      episode.busy = false;
    }
  }

  state(): EnvironmentState {
    const episode = this.episode;
    return {
      episode_id: episode?.id ?? null,
      step_count: episode?.steps ?? 0,
      env: this.name,
      seed: episode?.seed ?? null,
      done: episode?.stop.kind === 'end',
      ...(episode?.reward !== undefined ? { reward: episode.reward } : {}),
      ...(episode ? { scenario_id: episode.scenario.id } : {}),
      opponent: this.options.opponentName,
      role: this.role,
      raw_texts: episode ? [...episode.rawTexts] : [],
    };
  }

  record(): EpisodeRecord | null {
    const episode = this.episode;
    if (episode?.stop.kind !== 'end') return null;
    const result = episode.stop.result;
    return {
      type: 'match',
      index: 0,
      arm: this.options.armName ?? 'policy',
      armRole: this.role,
      opponent: this.options.opponentName,
      scenarioId: episode.scenario.id,
      seed: episode.match.seed,
      metrics: scoreMatch(
        { armRole: this.role, scenario: episode.scenario },
        result,
        geometryOf(episode.scenario),
      ),
      result,
      episode: {
        env: this.name,
        id: episode.id,
        seed: episode.seed,
        reward: episode.reward ?? null,
        rawTexts: episode.rawTexts,
      },
    };
  }

  runHeader(): RunHeader {
    const arm = this.options.armName ?? 'policy';
    const opponent = { [this.options.opponentName]: this.options.opponent.describe() };
    return {
      type: 'tournament',
      format: 'haggle-tournament',
      version: 1,
      suiteId: this.options.suite.id,
      // Episodes are played as long as a trainer asks: no number of matches is planned.
      matches: 0,
      config: {
        env: this.name,
        arms: { [arm]: { kind: 'external', env: this.name } },
        opponents: withoutLocations(opponent),
        armRoles: [this.role],
        maxRounds: this.maxRounds,
        rewards: this.rewards,
        ...(this.options.suite.firstMover === 'buyer' ? { firstMover: 'buyer' } : {}),
      },
      provenance: currentProvenance({
        [`opponent ${this.options.opponentName}`]: opponent[this.options.opponentName],
      }),
    };
  }

  close(): void {
    const episode = this.episode;
    if (episode && episode.stop.kind !== 'end')
      episode.controller.abort(new EnvironmentStateError('episode abandoned'));
  }

  private async advance(episode: Episode): Promise<EnvironmentStepResult> {
    const stop = await episode.handoff.next();
    if (stop.kind === 'crash') {
      episode.stop = { kind: 'end', result: crashResult(stop.error, this.role) };
      throw stop.error;
    }
    episode.stop = stop;
    if (stop.kind === 'turn') {
      return {
        observation: this.observe(stop.input),
        reward: episode.steps === 0 ? 0 : this.rewards.step,
        done: false,
      };
    }
    const result = stop.result;
    const reward = bargainingReward(episode.scenario, result, this.role, {
      invalidTurn: this.rewards.invalidAction,
      noDeal: this.rewards.noDeal,
    });
    episode.reward = reward;
    const info: EnvironmentStepInfo = {
      end_reason: result.reason,
      deal: result.agreement !== null,
      utilities: result.utilities,
    };
    if (episode.invalid) info.invalid_action = { issues: episode.invalid };
    if (result.failedBy !== undefined && result.failedBy !== this.role) {
      info.void = true;
      if (result.error)
        info.opponent_error = { name: result.error.name, message: redact(result.error.message) };
    }
    return {
      observation: {
        messages: [],
        prompt: '',
        template: 'qwen3_nothink',
        legal_moves: [],
        schema: null,
        role: this.role,
        turn: result.rounds,
        info,
      },
      reward,
      done: true,
    };
  }

  private observe(input: MultiIssueInput): EnvironmentObservation {
    const messages = multiIssueMessages(input);
    if (this.options.systemPrompt !== undefined)
      messages[0] = { role: 'system', content: this.options.systemPrompt };
    const canAccept = standingProposal(input.history, input.role) !== null;
    return {
      messages,
      prompt: renderQwen3NoThink(messages),
      template: 'qwen3_nothink',
      legal_moves: [
        { action: 'offer' },
        ...(canAccept ? [{ action: 'accept' }] : []),
        { action: 'walk_away' },
      ],
      schema: turnSchemaOf(input.space, canAccept),
      role: this.role,
      turn: input.round,
      info: {},
    };
  }
}

function crashResult(error: unknown, role: Role): MultiIssueResult {
  return {
    agreement: null,
    reason: 'error',
    rounds: 0,
    utilities: { buyer: 0, seller: 0 },
    turns: [],
    error: { name: (error as Error)?.name ?? 'Error', message: String((error as Error)?.message ?? error) },
    failedBy: role === 'seller' ? 'buyer' : 'seller',
  };
}
