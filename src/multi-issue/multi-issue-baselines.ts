import { InvalidInputError } from '../contract/errors.js';
import type { Outcome } from './issue-space.js';
import {
  type MultiIssueInput,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  standingProposal,
} from './multi-issue-turn.js';
import { proposalFor, type RankedOutcomes, rankOutcomes } from './outcome-ranking.js';
import { utilityOf } from './utility.js';

function offerTurn(outcome: Outcome): MultiIssueTurn {
  return { action: 'offer', offer: outcome, message: '' };
}

const ACCEPT: MultiIssueTurn = { action: 'accept', offer: null, message: '' };

function ownOffers(input: MultiIssueInput): Outcome[] {
  return input.history
    .filter((e) => e.role === input.role && e.turn.offer)
    .map((e) => e.turn.offer as Outcome);
}

function opponentOffers(input: MultiIssueInput): Outcome[] {
  return input.history
    .filter((e) => e.role !== input.role && e.turn.offer)
    .map((e) => e.turn.offer as Outcome);
}

/**
 * The turn of a negotiator aiming at `target` (its own utility): accept the other side's proposal when
 * it is worth at least what one would propose now (the AC_next rule), else propose the outcome that
 * meets the target, leaning towards the other side's latest proposal.
 */
function answerAtTarget(input: MultiIssueInput, ranked: RankedOutcomes, target: number): MultiIssueTurn {
  const { space, utility } = input;
  const proposal = proposalFor(space, ranked, target, opponentOffers(input).at(-1) ?? null);
  const standing = standingProposal(input.history, input.role);
  if (standing && utilityOf(space, utility, standing) >= Math.max(proposal.utility, utility.reservation)) {
    return ACCEPT;
  }
  return offerTurn(proposal.outcome);
}

/** Options of `UtilityConcessionNegotiator`: its concession exponent. */
export interface UtilityConcessionOptions {
  /** Concession exponent: below 1 Boulware (concede late), 1 linear, above 1 conceder. Default 1. */
  exponent?: number;
}

/**
 * Time-based concession over one's own utility (Faratin et al. 1998; NegMAS's time-based negotiators):
 * the target falls from 1 to the reservation value as `1 - t^(1/e)` over the deadline; propose the
 * outcome that meets the target, accept any proposal worth at least one's next own target.
 */
export class UtilityConcessionNegotiator implements MultiIssueNegotiator {
  readonly exponent: number;

  constructor(options: UtilityConcessionOptions = {}) {
    this.exponent = options.exponent ?? 1;
    if (!(this.exponent > 0) || !Number.isFinite(this.exponent)) {
      throw new InvalidInputError({
        subject: 'UtilityConcessionOptions',
        issues: [{ path: 'exponent', message: 'must be a positive number' }],
      });
    }
  }

  describe() {
    return { kind: 'utility-concession', exponent: this.exponent };
  }

  private target(input: MultiIssueInput, round: number): number {
    const t = input.maxRounds <= 1 ? 1 : Math.min(1, round / (input.maxRounds - 1));
    const reservation = input.utility.reservation;
    return reservation + (1 - reservation) * (1 - t ** (1 / this.exponent));
  }

  async predict(input: MultiIssueInput): Promise<MultiIssueTurn> {
    return answerAtTarget(input, rankOutcomes(input.space, input.utility), this.target(input, input.round));
  }
}

/** A multi-issue negotiator that concedes late (exponent 0.2). */
export const utilityBoulware = () => new UtilityConcessionNegotiator({ exponent: 0.2 });
/** A multi-issue negotiator that concedes evenly (exponent 1). */
export const utilityLinear = () => new UtilityConcessionNegotiator({ exponent: 1 });
/** A multi-issue negotiator that concedes early (exponent 3). */
export const utilityConceder = () => new UtilityConcessionNegotiator({ exponent: 3 });

/** Options of `UtilityTitForTatNegotiator`: how much of the other side's concession it returns. */
export interface UtilityTitForTatOptions {
  /** Share of the other side's concession (measured in one's own utility) returned. Default 1. */
  reciprocity?: number;
}

/**
 * Tit-for-tat over utility: start at one's best outcome and concede, in one's own utility, as much as
 * the other side's proposals have improved for oneself; never below the reservation value.
 */
export class UtilityTitForTatNegotiator implements MultiIssueNegotiator {
  readonly reciprocity: number;

  constructor(options: UtilityTitForTatOptions = {}) {
    this.reciprocity = options.reciprocity ?? 1;
    if (!(this.reciprocity >= 0) || !Number.isFinite(this.reciprocity)) {
      throw new InvalidInputError({
        subject: 'UtilityTitForTatOptions',
        issues: [{ path: 'reciprocity', message: 'must be a number ≥ 0' }],
      });
    }
  }

  describe() {
    return { kind: 'utility-tit-for-tat', reciprocity: this.reciprocity };
  }

  async predict(input: MultiIssueInput): Promise<MultiIssueTurn> {
    const { space, utility } = input;
    const ranked = rankOutcomes(space, utility);
    const theirs = opponentOffers(input).map((o) => utilityOf(space, utility, o));
    const mine = ownOffers(input).map((o) => utilityOf(space, utility, o));
    const lastOwn = mine.at(-1) ?? (ranked.utilities[0] as number);
    const theirConcession =
      theirs.length >= 2 ? Math.max(0, (theirs.at(-1) as number) - (theirs.at(-2) as number)) : 0;
    // Before the other side has moved twice there is nothing to reciprocate: open one small step down.
    const step = theirs.length >= 2 ? theirConcession * this.reciprocity : mine.length === 0 ? 0 : 0.02;
    return answerAtTarget(input, ranked, Math.max(utility.reservation, lastOwn - step));
  }
}
