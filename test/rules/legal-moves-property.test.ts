import { expect, it } from 'vitest';
import { priceWithinBounds } from '../../src/contract/guardrails.js';
import {
  type Guardrails,
  type LegalMove,
  type ListingContextInput,
  type Negotiator,
  type PredictInput,
  type PriceInterval,
  type Role,
  type TimeUnit,
  type Turn,
  turnJsonSchema,
  turnSchemaFor,
} from '../../src/contract/index.js';
import { gridEnds } from '../../src/contract/legal-moves.js';
import {
  type CompiledGrammar,
  compileSchema,
  decodeConstrained,
  TokenSampler,
} from '../../src/decoding/index.js';
import { Random } from '../../src/internal/random.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import type { Rules } from '../../src/rules/rules.js';
import { Session } from '../../src/simulation/session.js';
import { qwen3 } from '../decoding/support/qwen3.js';

// The promise of the one flow, checked end to end: a random rule state (a random listing, currency,
// rule set and legal prefix) -> the rules' legal moves -> the turn schema, with random guardrails ->
// the constrained decoder on random logits (the hardest customer) -> the Session accepts the turn.

const TRIALS = 2000;
const CURRENCIES = ['USD', 'EUR', 'JPY', 'KWD'] as const;
const UNITS: readonly TimeUnit[] = ['hours', 'minutes', 'days'];

function randomContext(random: Random): ListingContextInput {
  const currency = random.pick(CURRENCIES);
  const decimals = currency === 'JPY' ? 0 : currency === 'KWD' ? 3 : 2;
  const scale = 10 ** decimals;
  // Tiny listings (a few cents: crowded intervals) up to large ones.
  const magnitude = random.pick([0.05, 1, 20, 300, 10_000, 2_000_000]);
  const units = Math.max(1, Math.round(random.uniform(0.5, 1.5) * magnitude * scale));
  return { item: { title: 'Property-test item' }, listPrice: units / scale, currency };
}

/** A grid price in the interval, often at its very ends (where off-by-one-cent errors live). */
function randomPrice(random: Random, interval: PriceInterval): number {
  const ends = gridEnds(interval);
  if (!ends) throw new Error('an offer move with no price on its grid');
  const roll = random.next();
  if (roll < 0.3) return ends.lowest;
  if (roll < 0.6) return ends.highest;
  const decimals = Math.max(0, Math.round(-Math.log10(interval.step)));
  const units = random.int(Math.round(ends.lowest / interval.step), Math.round(ends.highest / interval.step));
  return Number((units * interval.step).toFixed(decimals));
}

/** A turn along a random move that keeps the thread going: offers and messages only. */
function randomOngoingTurn(random: Random, moves: readonly LegalMove[]): Turn {
  const ongoing = moves.filter((m) => ['offer', 'offer_with_message', 'message_only'].includes(m.action));
  const move = random.pick(ongoing);
  const limit = Math.min(move.maxResponseHours ?? 60, 60);
  return {
    action: move.action,
    price: move.price ? randomPrice(random, move.price) : null,
    message_labels: [],
    message: move.action === 'offer' ? '' : 'Hello',
    response_time: Math.floor(random.uniform(0, limit) * 100) / 100,
  };
}

function randomGuardrails(random: Random, listPrice: number, role: Role): Guardrails {
  if (random.next() < 0.4) return {};
  const near = (share: number) => Math.round(listPrice * share * 100) / 100;
  return {
    [role]:
      random.next() < 0.5
        ? { minPrice: near(random.uniform(0, 1)) }
        : { maxPrice: near(random.uniform(0.05, 1.2)) },
  };
}

interface Trial {
  moves: readonly LegalMove[];
  text: string;
  guardrails: Guardrails;
  role: Role;
}

it(`random rule states -> legal moves -> schema -> random-logit decoding: the Session accepts all ${TRIALS} turns`, async () => {
  const q = await qwen3();
  const grammars = new Map<string, CompiledGrammar>();
  const random = new Random(2026);
  const size = q.vocabulary.tokens.length;
  const noise = new Float32Array(size * 2);
  for (let i = 0; i < noise.length; i++) noise[i] = random.pick([1, 3, 6]) * random.normal();

  const violations: Array<{ trial: number; problem: string; text: string; moves: readonly LegalMove[] }> = [];
  const seenActions = new Map<string, number>();
  for (let trial = 0; trial < TRIALS; trial++) {
    const context = randomContext(random);
    const prefix = random.int(0, 6);
    const rules: Rules =
      random.next() < 0.75
        ? new BestOfferRules({
            maxTurns: prefix + 1,
            buyerOfferCap: random.int(1, 4),
            offerTtlHours: random.pick([0.5, 6, 48]),
          })
        : new AlternatingOffersRules({ maxTurns: prefix + 1 });
    const unit = random.pick(UNITS);
    let last: Trial | undefined;

    const decodeFinal = async (input: PredictInput): Promise<Turn> => {
      const moves = input.legalMoves as readonly LegalMove[];
      const guardrails = randomGuardrails(random, context.listPrice, input.role);
      const schema = turnJsonSchema({ moves, role: input.role, guardrails, responseTimeUnit: unit });
      const key = JSON.stringify(schema);
      let grammar = grammars.get(key);
      if (!grammar) {
        grammar = compileSchema(schema, q.vocabulary);
        grammars.clear(); // every trial's schema is its own; keep memory flat
        grammars.set(key, grammar);
      }
      const decoded = await decodeConstrained({
        grammar,
        sampler: new TokenSampler({ temperature: 1, seed: trial }),
        maxTokens: random.int(24, 160),
        nextLogits: () => {
          const offset = random.int(0, size - 1);
          return noise.subarray(offset, offset + size);
        },
      });
      last = { moves, text: decoded.text, guardrails, role: input.role };
      return turnSchemaFor(unit).parse(JSON.parse(decoded.text));
    };
    const negotiator: Negotiator = {
      responseTimeUnit: unit,
      describe: () => ({ kind: 'property' }),
      // The prefix is played in hours by the same negotiator: its unit converts both ways.
      predict: async (input) => {
        if (input.history.length < prefix) {
          const turn = randomOngoingTurn(random, input.legalMoves as readonly LegalMove[]);
          return { ...turn, response_time: Math.floor(fromHoursTo(unit, turn.response_time) * 1e6) / 1e6 };
        }
        return decodeFinal(input);
      },
    };

    const result = await new Session({
      context,
      buyer: negotiator,
      seller: negotiator,
      rules,
      seed: trial,
    }).run();
    const final = result.turns[prefix];
    const fail = (problem: string) =>
      violations.push({ trial, problem, text: last?.text ?? '', moves: last?.moves ?? [] });
    if (!final || !last) {
      fail(`the session ended before the decoded turn: ${result.outcome.reason}`);
      continue;
    }
    seenActions.set(final.turn.action, (seenActions.get(final.turn.action) ?? 0) + 1);
    if (final.violation) fail(`illegal: ${final.violation}`);
    if (result.outcome.reason === 'expired') fail('the decoded turn landed after the standing offer lapsed');
    const bounds = last.guardrails[last.role] ?? {};
    if (final.turn.price !== null && !priceWithinBounds(final.turn.price, bounds))
      fail('outside the guardrails');
  }

  expect(violations).toEqual([]);
  // The trials reach every kind of move, so the check covers offers, accepts and endings alike.
  for (const action of ['offer', 'offer_with_message', 'accept', 'decline', 'message_only', 'no_response']) {
    expect(seenActions.get(action) ?? 0, action).toBeGreaterThan(20);
  }
}, 300_000);

/** Hours written in `unit` (the prefix draws times in hours). */
function fromHoursTo(unit: TimeUnit, hours: number): number {
  return unit === 'minutes' ? hours * 60 : unit === 'days' ? hours / 24 : hours;
}
