import { Random } from '../../src/internal/random.js';

// Stand-ins for a trainer's policy (the part a user brings): they read only what a model would get (the
// observation's legal moves and the turn's JSON Schema) and write raw text.

type Observation = Record<string, unknown>;
type IssueSchema = { type?: string; minimum?: number; maximum?: number; enum?: string[] };

function offerIssues(observation: Observation): [string, IssueSchema][] {
  const schema = observation.schema as {
    oneOf: { properties: Record<string, { const?: string; properties?: Record<string, IssueSchema> }> }[];
  };
  const offer = schema.oneOf.find((branch) => branch.properties.action?.const === 'offer');
  return Object.entries(offer?.properties.offer?.properties ?? {});
}

function legalActions(observation: Observation): string[] {
  return (observation.legal_moves as { action: string }[]).map((move) => move.action);
}

function offerText(values: Record<string, number | string>, message = ''): string {
  return JSON.stringify({ action: 'offer', offer: values, message });
}

/**
 * A random policy: a legal action at random with random issue values, and now and then text that is no
 * legal turn (prose, a value out of range, an accept with nothing to accept), to exercise the penalty.
 */
export function randomPolicy(seed: number): (observation: Observation) => string {
  const random = new Random(seed);
  return (observation) => {
    const roll = random.next();
    if (roll < 0.04) return 'Sure, I can do $40 if you pick it up.';
    if (roll < 0.07) return JSON.stringify({ action: 'accept', offer: null, message: 'deal' }).slice(0, 20);
    const action = random.pick(
      legalActions(observation).filter((a) => a !== 'walk_away' || random.next() < 0.3),
    );
    if (action !== 'offer') return JSON.stringify({ action, offer: null, message: '' });
    const values: Record<string, number | string> = {};
    for (const [name, issue] of offerIssues(observation)) {
      if (issue.enum) values[name] = random.pick(issue.enum);
      else if (issue.type === 'integer') values[name] = random.int(issue.minimum ?? 0, issue.maximum ?? 0);
      else values[name] = Math.round(random.uniform(issue.minimum ?? 0, issue.maximum ?? 0) * 100) / 100;
    }
    if (roll > 0.98) values[offerIssues(observation)[0]?.[0] ?? 'price'] = 1e9; // out of range
    return offerText(values, random.next() < 0.5 ? 'How about this?' : '');
  };
}

/**
 * A scripted policy: open at the side's extreme of every numeric issue (a seller high, a buyer low) and
 * the first option of the others, move a tenth of the range per turn, accept from the fifth turn on.
 * The answer is wrapped as models often write it (a code fence, an end-of-turn token) where `fenced`.
 */
export function scriptedPolicy(
  role: 'seller' | 'buyer',
  fenced = false,
): (observation: Observation) => string {
  return (observation) => {
    const turn = observation.turn as number;
    if (turn >= 4 && legalActions(observation).includes('accept'))
      return JSON.stringify({ action: 'accept', offer: null, message: 'Agreed.' });
    const values: Record<string, number | string> = {};
    for (const [name, issue] of offerIssues(observation)) {
      if (issue.enum) values[name] = issue.enum[0] as string;
      else {
        const min = issue.minimum ?? 0;
        const max = issue.maximum ?? 0;
        const share = Math.min(1, turn / 10);
        const value = role === 'seller' ? max - (max - min) * share : min + (max - min) * share;
        values[name] = issue.type === 'integer' ? Math.round(value) : Math.round(value * 100) / 100;
      }
    }
    const text = offerText(values, 'My best offer.');
    return fenced ? `\`\`\`json\n${text}\n\`\`\`<|im_end|>` : text;
  };
}

type BestOfferMove = { action: string; price?: { min: number; max: number }; maxResponseHours?: number };

function turnText(action: string, price: number | null, message = ''): string {
  return JSON.stringify({ action, price, message_labels: [], message, response_time: 1 });
}

function priceWithin(move: BestOfferMove, share: number): number {
  const { min, max } = move.price as { min: number; max: number };
  const cents = Math.round((min + (max - min) * share) * 100) / 100;
  return Math.min(Math.max(cents, Math.round(min * 100 + 1) / 100), Math.round(max * 100 - 1) / 100);
}

/** A random best-offer policy: any legal move, random prices, and now and then prose (invalid). */
export function randomBestOfferPolicy(seed: number): (observation: Observation) => string {
  const random = new Random(seed);
  return (observation) => {
    if (random.next() < 0.05) return 'I can do 40 if you ship today.';
    const move = random.pick(observation.legal_moves as BestOfferMove[]);
    if (move.price)
      return turnText(
        move.action,
        priceWithin(move, random.next()),
        move.action === 'offer_with_message' ? 'Would this work?' : '',
      );
    return turnText(move.action, null, move.action === 'message_only' ? 'Is it still available?' : '');
  };
}

/**
 * A scripted best-offer policy: a seller asks the list price and comes down 5% a turn, a buyer opens at
 * 60% and goes up 5% a turn; either accepts a standing offer from its fourth turn on.
 */
export function scriptedBestOfferPolicy(role: 'seller' | 'buyer'): (observation: Observation) => string {
  return (observation) => {
    const turn = observation.turn as number;
    const moves = observation.legal_moves as BestOfferMove[];
    if (turn >= 3 && moves.some((m) => m.action === 'accept')) return turnText('accept', null);
    const offer = moves.find((m) => m.action === 'offer');
    if (!offer?.price)
      return turnText(
        moves.some((m) => m.action === 'decline') ? 'decline' : (moves[0]?.action ?? 'no_response'),
        null,
      );
    const share = role === 'seller' ? 1 - 0.05 * turn : 0.6 + 0.05 * turn;
    return turnText('offer', priceWithin(offer, Math.min(1, Math.max(0, share))));
  };
}
