import { isPricedAction } from '../../contract/action.js';
import { opponentOf, type Role } from '../../contract/history.js';
import { isFinished } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import { type PriceTier, priceTier } from '../synthetic-contexts.js';
import { hasMessage } from './has-message.js';

/** Category name for listings that carry none. */
export const UNCATEGORIZED = '(none)';

/** What the label metrics know about one (role, label) pair within one session. */
export interface LabelFacts {
  role: Role;
  label: string;
  /** Turns of `role` that carried the label (turns that broke a rule excluded: they had no effect). */
  uses: number;
  /** Opponent concessions after those turns, as a share of the list price; see `opponentConcession`. */
  concessions: number[];
}

/**
 * Everything the metrics need from one session, read once. Metrics are then sums over these facts,
 * which keeps a bootstrap of thousands of resamples cheap.
 */
export interface SessionFacts {
  deal: boolean;
  /** Whether the session carries a message (see `hasMessage`); null when it failed (error, aborted) and counts in no rate. */
  messageSession: boolean | null;
  turns: number;
  listPrice: number;
  tier: PriceTier;
  category: string;
  /** The buyer's first (legal) offer / list price; null when the buyer made none. */
  firstOfferRatio: number | null;
  /** Agreed price / list price; null without a deal. */
  finalPriceRatio: number | null;
  /** Hours between consecutive turns (the first from the session start), every recorded turn. */
  responseHours: number[];
  /** Simulated hours from the start to the end of the session. */
  durationHours: number;
  /** Keyed `role:label`. */
  labels: Map<string, LabelFacts>;
}

export function labelKey(role: Role, label: string): string {
  return `${role}:${label}`;
}

/** The facts about one session that the metrics use: offers, prices as shares of the list price, labels. */
export function sessionFacts(result: SessionResult): SessionFacts {
  const { context, turns, outcome } = result;
  const listPrice = context.listPrice;
  const firstBuyerOffer = turns.find(
    (t) => t.role === 'buyer' && isPricedAction(t.turn.action) && !t.violation,
  );
  const responseHours: number[] = [];
  let previous = 0;
  for (const t of turns) {
    responseHours.push(t.elapsedHours - previous);
    previous = t.elapsedHours;
  }
  return {
    deal: outcome.status === 'deal',
    messageSession: isFinished(result) ? hasMessage(result) : null,
    turns: outcome.turns,
    listPrice,
    tier: priceTier(listPrice),
    category: context.item.category ?? UNCATEGORIZED,
    firstOfferRatio: firstBuyerOffer?.turn.price != null ? firstBuyerOffer.turn.price / listPrice : null,
    finalPriceRatio: outcome.status === 'deal' && outcome.price !== null ? outcome.price / listPrice : null,
    responseHours,
    durationHours: outcome.elapsedHours,
    labels: labelFacts(result),
  };
}

interface Positions {
  /** Each side's latest legal offer before a turn. */
  last: Record<Role, number | undefined>;
  /** The price on the table before a turn. */
  standing: number | undefined;
}

/** Positions before each turn, replaying the legal offers. */
function positionsBeforeEachTurn(result: SessionResult): Positions[] {
  const out: Positions[] = [];
  let last: Record<Role, number | undefined> = { buyer: undefined, seller: undefined };
  let standing: number | undefined;
  for (const t of result.turns) {
    out.push({ last, standing });
    if (!t.violation && isPricedAction(t.turn.action) && t.turn.price !== null) {
      last = { ...last, [t.role]: t.turn.price };
      standing = t.turn.price;
    }
  }
  return out;
}

/**
 * How far the opponent moved towards the labeller with its next turn, as a share of the list price
 * (positive: towards the labeller; negative: away). An offer moves from the opponent's previous
 * offer (a seller without one stands at the list price); accepting moves to the standing price;
 * a turn that makes no offer (message, decline, no response, or one that broke a rule) moves 0. A
 * buyer's opening offer has nothing to move from and yields no value (undefined).
 */
export function opponentConcession(
  result: SessionResult,
  positions: readonly Positions[],
  answerIndex: number,
): number | undefined {
  const answer = result.turns[answerIndex];
  const before = positions[answerIndex];
  if (!answer || !before) return undefined;
  const listPrice = result.context.listPrice;
  const from = answer.role === 'seller' ? (before.last.seller ?? listPrice) : before.last.buyer;
  let to: number | undefined;
  if (answer.violation) return 0;
  if (isPricedAction(answer.turn.action)) to = answer.turn.price ?? undefined;
  else if (answer.turn.action === 'accept') to = before.standing;
  else return 0;
  if (from === undefined || to === undefined) return undefined;
  const moved = answer.role === 'seller' ? from - to : to - from;
  return moved / listPrice;
}

function labelFacts(result: SessionResult): Map<string, LabelFacts> {
  const facts = new Map<string, LabelFacts>();
  const positions = positionsBeforeEachTurn(result);
  result.turns.forEach((t, index) => {
    if (t.violation || t.turn.message_labels.length === 0) return;
    const opponent = opponentOf(t.role);
    let answerIndex = index + 1;
    while (answerIndex < result.turns.length && result.turns[answerIndex]?.role !== opponent) answerIndex++;
    // Unanswered labels (the session ended first) count as uses but yield no concession.
    const concession =
      answerIndex < result.turns.length ? opponentConcession(result, positions, answerIndex) : undefined;
    for (const label of new Set(t.turn.message_labels)) {
      const key = labelKey(t.role, label);
      let entry = facts.get(key);
      if (!entry) {
        entry = { role: t.role, label, uses: 0, concessions: [] };
        facts.set(key, entry);
      }
      entry.uses++;
      if (concession !== undefined) entry.concessions.push(concession);
    }
  });
  return facts;
}
