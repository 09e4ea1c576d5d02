import { describe, expect, it } from 'vitest';
import {
  AlternatingOffersRules,
  BestOfferRules,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  Session,
  type SessionEvents,
} from '../../src/index.js';
import { bare, CONTEXT, messageOnly, offer, offerWithMessage } from '../helpers/fixtures.js';
import { ScriptedNegotiator } from '../helpers/scripted-negotiator.js';

function play(
  buyer: ScriptedNegotiator,
  seller: ScriptedNegotiator,
  extra: Partial<ConstructorParameters<typeof Session>[0]> = {},
) {
  const session = new Session({ context: CONTEXT, buyer, seller, seed: 11, ...extra });
  return { session, result: session.run() };
}

describe('Session endings', () => {
  it('ends in a deal at the standing offer price when the other side accepts', async () => {
    const { result } = play(
      new ScriptedNegotiator([offer(200, 1)]),
      new ScriptedNegotiator([bare('accept', 5)]),
    );
    const { outcome, turns } = await result;
    expect(outcome).toEqual({ status: 'deal', reason: 'accepted', price: 200, turns: 2, elapsedHours: 6 });
    expect(turns.map((t) => t.elapsedHours)).toEqual([1, 6]);
  });

  it('a counter replaces the earlier offer, and accept takes the counter price', async () => {
    const buyer = new ScriptedNegotiator([offer(150), bare('accept')]);
    const seller = new ScriptedNegotiator([
      offerWithMessage(250, 'Best I can do', ['declare_cost_limit_seller_firm']),
    ]);
    const { outcome } = await play(buyer, seller).result;
    expect([outcome.reason, outcome.price]).toEqual(['accepted', 250]);
  });

  it('ends without a deal on decline and on no response', async () => {
    const declined = await play(
      new ScriptedNegotiator([offer(90)]),
      new ScriptedNegotiator([bare('decline')]),
    ).result;
    expect(declined.outcome).toMatchObject({ status: 'no-deal', reason: 'declined', price: null, turns: 2 });
    const ignored = await play(
      new ScriptedNegotiator([offer(90)]),
      new ScriptedNegotiator([bare('no_response', 48)]),
    ).result;
    expect(ignored.outcome).toMatchObject({ status: 'no-deal', reason: 'no-response', turns: 2 });
  });

  it('ends as expired when the answer comes after the offer lapsed (48 h), without the late turn', async () => {
    const { outcome, turns } = await play(
      new ScriptedNegotiator([offer(200, 2)]),
      new ScriptedNegotiator([bare('accept', 49)]),
    ).result;
    expect(outcome).toMatchObject({ status: 'no-deal', reason: 'expired', turns: 1, elapsedHours: 50 });
    expect(turns).toHaveLength(1);
  });

  it('messages never close a deal, and the turn cap ends a session', async () => {
    const chatter = Array.from({ length: 10 }, () => messageOnly('Still there?'));
    const { outcome } = await play(new ScriptedNegotiator(chatter), new ScriptedNegotiator(chatter), {
      rules: new BestOfferRules({ maxTurns: 6 }),
    }).result;
    expect(outcome).toMatchObject({ status: 'no-deal', reason: 'turn-cap', turns: 6 });
  });

  it('records an illegal accept and ends the session under the default policy', async () => {
    const { outcome, turns } = await play(
      new ScriptedNegotiator([bare('accept')]),
      new ScriptedNegotiator([]),
    ).result;
    expect(outcome).toMatchObject({ reason: 'illegal-turn', status: 'no-deal', turns: 1 });
    expect(turns[0]?.violation).toMatch(/no offer from the other side stands/);
  });

  it('records a seller offer above the list price as illegal, never repairing it', async () => {
    const { turns, outcome } = await play(
      new ScriptedNegotiator([offer(100)]),
      new ScriptedNegotiator([offer(350)]),
    ).result;
    expect(outcome.reason).toBe('illegal-turn');
    expect(turns[1]?.turn.price).toBe(350);
    expect(turns[1]?.violation).toMatch(/seller offered 350, above the list price 300/);
  });

  it('caps a buyer at three offers; under the forfeit policy the illegal turn is skipped', async () => {
    const buyer = new ScriptedNegotiator([offer(100), offer(120), offer(140), offer(160), bare('decline')]);
    const seller = new ScriptedNegotiator([offer(280), offer(270), offer(260), messageOnly('Firm at 260.')]);
    const { turns, outcome } = await play(buyer, seller, {
      rules: new BestOfferRules({ illegalTurnPolicy: 'forfeit' }),
    }).result;
    expect(turns[6]?.violation).toMatch(/above the cap of 3/);
    expect(buyer.inputs[3]?.legalActions).not.toContain('offer');
    expect(outcome.reason).toBe('declined');
    expect(turns).toHaveLength(9);
  });

  it('a seller may not counter twice in a row', async () => {
    const buyer = new ScriptedNegotiator([offer(100), messageOnly('Hmm, let me think.')]);
    const seller = new ScriptedNegotiator([offer(280), offer(270)]);
    const { turns, outcome } = await play(buyer, seller).result;
    expect(seller.inputs[1]?.legalActions).not.toContain('offer');
    expect(outcome.reason).toBe('illegal-turn');
    expect(turns[3]?.violation).toMatch(/own counter stands/);
  });

  it('hands negotiators the legal actions: no accept before an offer, no no_response at the start', async () => {
    const buyer = new ScriptedNegotiator([messageOnly('Is it available?'), offer(200)]);
    const seller = new ScriptedNegotiator([messageOnly('Yes!'), bare('accept')]);
    await play(buyer, seller).result;
    expect(buyer.inputs[0]?.legalActions).toEqual(['offer', 'offer_with_message', 'message_only']);
    expect(seller.inputs[0]?.legalActions).not.toContain('accept');
    expect(seller.inputs[1]?.legalActions).toContain('accept');
  });

  it('converts response times in the negotiator unit to hours on the session clock', async () => {
    const seller = Object.assign(new ScriptedNegotiator([bare('accept', 90)]), {
      responseTimeUnit: 'minutes' as const,
    });
    const { outcome } = await play(new ScriptedNegotiator([offer(200, 1)]), seller).result;
    expect(outcome.elapsedHours).toBe(2.5);
  });

  it('plain alternating offers have no expiry', async () => {
    const { outcome } = await play(
      new ScriptedNegotiator([offer(200, 1)]),
      new ScriptedNegotiator([bare('accept', 500)]),
      {
        rules: new AlternatingOffersRules(),
      },
    ).result;
    expect(outcome.reason).toBe('accepted');
  });
});

describe('Session failures', () => {
  it('a negotiator that throws ends the session with reason error, and run rejects with its error', async () => {
    const buyer = new ScriptedNegotiator([offer(200)]);
    const seller = new ScriptedNegotiator([
      () => {
        throw new Error('model crashed');
      },
    ]);
    const session = new Session({ context: CONTEXT, buyer, seller });
    const errors: SessionEvents['error'][] = [];
    session.on('error', (event) => errors.push(event));
    await expect(session.run()).rejects.toThrow('model crashed');
    expect(session.result?.outcome.reason).toBe('error');
    expect(session.result?.turns).toHaveLength(1);
    expect(session.result?.error).toEqual({ name: 'Error', message: 'model crashed' });
    expect(errors.map((e) => e.source)).toEqual(['negotiator']);
  });

  it('an invalid turn from a custom negotiator is an InvalidModelOutputError naming it', async () => {
    const bad = { action: 'offer', price: null, message_labels: [], message: '', response_time: 1 };
    const buyer = new ScriptedNegotiator([bad as never], 'my-bot');
    const session = new Session({ context: CONTEXT, buyer, seller: new ScriptedNegotiator([]) });
    const failure = await session.run().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InvalidModelOutputError);
    expect((failure as Error).message).toMatch(/my-bot/);
  });

  it('stops on abort with HaggleAbortError and reason aborted', async () => {
    const controller = new AbortController();
    const buyer = new ScriptedNegotiator([
      (input) => {
        controller.abort(new Error('user closed the tab'));
        return offer(100 + input.history.length);
      },
    ]);
    const session = new Session({ context: CONTEXT, buyer, seller: new ScriptedNegotiator([]) });
    await expect(session.run({ signal: controller.signal })).rejects.toBeInstanceOf(HaggleAbortError);
    expect(session.result?.outcome.reason).toBe('aborted');
  });

  it('a listener that throws never breaks the session, and is reported as an error event', async () => {
    const session = new Session({
      context: CONTEXT,
      buyer: new ScriptedNegotiator([offer(200)]),
      seller: new ScriptedNegotiator([bare('accept')]),
    });
    const seen: string[] = [];
    const reported: unknown[] = [];
    session.on('turn', () => {
      throw new Error('listener bug');
    });
    session.on('turn', (event) => {
      seen.push(event.turn.action);
    });
    session.on('session-end', async () => {
      throw new Error('async listener bug');
    });
    session.on('error', (event) => {
      reported.push(event.error);
      throw new Error('even the error listener throws');
    });
    const result = await session.run();
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.outcome.reason).toBe('accepted');
    expect(seen).toEqual(['offer', 'accept']);
    expect(reported.map((e) => (e as Error).message)).toEqual([
      'listener bug',
      'listener bug',
      'async listener bug',
    ]);
  });

  it('emits start, turns and end in order, and derives a distinct seed for every turn', async () => {
    const buyer = new ScriptedNegotiator([offer(100), offer(150)]);
    const seller = new ScriptedNegotiator([offer(250), bare('accept')]);
    const session = new Session({ context: CONTEXT, buyer, seller, seed: 5 });
    const order: string[] = [];
    session.on('session-start', () => order.push('start'));
    session.on('turn', (e) => order.push(`turn:${e.index}:${e.role}`));
    session.once('session-end', (e) => order.push(`end:${e.outcome.reason}`));
    await session.run();
    expect(order).toEqual([
      'start',
      'turn:0:buyer',
      'turn:1:seller',
      'turn:2:buyer',
      'turn:3:seller',
      'end:accepted',
    ]);
    const seeds = [...buyer.seeds, ...seller.seeds];
    expect(new Set(seeds).size).toBe(4);
  });

  it('runs once, and refuses a bad context or negotiator up front', async () => {
    const session = new Session({
      context: CONTEXT,
      buyer: new ScriptedNegotiator([offer(200)]),
      seller: new ScriptedNegotiator([bare('accept')]),
    });
    await session.run();
    await expect(session.run()).rejects.toSatisfy((e) => HaggleError.isInstance(e));
    expect(
      () =>
        new Session({
          context: { item: { title: '' }, listPrice: 1 },
          buyer: new ScriptedNegotiator([]),
          seller: new ScriptedNegotiator([]),
        }),
    ).toThrow(InvalidInputError);
    expect(
      () => new Session({ context: CONTEXT, buyer: {} as never, seller: new ScriptedNegotiator([]) }),
    ).toThrow(/buyer: must be a Negotiator/);
  });
});
