import { parseModelOutput } from '../agent/output-parsing.js';
import { validatePredictInput } from '../agent/predict-input.js';
import { checkTurn } from '../agent/turn-checks.js';
import { movesForTurn } from '../agent/turn-moves.js';
import { InvalidInputError, InvalidModelOutputError, type ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import type { LegalMove } from '../contract/legal-moves.js';
import { type ListingContext, ListingContextSchema } from '../contract/listing-context.js';
import { type ModelProfile, resolveModelProfile } from '../contract/model-profile.js';
import type { Negotiator, PredictInput } from '../contract/negotiator.js';
import type { Turn } from '../contract/turn.js';
import { turnJsonSchema } from '../contract/turn-json-schema.js';
import { parseInput } from '../contract/validate.js';
import { redact } from '../internal/redact.js';
import { renderPrompt } from '../prompt/render-prompt.js';
import { BestOfferRules } from '../rules/best-offer-rules.js';
import { currentProvenance, withoutLocations } from '../simulation/provenance.js';
import { Session } from '../simulation/session.js';
import type { SessionResult } from '../simulation/session-result.js';
import { generateContexts } from '../simulation/synthetic-contexts.js';
import { BEST_OFFER_EPISODES_FORMAT } from './best-offer-sessions.js';
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
import { TurnHandoff } from './turn-handoff.js';

/** The best-offer environments: the trained side sells or buys one listing. */
export type BestOfferEnvironmentName = 'best-offer-seller' | 'best-offer-buyer';

/**
 * How a best-offer episode's outcome is scored (haggle's choice, see docs/training.md; the sources give
 * no reward for this game): `price-over-list` (default) gives the seller the deal price over the list
 * price and the buyer one minus it, a no-deal `noDeal` (default 0); `deal` gives 1 for any deal.
 */
export type BestOfferReward = 'price-over-list' | 'deal';

/** Options of a best-offer environment: the listings, the opponent, the trained model's profile, the reward. */
export interface BestOfferEnvironmentOptions {
  env: BestOfferEnvironmentName;
  /** The opponent: `PopulationAgent`, a time-based agent, or a `NegotiationAgent` over any backend. */
  opponent: Negotiator;
  opponentName: string;
  /**
   * Listings episodes play: episode seed `s` plays `contexts[s mod n]`. Default: 1,000 listings of the
   * synthetic catalog (`generateContexts({ count: 1000, seed: catalogSeed })`).
   */
  contexts?: readonly ListingContext[];
  /** Seed of the synthetic catalog when `contexts` is left out. Default 0. */
  catalogSeed?: number;
  /** The trained model's profile: its prompt template, labels and response-time unit. Default the card's model. */
  profile?: ModelProfile | string;
  reward?: BestOfferReward;
  rewards?: EpisodeRewardOptions;
  /** The trained side's name in run files. Default `policy`. */
  armName?: string;
}

type Stop =
  | { kind: 'turn'; input: PredictInput; moves: LegalMove[] }
  | { kind: 'end'; result: SessionResult };

interface Episode {
  id: string | null;
  seed: number;
  context: ListingContext;
  handoff: TurnHandoff<PredictInput, Turn, SessionResult>;
  controller: AbortController;
  session: Session;
  stop: Stop | undefined;
  steps: number;
  rawTexts: string[];
  invalid?: ValidationIssue[];
  busy: boolean;
  reward?: number | null;
}

/**
 * An eBay-style Best Offer negotiation over one listing: a `Session` (the same the simulator runs)
 * whose trained side's turns come from `step(text)`, parsed and checked by the same code as
 * `NegotiationAgent` (its prompt, legal moves and turn schema in every observation).
 */
export class BestOfferEnvironment implements Environment {
  readonly name: BestOfferEnvironmentName;
  readonly role: Role;
  private readonly options: BestOfferEnvironmentOptions;
  private readonly contexts: readonly ListingContext[];
  private readonly profile: ModelProfile;
  private readonly rewards: ReturnType<typeof resolveEpisodeRewards>;
  private readonly rules = new BestOfferRules();
  private episode: Episode | undefined;
  private resets = 0;

  constructor(options: BestOfferEnvironmentOptions) {
    this.options = options;
    this.name = options.env;
    this.role = options.env === 'best-offer-seller' ? 'seller' : 'buyer';
    this.rewards = resolveEpisodeRewards(options.rewards);
    const problems: ValidationIssue[] = [];
    if (typeof options.opponent?.predict !== 'function' || typeof options.opponent.describe !== 'function')
      problems.push({
        path: 'opponent',
        message: 'must be a Negotiator (PopulationAgent, boulware(), a NegotiationAgent)',
      });
    if (!options.opponentName) problems.push({ path: 'opponentName', message: 'must name the opponent' });
    if (options.reward !== undefined && options.reward !== 'price-over-list' && options.reward !== 'deal')
      problems.push({ path: 'reward', message: 'must be "price-over-list" or "deal"' });
    if (options.contexts !== undefined && options.contexts.length === 0)
      problems.push({
        path: 'contexts',
        message: 'must hold at least one listing (or leave it out for the synthetic catalog)',
      });
    if (problems.length > 0) throw new InvalidInputError('BestOfferEnvironmentOptions', problems);
    this.contexts =
      options.contexts?.map((context, i) => parseInput(ListingContextSchema, context, `contexts[${i}]`)) ??
      generateContexts({ count: 1000, seed: options.catalogSeed ?? 0 });
    this.profile = resolveModelProfile(options.profile);
  }

  async reset(options: EnvironmentResetOptions = {}): Promise<EnvironmentStepResult> {
    const seed = options.seed ?? this.resets;
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new InvalidInputError('reset', [{ path: 'seed', message: 'must be a non-negative integer' }]);
    this.resets++;
    this.close();
    const context = this.contexts[seed % this.contexts.length] as ListingContext;
    const handoff = new TurnHandoff<PredictInput, Turn, SessionResult>();
    const controller = new AbortController();
    const trained: Negotiator = {
      predict: (input, predictOptions) => handoff.requestTurn(input, predictOptions?.signal),
      describe: () => ({ kind: 'external' }),
      responseTimeUnit: this.profile.responseTimeUnit,
    };
    const session = new Session({
      context,
      seller: this.role === 'seller' ? trained : this.options.opponent,
      buyer: this.role === 'buyer' ? trained : this.options.opponent,
      seed,
      rules: this.rules,
      id: options.episodeId ?? `episode-${seed}`,
    });
    // A failed session (an invalid action, an opponent's error) still has its result: that ends the episode.
    session.run({ signal: controller.signal }).then(
      (result) => handoff.end(result),
      (error: unknown) =>
        session.result && !controller.signal.aborted ? handoff.end(session.result) : handoff.crash(error),
    );
    const episode: Episode = {
      id: options.episodeId ?? null,
      seed,
      context,
      handoff,
      controller,
      session,
      stop: undefined,
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
    if (!episode?.stop) throw new EnvironmentStateError('no episode: call reset before step');
    if (episode.busy)
      throw new EnvironmentStateError('a reset or step of this episode is still running: await it first');
    if (episode.stop.kind === 'end')
      throw new EnvironmentStateError('the episode is done: call reset to start the next one');
    if (typeof text !== 'string')
      throw new InvalidInputError('step', [
        { path: 'text', message: "must be the model's raw output (a string)" },
      ]);
    const { input, moves } = episode.stop;
    episode.busy = true;
    episode.steps++;
    episode.rawTexts.push(text);
    // NegotiationAgent's own two checks: the text as JSON, then the turn against this moment's moves.
    const parsed = parseModelOutput(text);
    const checked = parsed.ok
      ? checkTurn(parsed.value, {
          role: input.role,
          moves,
          labels: this.profile.labels,
          responseTimeUnit: this.profile.responseTimeUnit,
        })
      : parsed;
    if (checked.ok) episode.handoff.answer(checked.turn);
    else {
      episode.invalid = checked.issues;
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
      done: episode?.stop?.kind === 'end',
      ...(episode?.reward !== undefined ? { reward: episode.reward } : {}),
      ...(episode?.context.id !== undefined ? { scenario_id: episode.context.id } : {}),
      opponent: this.options.opponentName,
      role: this.role,
      raw_texts: episode ? [...episode.rawTexts] : [],
    };
  }

  record(): EpisodeRecord | null {
    const episode = this.episode;
    if (episode?.stop?.kind !== 'end') return null;
    return {
      type: 'match',
      index: 0,
      arm: this.options.armName ?? 'policy',
      armRole: this.role,
      opponent: this.options.opponentName,
      scenarioId: episode.context.id ?? `listing-${episode.seed % this.contexts.length}`,
      seed: episode.seed,
      session: episode.stop.result,
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
    const opponent = this.options.opponent.describe();
    return {
      type: 'tournament',
      // Not a multi-issue tournament: `haggle analyse` refuses it by this format rather than misreading it.
      format: BEST_OFFER_EPISODES_FORMAT as 'haggle-tournament',
      version: 1,
      suiteId: this.options.contexts ? 'contexts' : `synthetic-catalog-seed${this.options.catalogSeed ?? 0}`,
      matches: 0,
      config: {
        env: this.name,
        arms: { [arm]: { kind: 'external', env: this.name, profile: this.profile.id } },
        opponents: withoutLocations({ [this.options.opponentName]: opponent }),
        armRoles: [this.role],
        reward: this.options.reward ?? 'price-over-list',
        rewards: this.rewards,
      },
      provenance: currentProvenance({ [`opponent ${this.options.opponentName}`]: opponent }),
    };
  }

  close(): void {
    const episode = this.episode;
    if (episode && episode.stop?.kind !== 'end')
      episode.controller.abort(new EnvironmentStateError('episode abandoned'));
  }

  private async advance(episode: Episode): Promise<EnvironmentStepResult> {
    const stop = await episode.handoff.next();
    if (stop.kind === 'crash') {
      episode.stop = { kind: 'end', result: episode.session.result as SessionResult };
      throw stop.error;
    }
    if (stop.kind === 'turn') {
      const valid = validatePredictInput(stop.input);
      const moves = movesForTurn(valid, this.rules, undefined);
      episode.stop = { kind: 'turn', input: stop.input, moves };
      return {
        observation: this.observe(valid, moves),
        reward: episode.steps === 0 ? 0 : this.rewards.step,
        done: false,
      };
    }
    const result = stop.result;
    episode.stop = { kind: 'end', result };
    const outcome = result.outcome;
    const info: EnvironmentStepInfo = {
      end_reason: outcome.reason,
      deal: outcome.status === 'deal',
      price: outcome.price,
    };
    let reward: number | null;
    if (outcome.reason === 'error' && !episode.invalid) {
      reward = null; // the opponent failed: void
      info.void = true;
      if (result.error)
        info.opponent_error = { name: result.error.name, message: redact(result.error.message) };
    } else if (episode.invalid) {
      reward = this.rewards.invalidAction;
      info.invalid_action = { issues: episode.invalid };
    } else {
      reward = bestOfferReward(
        result,
        this.role,
        this.options.reward ?? 'price-over-list',
        this.rewards.noDeal,
      );
    }
    episode.reward = reward;
    return {
      observation: {
        messages: [],
        prompt: '',
        template: this.profile.template,
        legal_moves: [],
        schema: null,
        role: this.role,
        turn: outcome.turns,
        info,
      },
      reward,
      done: true,
    };
  }

  private observe(
    input: ReturnType<typeof validatePredictInput>,
    moves: LegalMove[],
  ): EnvironmentObservation {
    const { messages, text, template } = renderPrompt({
      context: input.context,
      history: input.history,
      role: input.role,
      profile: this.profile,
    });
    return {
      messages,
      prompt: text,
      template,
      legal_moves: moves.map((move) => ({ ...move })),
      schema: turnJsonSchema({ profile: this.profile, moves }),
      role: this.role,
      turn: input.history.length,
      info: {},
    };
  }
}

/**
 * The reward of a finished best-offer session for `role` (haggle's choice, see `BestOfferReward`):
 * exported so trainers and tests can score recorded sessions the same way.
 */
export function bestOfferReward(
  result: SessionResult,
  role: Role,
  shape: BestOfferReward,
  noDeal: 'reservation' | number,
): number {
  const { outcome, context } = result;
  if (outcome.status !== 'deal' || outcome.price === null) return noDeal === 'reservation' ? 0 : noDeal;
  if (shape === 'deal') return 1;
  const share = outcome.price / context.listPrice;
  return role === 'seller' ? share : 1 - share;
}
