import { describe, expect, it } from 'vitest';
import {
  generateSuite,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  multiIssueTurnJsonSchema,
  runMultiIssueNegotiation,
  utilityLinear,
} from '../../src/evaluation/index.js';

const scenario = generateSuite({ seed: 9, scenarios: 1, seedsPerPair: 1 }).scenarios[0];
if (!scenario) throw new Error('no scenario');

function scripted(turns: MultiIssueTurn[]): MultiIssueNegotiator & { seen: string[] } {
  const seen: string[] = [];
  let i = 0;
  return {
    seen,
    describe: () => ({ kind: 'scripted' }),
    async predict(input) {
      // Privacy: a side is only ever shown its own utility.
      seen.push(input.utility === scenario?.[input.role] ? 'own' : 'other');
      const turn = turns[i++];
      if (!turn) throw new Error('script ran out');
      return turn;
    },
  };
}

const bestFor = (role: 'buyer' | 'seller') =>
  Object.fromEntries(
    scenario.space.issues.map((issue) => {
      if (issue.kind === 'options') {
        const values = (scenario[role].valuations[issue.name] as { values: Record<string, number> }).values;
        return [issue.name, issue.options.reduce((a, b) => ((values[a] ?? 0) >= (values[b] ?? 0) ? a : b))];
      }
      const valuation = scenario[role].valuations[issue.name] as { direction: string };
      return [issue.name, valuation.direction === 'increasing' ? issue.max : issue.min];
    }),
  );

describe('runMultiIssueNegotiation', () => {
  it('ends in agreement on accept, at the standing proposal, scored by each private utility', async () => {
    const offer = bestFor('seller');
    const seller = scripted([{ action: 'offer', offer, message: '' }]);
    const buyer = scripted([{ action: 'accept', offer: null, message: '' }]);
    const result = await runMultiIssueNegotiation({ scenario, seller, buyer, seed: 1 });
    expect(result.reason).toBe('accepted');
    expect(result.agreement).toEqual(offer);
    expect(result.utilities.seller).toBeCloseTo(1, 9);
    expect([...seller.seen, ...buyer.seen]).toEqual(['own', 'own']);
  });

  it('ends on walk-away, at the deadline, and on invalid turns, recording what was wrong', async () => {
    const walk = await runMultiIssueNegotiation({
      scenario,
      seller: scripted([{ action: 'walk_away', offer: null, message: '' }]),
      buyer: scripted([]),
      seed: 1,
    });
    expect([walk.reason, walk.agreement, walk.utilities.seller]).toEqual([
      'walked-away',
      null,
      scenario.seller.reservation,
    ]);

    const deadline = await runMultiIssueNegotiation({
      scenario,
      seller: utilityLinear(),
      buyer: scripted(Array(5).fill({ action: 'offer', offer: bestFor('buyer'), message: '' })),
      seed: 1,
      maxRounds: 4,
    });
    expect(deadline.reason === 'deadline' || deadline.reason === 'accepted').toBe(true);
    expect(deadline.rounds).toBeLessThanOrEqual(4);

    const earlyAccept = await runMultiIssueNegotiation({
      scenario,
      seller: scripted([{ action: 'accept', offer: null, message: '' }]),
      buyer: scripted([]),
      seed: 1,
    });
    expect(earlyAccept.reason).toBe('invalid-turn');
    expect(earlyAccept.turns[0]?.violation).toMatch(/no standing proposal/);

    const outOfRange = await runMultiIssueNegotiation({
      scenario,
      seller: scripted([{ action: 'offer', offer: { ...bestFor('seller'), price: -5 }, message: '' }]),
      buyer: scripted([]),
      seed: 1,
    });
    expect(outOfRange.reason).toBe('invalid-turn');
    expect(outOfRange.turns[0]?.violation).toMatch(/price/);
  });

  it('a throwing negotiator ends the negotiation with reason error', async () => {
    const result = await runMultiIssueNegotiation({
      scenario,
      seller: scripted([]),
      buyer: scripted([]),
      seed: 1,
    });
    expect(result.reason).toBe('error');
    expect(result.error?.message).toBe('script ran out');
  });

  it('generates a per-scenario JSON Schema with exactly the issues, their ranges and options', () => {
    const schema = multiIssueTurnJsonSchema(scenario.space) as {
      oneOf: { properties: Record<string, Record<string, unknown>> }[];
    };
    const offerBranch = schema.oneOf[0];
    const offer = offerBranch?.properties.offer as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(offer.required).toEqual(scenario.space.issues.map((i) => i.name));
    expect(offer.additionalProperties).toBe(false);
    for (const issue of scenario.space.issues) {
      const property = offer.properties[issue.name];
      if (issue.kind === 'options') expect(property).toEqual({ type: 'string', enum: issue.options });
      else expect(property).toMatchObject({ minimum: issue.min, maximum: issue.max });
    }
    const noAccept = multiIssueTurnJsonSchema(scenario.space, { canAccept: false }) as { oneOf: unknown[] };
    expect(noAccept.oneOf).toHaveLength(2);
  });
});
