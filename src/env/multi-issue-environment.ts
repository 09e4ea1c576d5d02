import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type { JsonSchema } from '../contract/json-schema.js';
import {
  DEFAULT_FIRST_MOVER,
  DEFAULT_MAX_ROUNDS,
  type Suite,
  type SuiteMatch,
  suiteMatches,
} from '../evaluation/suite.js';
import { redact } from '../internal/redact.js';
import type { IssueSpace } from '../multi-issue/issue-space.js';
import { scoreMatch } from '../multi-issue/match-metrics.js';
import { type MultiIssueResult, runMultiIssueNegotiation } from '../multi-issue/multi-issue-negotiation.js';
import { multiIssueMessages } from '../multi-issue/multi-issue-prompt.js';
import {
  type MultiIssueInput,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  multiIssueTurnJsonSchema,
  standingProposal,
} from '../multi-issue/multi-issue-turn.js';
import { validateMultiIssueText } from '../multi-issue/multi-issue-validation.js';
import { bargainingReward } from '../multi-issue/reward.js';
import { type Scenario, type ScenarioGeometry, scenarioGeometry } from '../multi-issue/scenario.js';
import { renderQwen3NoThink } from '../prompt/qwen3-chat-format.js';
import { currentProvenance, withoutLocations } from '../simulation/provenance.js';
import type { EnvironmentObservation, EnvironmentStepInfo, EpisodeRunHeader } from './environment.js';
import { type EpisodeCore, type EpisodeEnd, type EpisodeGame, GameEnvironment } from './episode-core.js';
import { type EpisodeRewardOptions, resolveEpisodeRewards } from './episode-rewards.js';
import { deepFreeze } from './observation-json.js';

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

/** What a multi-issue episode plays: one of the suite's negotiations. */
interface MultiIssueStart {
  match: SuiteMatch;
  scenario: Scenario;
}

/** The trained side's turn once it is due: its input, and whether accepting is legal. */
interface MultiIssueTurnDue {
  input: MultiIssueInput;
  canAccept: boolean;
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
export class MultiIssueEnvironment extends GameEnvironment {
  declare readonly name: MultiIssueEnvironmentName;
  private readonly options: MultiIssueEnvironmentOptions;
  private readonly matches: SuiteMatch[];
  private readonly scenarios: Map<string, Scenario>;
  private readonly maxRounds: number;
  private readonly rewards: ReturnType<typeof resolveEpisodeRewards>;
  /** @internal */
  protected readonly core: EpisodeCore<
    MultiIssueInput,
    MultiIssueTurn,
    MultiIssueResult,
    MultiIssueStart,
    MultiIssueTurnDue
  >;

  constructor(options: MultiIssueEnvironmentOptions) {
    super(options.env, options.env === 'multi-issue-seller' ? 'seller' : 'buyer');
    this.options = options;
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
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'MultiIssueEnvironmentOptions', issues: problems });
    const suite = options.suite;
    // The opponent's own matches of the suite (the same seeds a tournament gives them); an opponent the
    // suite does not name plays the suite's scenarios as if it were the suite's only opponent.
    this.matches = suite.opponents.includes(options.opponentName)
      ? suiteMatches(suite, [options.opponentName])
      : suiteMatches({ ...suite, opponents: [options.opponentName] });
    this.scenarios = new Map(suite.scenarios.map((s) => [s.id, s]));
    this.maxRounds = options.maxRounds ?? suite.maxRounds ?? DEFAULT_MAX_ROUNDS;
    this.core = this.playing(this.game(), options, this.rewards);
  }

  /** Negotiations an episode seed can pick (seed `s` plays number `s mod episodes`). */
  get episodes(): number {
    return this.matches.length;
  }

  /** The first line of a run file of this environment's episodes (a tournament header `haggle analyse` reads). */
  runHeader(): EpisodeRunHeader {
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

  /** The multi-issue game as the episode core plays it. */
  /** @internal */
  private game(): EpisodeGame<
    MultiIssueInput,
    MultiIssueTurn,
    MultiIssueResult,
    MultiIssueStart,
    MultiIssueTurnDue
  > {
    return {
      template: 'qwen3_nothink',
      start: ({ seed, trained: requestTurn, signal }) => {
        const match = this.matches[seed % this.matches.length] as SuiteMatch;
        const scenario = this.scenarios.get(match.scenarioId) as Scenario;
        const trained: MultiIssueNegotiator = {
          predict: (input, predictOptions) => requestTurn(input, predictOptions?.signal),
          describe: () => ({ kind: 'external' }),
        };
        const opponent = this.options.opponent;
        const run = runMultiIssueNegotiation({
          scenario,
          seller: this.role === 'seller' ? trained : opponent,
          buyer: this.role === 'buyer' ? trained : opponent,
          seed: match.seed,
          maxRounds: this.maxRounds,
          firstMover: this.options.suite.firstMover ?? DEFAULT_FIRST_MOVER,
          signal,
        });
        return { start: { match, scenario }, run };
      },
      crashResult: (error) => crashResult(error, this.role),
      prepare: (input) => ({ input, canAccept: standingProposal(input.history, input.role) !== null }),
      check: (text, { input, canAccept }) => {
        const checked = validateMultiIssueText(text, input, canAccept);
        return checked.turn ? { ok: true, turn: checked.turn } : { ok: false, issues: checked.issues };
      },
      observe: (due) => this.observe(due),
      finish: (result, start, invalid) => this.finish(result, start.scenario, invalid),
      scenarioId: (start) => start.scenario.id,
      recordFields: ({ match, scenario }, result) => ({
        scenarioId: scenario.id,
        seed: match.seed,
        metrics: scoreMatch({ armRole: this.role, scenario }, result, geometryOf(scenario)),
        result,
      }),
    };
  }

  private finish(
    result: MultiIssueResult,
    scenario: Scenario,
    invalid: ValidationIssue[] | undefined,
  ): EpisodeEnd {
    const reward = bargainingReward(scenario, result, this.role, {
      invalidTurn: this.rewards.invalidAction,
      noDeal: this.rewards.noDeal,
    });
    const info: EnvironmentStepInfo = {
      end_reason: result.reason,
      deal: result.agreement !== null,
      utilities: result.utilities,
    };
    if (invalid) info.invalid_action = { issues: invalid };
    if (result.failedBy !== undefined && result.failedBy !== this.role) {
      info.void = true;
      if (result.error)
        info.opponent_error = { name: result.error.name, message: redact(result.error.message) };
    }
    return { reward, info, turns: result.rounds };
  }

  private observe({ input, canAccept }: MultiIssueTurnDue): EnvironmentObservation {
    const messages = multiIssueMessages(input);
    if (this.options.systemPrompt !== undefined)
      messages[0] = { role: 'system', content: this.options.systemPrompt };
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
