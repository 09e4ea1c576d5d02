import { parseModelOutput } from '../agent/output-parsing.js';
import { validatePredictInput } from '../agent/predict-input.js';
import { checkTurn } from '../agent/turn-checks.js';
import { movesForTurn } from '../agent/turn-moves.js';
import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
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
import type { EnvironmentObservation, EnvironmentStepInfo, EpisodeRunHeader } from './environment.js';
import { type EpisodeCore, type EpisodeEnd, type EpisodeGame, GameEnvironment } from './episode-core.js';
import { type EpisodeRewardOptions, resolveEpisodeRewards } from './episode-rewards.js';

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

/** What a best-offer episode plays: a listing, in a `Session`. */
interface BestOfferStart {
  context: ListingContext;
  session: Session;
}

/** The trained side's turn once it is due: its input, checked, and its legal moves. */
interface BestOfferTurnDue {
  input: ReturnType<typeof validatePredictInput>;
  moves: LegalMove[];
}

/**
 * An eBay-style Best Offer negotiation over one listing: a `Session` (the same the simulator runs)
 * whose trained side's turns come from `step(text)`, parsed and checked by the same code as
 * `NegotiationAgent` (its prompt, legal moves and turn schema in every observation).
 */
export class BestOfferEnvironment extends GameEnvironment {
  declare readonly name: BestOfferEnvironmentName;
  private readonly options: BestOfferEnvironmentOptions;
  private readonly contexts: readonly ListingContext[];
  private readonly profile: ModelProfile;
  private readonly rewards: ReturnType<typeof resolveEpisodeRewards>;
  private readonly rules = new BestOfferRules();
  /** @internal */
  protected readonly core: EpisodeCore<PredictInput, Turn, SessionResult, BestOfferStart, BestOfferTurnDue>;

  constructor(options: BestOfferEnvironmentOptions) {
    super(options.env, options.env === 'best-offer-seller' ? 'seller' : 'buyer');
    this.options = options;
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
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'BestOfferEnvironmentOptions', issues: problems });
    this.contexts =
      options.contexts?.map((context, i) => parseInput(ListingContextSchema, context, `contexts[${i}]`)) ??
      generateContexts({ count: 1000, seed: options.catalogSeed ?? 0 });
    this.profile = resolveModelProfile(options.profile);
    this.core = this.playing(this.game(), options, this.rewards);
  }

  /** The first line of a run file of this environment's episodes (a tournament header `haggle analyse` reads). */
  runHeader(): EpisodeRunHeader {
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

  /** The Best Offer game as the episode core plays it. */
  /** @internal */
  private game(): EpisodeGame<PredictInput, Turn, SessionResult, BestOfferStart, BestOfferTurnDue> {
    return {
      template: this.profile.template,
      start: ({ seed, episodeId, trained: requestTurn, signal }) => {
        const context = this.contexts[seed % this.contexts.length] as ListingContext;
        const trained: Negotiator = {
          predict: (input, predictOptions) => requestTurn(input, predictOptions?.signal),
          describe: () => ({ kind: 'external' }),
          responseTimeUnit: this.profile.responseTimeUnit,
        };
        const session = new Session({
          context,
          seller: this.role === 'seller' ? trained : this.options.opponent,
          buyer: this.role === 'buyer' ? trained : this.options.opponent,
          seed,
          rules: this.rules,
          id: episodeId ?? `episode-${seed}`,
        });
        // A failed session (an invalid action, an opponent's error) still has its result: that ends the episode.
        const run = session.run({ signal }).catch((error: unknown) => {
          if (session.result && !signal.aborted) return session.result;
          throw error;
        });
        return { start: { context, session }, run };
      },
      crashResult: (_error, start) => start.session.result as SessionResult,
      prepare: (input) => {
        const valid = validatePredictInput(input);
        return { input: valid, moves: movesForTurn(valid, this.rules, undefined) };
      },
      // NegotiationAgent's own two checks: the text as JSON, then the turn against this moment's moves.
      check: (text, { input, moves }) => {
        const parsed = parseModelOutput(text);
        if (!parsed.ok) return parsed;
        return checkTurn(parsed.value, {
          role: input.role,
          moves,
          labels: this.profile.labels,
          responseTimeUnit: this.profile.responseTimeUnit,
        });
      },
      observe: (due) => this.observe(due),
      finish: (result, _start, invalid) => this.finish(result, invalid),
      scenarioId: (start) => start.context.id,
      recordFields: (start, result, episodeSeed) => ({
        scenarioId: start.context.id ?? `listing-${episodeSeed % this.contexts.length}`,
        seed: episodeSeed,
        session: result,
      }),
    };
  }

  private finish(result: SessionResult, invalid: ValidationIssue[] | undefined): EpisodeEnd {
    const outcome = result.outcome;
    const info: EnvironmentStepInfo = {
      end_reason: outcome.reason,
      deal: outcome.status === 'deal',
      price: outcome.price,
    };
    let reward: number | null;
    if (outcome.reason === 'error' && !invalid) {
      reward = null; // the opponent failed: void
      info.void = true;
      if (result.error)
        info.opponent_error = { name: result.error.name, message: redact(result.error.message) };
    } else if (invalid) {
      reward = this.rewards.invalidAction;
      info.invalid_action = { issues: invalid };
    } else {
      reward = bestOfferReward(
        result,
        this.role,
        this.options.reward ?? 'price-over-list',
        this.rewards.noDeal,
      );
    }
    return { reward, info, turns: outcome.turns };
  }

  private observe({ input, moves }: BestOfferTurnDue): EnvironmentObservation {
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
