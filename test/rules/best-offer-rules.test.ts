import { describe, expect, it } from 'vitest';
import { BestOfferRules, Session } from '../../src/index.js';
import { bare, CONTEXT, messageOnly, offer } from '../helpers/fixtures.js';
import { ScriptedNegotiator } from '../helpers/scripted-negotiator.js';

// The Best Offer clock, beyond what session.test.ts covers: what renews an offer and what does not.
function play(buyer: ScriptedNegotiator, seller: ScriptedNegotiator, rules = new BestOfferRules()) {
  return new Session({ context: CONTEXT, buyer, seller, seed: 1, rules }).run();
}

describe('BestOfferRules: expiry', () => {
  it("a seller's counter starts a new 48 hours: accepted 47 h after it, 87 h after the buyer's offer", async () => {
    const { outcome, turns } = await play(
      new ScriptedNegotiator([offer(200, 1), bare('accept', 47)]),
      new ScriptedNegotiator([offer(260, 39)]),
    );
    expect(turns.map((t) => t.elapsedHours)).toEqual([1, 40, 87]);
    expect(outcome).toMatchObject({ status: 'deal', reason: 'accepted', price: 260 });
  });

  it('a message is no answer to an offer: the offer keeps its clock and lapses 48 h after it was made', async () => {
    const { outcome, turns } = await play(
      new ScriptedNegotiator([offer(200, 1), messageOnly('Still thinking?', 20)]),
      new ScriptedNegotiator([messageOnly('Let me check', 10), bare('accept', 20)]),
    );
    // Offer at 1 h, lapses at 49 h; the accept would land at 51 h.
    expect(turns.map((t) => t.turn.action)).toEqual(['offer', 'message_only', 'message_only']);
    expect(outcome).toMatchObject({ status: 'no-deal', reason: 'expired', elapsedHours: 49 });
  });

  it('an answer exactly at 48 h still finds the offer standing', async () => {
    const { outcome } = await play(
      new ScriptedNegotiator([offer(200, 2)]),
      new ScriptedNegotiator([bare('accept', 48)]),
    );
    expect(outcome).toMatchObject({ reason: 'accepted', price: 200, elapsedHours: 50 });
  });

  it('describes its parameters for run records', () => {
    expect(new BestOfferRules({ buyerOfferCap: 5, illegalTurnPolicy: 'forfeit' }).describe()).toEqual({
      name: 'best-offer',
      offerTtlHours: 48,
      buyerOfferCap: 5,
      listingHours: 720,
      maxTurns: 20,
      illegalTurnPolicy: 'forfeit',
    });
    expect(() => new BestOfferRules({ offerTtlHours: 0 })).toThrow(/offerTtlHours/);
    expect(() => new BestOfferRules({ listingHours: 721 })).toThrow(/listingHours/);
  });
});
