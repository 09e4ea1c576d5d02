import type { Action } from '../contract/action.js';
import { InvalidInputError, throwIfAborted, type ValidationIssue } from '../contract/errors.js';
import type {
  Negotiator,
  NegotiatorDescription,
  PredictInput,
  PredictOptions,
} from '../contract/negotiator.js';
import type { Turn } from '../contract/turn.js';
import { Random } from '../internal/random.js';
import { checkPredictInput, legalActionSet } from './agent-input.js';
import { legalPriceRange } from './legal-price.js';
import { buyerPreferences, firstOfferRatio } from './population-buyer.js';
import { draftMessage } from './population-messages.js';
import {
  DEFAULT_POPULATION_PARAMETERS,
  POPULATION_PARAMETER_TABLE,
  type PopulationParameterName,
  type PopulationParameters,
} from './population-parameters.js';
import { type PolicyContext, responseHours } from './population-policy.js';
import { sellerPreferences } from './population-seller.js';
import { readThread } from './thread-view.js';
import {
  bareTurn,
  firstLegal,
  forcedOfferPrice,
  messageTurn,
  offerPrice,
  offerTurn,
  offerWithMessageTurn,
  withinTimeBound,
  withoutImpossibleOffers,
} from './turns.js';

/** Options of `PopulationAgent`: overrides of its behaviour parameters. */
export interface PopulationAgentOptions {
  /** Overrides of `POPULATION_PARAMETER_TABLE`'s values; each must lie within its row's range. */
  parameters?: Partial<PopulationParameters>;
}

/**
 * A stochastic stand-in for the population of eBay Best Offer buyers and sellers, for either role,
 * with no model behind it. Calibrated so that playing itself over synthetic listings gives the
 * population's deal rate (about 43%), about a third of threads agreed at once, and first offers
 * clustered at round fractions of the list price (see `POPULATION_PARAMETER_TABLE`).
 *
 * Stateless: each decision is drawn from the history and a `Random` seeded by `options.seed`, so one
 * instance can play many sessions at once and the same seed replays the same turn.
 *
 * @example
 * ```ts
 * import { PopulationAgent } from 'haggle';
 *
 * const seller = new PopulationAgent();
 * // The same seed and history give the same turn.
 * const turn = await seller.predict({ context, history, role: 'seller' }, { seed: 3 });
 * console.log(turn.action, turn.price);
 * ```
 * @see The guide: [Baseline agents](../../docs/baseline-agents.md).
 */
export class PopulationAgent implements Negotiator {
  readonly responseTimeUnit = 'hours' as const;
  readonly parameters: Readonly<PopulationParameters>;

  constructor(options: PopulationAgentOptions = {}) {
    this.parameters = Object.freeze(resolveParameters(options));
  }

  describe(): NegotiatorDescription {
    return { kind: 'population', ...this.parameters };
  }

  async predict(input: PredictInput, options: PredictOptions = {}): Promise<Turn> {
    throwIfAborted(options.signal);
    checkPredictInput(input, 'PopulationAgent');
    const view = readThread(input);
    const ctx: PolicyContext = {
      view,
      // With no legal price (a buyer offer a cent below list), the policy answers without one.
      legal: withoutImpossibleOffers(legalActionSet(input.legalActions), legalPriceRange(view) !== null),
      random: new Random(options.seed ?? 0),
      params: this.parameters,
      currency: input.context.currency ?? 'USD',
    };
    const preferred = input.role === 'buyer' ? buyerPreferences(ctx) : sellerPreferences(ctx);
    const turn = firstLegal(preferred, ctx.legal, (action) => fallbackTurn(action, ctx));
    return withinTimeBound(turn, input.legalMoves);
  }
}

/** A sensible turn for any action, for when the rules allow none of the policy's preferred moves. */
function fallbackTurn(action: Action, ctx: PolicyContext): Turn {
  const { view, random, params } = ctx;
  const buyer = view.role === 'buyer';
  const hours = buyer
    ? responseHours(random, params.buyerResponseMedianHours, params.buyerResponseSigma)
    : responseHours(random, params.sellerResponseMedianHours, params.sellerResponseSigma);
  const lastOwn = view.ownOffers[view.ownOffers.length - 1];
  // Never worse for oneself than one's last position: the buyer repeats or opens, the seller asks.
  const price =
    offerPrice(
      buyer
        ? (lastOwn ?? firstOfferRatio(random, params) * view.listPrice)
        : Math.min(view.listPrice, lastOwn ?? view.listPrice),
      view,
    ) ?? forcedOfferPrice(view);
  switch (action) {
    case 'offer':
      return offerTurn(price, hours);
    case 'offer_with_message': {
      const draft = draftMessage(random, view.role, price, ctx.currency);
      return offerWithMessageTurn(price, draft.labels, draft.message, hours);
    }
    case 'message_only': {
      const draft = draftMessage(random, view.role, null, ctx.currency);
      return messageTurn(draft.labels, draft.message, hours);
    }
    case 'accept':
    case 'decline':
    case 'no_response':
      return bareTurn(action, hours);
  }
}

function resolveParameters(options: PopulationAgentOptions): PopulationParameters {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError({
      subject: 'PopulationAgentOptions',
      issues: [
        {
          path: '(root)',
          message: 'pass an object such as { parameters: { buyerCounterProbability: 0.5 } }',
        },
      ],
    });
  }
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(options)) {
    if (key !== 'parameters')
      issues.push({ path: key, message: 'unknown option; the only option is `parameters`' });
  }
  const overrides = options.parameters ?? {};
  if (typeof overrides !== 'object' || overrides === null) {
    issues.push({ path: 'parameters', message: 'must be an object of parameter overrides' });
    throw new InvalidInputError({ subject: 'PopulationAgentOptions', issues });
  }
  const parameters: PopulationParameters = { ...DEFAULT_POPULATION_PARAMETERS };
  for (const [name, value] of Object.entries(overrides)) {
    const spec = (POPULATION_PARAMETER_TABLE as Record<string, { min: number; max: number } | undefined>)[
      name
    ];
    if (!spec) {
      issues.push({
        path: `parameters.${name}`,
        message: 'unknown parameter; see POPULATION_PARAMETER_TABLE',
      });
      continue;
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < spec.min || value > spec.max) {
      issues.push({
        path: `parameters.${name}`,
        message: `must be a number from ${spec.min} to ${spec.max}, got ${String(value)}`,
      });
      continue;
    }
    parameters[name as PopulationParameterName] = value;
  }
  issues.push(...crossChecks(parameters));
  if (issues.length > 0) throw new InvalidInputError({ subject: 'PopulationAgentOptions', issues });
  return parameters;
}

/** Rules that tie parameters together, which a per-row range cannot express. */
function crossChecks(p: PopulationParameters): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const clusterWeight =
    p.firstOfferHalfWeight + p.firstOfferTwoThirdsWeight + p.firstOfferThreeQuartersWeight;
  if (clusterWeight > 1 + 1e-9) {
    issues.push({
      path: 'parameters.firstOfferHalfWeight',
      message: `the three first-offer cluster weights must sum to at most 1, got ${clusterWeight}`,
    });
  }
  if (p.firstOfferRemainderMin > p.firstOfferRemainderMax) {
    issues.push({
      path: 'parameters.firstOfferRemainderMin',
      message: 'must not be above firstOfferRemainderMax',
    });
  }
  if (p.concessionShareMin > p.concessionShareMax) {
    issues.push({ path: 'parameters.concessionShareMin', message: 'must not be above concessionShareMax' });
  }
  return issues;
}
