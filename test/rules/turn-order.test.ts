import { describe, expect, it } from 'vitest';
import { InvalidInputError, NotYourTurnError } from '../../src/contract/errors.js';
import type { History, Role } from '../../src/contract/history.js';
import { ListingContextSchema } from '../../src/contract/listing-context.js';
import { AlternatingOffersRules } from '../../src/rules/alternating-offers-rules.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { legalMovesAfter, replayHistory } from '../../src/rules/replay.js';
import type { Rules } from '../../src/rules/rules.js';
import { bare, entry, messageOnly, offer } from '../agent/fixtures.js';
import { CONTEXT } from '../helpers/fixtures.js';

// Who moves next comes from the rules (`nextRole` after a replay), for every caller outside a Session.
const context = ListingContextSchema.parse(CONTEXT);

function refusal(rules: Rules, history: History, role: Role): NotYourTurnError {
  try {
    legalMovesAfter(rules, context, history, role);
  } catch (error) {
    if (error instanceof NotYourTurnError) return error;
    throw error;
  }
  throw new Error(`the ${role} was allowed to move`);
}

const bestOffer = new BestOfferRules();

describe('whose turn it is, from the rules', () => {
  it('the buyer opens: a seller asked for the first turn is told the buyer moves', () => {
    const error = refusal(bestOffer, [], 'seller');
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.code).toBe('invalid-input');
    expect(error).toMatchObject({ name: 'NotYourTurnError', role: 'seller', nextRole: 'buyer' });
    expect(error.issues).toEqual([
      {
        path: 'role',
        message: expect.stringContaining(
          `it is the buyer's turn under the best-offer rules (the buyer opens the thread)`,
        ),
      },
    ]);
  });

  it("after the buyer's offer the seller moves: the buyer asked again is refused, naming the last turn", () => {
    const history = [entry('buyer', offer(200), 0)];
    const error = refusal(bestOffer, history, 'buyer');
    expect(error).toMatchObject({ role: 'buyer', nextRole: 'seller' });
    expect(error.message).toContain(
      `is "buyer", but it is the seller's turn under the best-offer rules (the last turn, history[0], is the buyer's offer of 200)`,
    );
    expect(legalMovesAfter(bestOffer, context, history, 'seller').length).toBeGreaterThan(0);
  });

  it("after the seller's counter the buyer moves; after a message_only the other side does too", () => {
    const countered = [entry('buyer', offer(200), 0), entry('seller', offer(260), 2)];
    expect(refusal(bestOffer, countered, 'seller').nextRole).toBe('buyer');
    expect(legalMovesAfter(bestOffer, context, countered, 'buyer').map((m) => m.action)).toContain('accept');

    const messaged = [...countered, entry('buyer', messageOnly('Is it boxed?'), 3)];
    expect(refusal(bestOffer, messaged, 'buyer')).toMatchObject({ nextRole: 'seller' });
    // The seller answers the message; its own counter still stands, so it may not counter again.
    const sellerMoves = legalMovesAfter(bestOffer, context, messaged, 'seller').map((m) => m.action);
    expect(sellerMoves).toEqual(['message_only', 'no_response']);
  });

  it.each([
    ['accept', 'accepted'],
    ['decline', 'declined'],
    ['no_response', 'no-response'],
  ] as const)('after %s the thread has ended: nobody moves, whichever side asks', (action, reason) => {
    const history = [entry('buyer', offer(200), 0), entry('seller', bare(action), 1)];
    for (const role of ['buyer', 'seller'] as const) {
      const error = refusal(bestOffer, history, role);
      expect(error).toMatchObject({ role, nextRole: null });
      expect(error.issues).toEqual([
        {
          path: 'history[1]',
          message: `the negotiation already ended here (${reason}); there is no next turn`,
        },
      ]);
    }
  });

  it('a turn that lands after the standing offer lapsed: the thread had ended (expired)', () => {
    // The buyer's offer at 0 h lapses at 48 h; the seller's answer at 50 h came too late.
    const history = [entry('buyer', offer(200), 0), entry('seller', messageOnly('Still there?'), 50)];
    const error = refusal(bestOffer, history, 'buyer');
    expect(error).toMatchObject({ nextRole: null });
    expect(error.issues[0]?.message).toContain('lapsed at 48 hours');
  });

  it("a thread at the rules' turn limit has ended (turn-cap)", () => {
    const rules = new BestOfferRules({ maxTurns: 2 });
    const history = [entry('buyer', offer(200), 0), entry('seller', offer(260), 1)];
    const error = refusal(rules, history, 'buyer');
    expect(error).toMatchObject({ role: 'buyer', nextRole: null });
    expect(error.issues[0]).toMatchObject({ path: 'history' });
    expect(error.issues[0]?.message).toContain('after 2 turns');
    expect(legalMovesAfter(new BestOfferRules({ maxTurns: 3 }), context, history, 'buyer')).not.toHaveLength(
      0,
    );
  });

  it('a history whose turns do not alternate is refused at the entry the wrong side took', () => {
    const history = [entry('buyer', offer(200), 0), entry('buyer', offer(210), 1)];
    expect(() => replayHistory(bestOffer, context, history)).toThrow(NotYourTurnError);
    const error = refusal(bestOffer, history, 'seller');
    expect(error).toMatchObject({ role: 'buyer', nextRole: 'seller' });
    expect(error.issues[0]).toMatchObject({ path: 'history[1].role' });
    expect(error.issues[0]?.message).toContain('the seller moves here under the best-offer rules');
  });

  it('alternating offers: the same order, from the same rules object', () => {
    const rules = new AlternatingOffersRules();
    expect(refusal(rules, [], 'seller').nextRole).toBe('buyer');
    const history = [entry('buyer', offer(200), 0), entry('seller', offer(400), 1)];
    expect(refusal(rules, history, 'seller').message).toContain('under the alternating-offers rules');
    expect(legalMovesAfter(rules, context, history, 'buyer').length).toBeGreaterThan(0);
  });
});
