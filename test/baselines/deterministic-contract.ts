import { expect } from 'vitest';
import type { Negotiator, PredictInput } from '../../src/contract/negotiator.js';
import { TurnSchema } from '../../src/contract/turn.js';
import { Random } from '../../src/internal/random.js';
import { LISTING, randomHistory, randomLegalActions } from './support.js';

/**
 * The contract every deterministic baseline keeps, checked over arbitrary threads: a valid turn, a
 * legal action, prices in cents and never above list for a seller, and never beyond the reservation
 * (`reservationRatio` of the list price) unless the rules leave nothing else to do.
 */
export async function checkDeterministicContract(
  make: (reservationRatio: number, listPrice: number) => Negotiator,
  iterations: number,
  seed: number,
): Promise<void> {
  const random = new Random(seed);
  for (let i = 0; i < iterations; i++) {
    const ratio = Math.round(random.uniform(0.3, 1) * 100) / 100;
    const listPrice = Math.round(random.uniform(5, 2000) * 100) / 100;
    const agent = make(ratio, listPrice);
    const reservation = ratio * listPrice;
    const legalActions = randomLegalActions(random);
    const role = random.bernoulli(0.5) ? 'buyer' : 'seller';
    const history = randomHistory(random, listPrice);
    const input: PredictInput = {
      context: { ...LISTING, listPrice },
      history,
      role,
      ...(legalActions ? { legalActions } : {}),
    };
    const turn = await agent.predict(input, { seed: i });
    const where = JSON.stringify({
      role,
      ratio,
      listPrice,
      legalActions,
      turn,
      last: history[history.length - 1],
    });
    expect(TurnSchema.safeParse(turn).success, where).toBe(true);
    if (legalActions) expect(legalActions, where).toContain(turn.action);
    // Deterministic: the seed changes nothing.
    expect(await agent.predict(input, { seed: i + 1 }), where).toEqual(turn);
    if (turn.price !== null) {
      expect(Math.round(turn.price * 100) / 100, where).toBe(turn.price);
      expect(turn.price, where).toBeLessThanOrEqual(listPrice);
      if (role === 'buyer') expect(turn.price, where).toBeLessThanOrEqual(reservation + 1e-9);
      else expect(turn.price, where).toBeGreaterThanOrEqual(reservation - 1e-9);
    }
    const escapeExists =
      !legalActions ||
      legalActions.some((a) => a === 'decline' || a === 'no_response' || a === 'message_only');
    if (turn.action === 'accept' && escapeExists) {
      // The offer on the table is the latest priced turn, and it must be the other side's.
      const standing = [...history]
        .reverse()
        .find((e) => e.turn.action === 'offer' || e.turn.action === 'offer_with_message');
      expect(standing?.role, where).not.toBe(role);
      const price = standing?.turn.price ?? Number.NaN;
      if (role === 'buyer') expect(price, where).toBeLessThanOrEqual(reservation + 1e-9);
      else expect(price, where).toBeGreaterThanOrEqual(reservation - 1e-9);
    }
  }
}
