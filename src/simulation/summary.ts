import { isPricedAction } from '../contract/action.js';
import { type Distribution, describeDistribution } from './distribution.js';
import { countsInRates, hasMessage } from './metrics/message-sessions.js';
import { END_REASONS, type EndReason } from './outcome.js';
import type { SessionResult } from './session-result.js';

/** The headline numbers of a run, as researchers report them. */
export interface SimulationSummary {
  /** Sessions summarised. */
  sessions: number;
  deals: number;
  /** Share of sessions that ended in a deal, 0..1. */
  dealRate: number;
  /**
   * Share of sessions with at least one message (`offer_with_message` or `message_only`), 0..1, over
   * sessions that did not end in an error or an abort. The model card's population: about 3%.
   */
  messageSessionRate: number;
  /** Mean number of turns per session. */
  meanTurns: number;
  /** Turns per session: count of sessions by length. */
  sessionLengths: Record<string, number>;
  turns: Distribution;
  /** Agreed price / list price, over deals. */
  finalPriceRatio: Distribution;
  /** The buyer's first offer / list price, over sessions with a buyer offer. */
  firstOfferRatio: Distribution;
  /** Response time of every turn, in hours. */
  responseTimeHours: Distribution;
  /** Sessions by the reason they ended. */
  outcomes: Record<EndReason, number>;
  /** Sessions that ended because a negotiator failed. */
  errors: number;
  /** Turns that broke a rule. */
  illegalTurns: number;
}

/** Builds a summary one session at a time, so a run of any size needs no list of results. */
export class SummaryAccumulator {
  private sessions = 0;
  private deals = 0;
  private illegalTurns = 0;
  /** Sessions that count in the rates (not `error`, not `aborted`), and those of them with a message. */
  private ratedSessions = 0;
  private messageSessions = 0;
  private readonly lengths: number[] = [];
  private readonly finalRatios: number[] = [];
  private readonly firstOfferRatios: number[] = [];
  private readonly responseHours: number[] = [];
  private readonly outcomes = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;

  /** Deals so far, without building a whole summary. */
  get dealCount(): number {
    return this.deals;
  }

  add(result: SessionResult): void {
    this.sessions++;
    const { outcome, context, turns } = result;
    this.outcomes[outcome.reason]++;
    if (countsInRates(result)) {
      this.ratedSessions++;
      if (hasMessage(result)) this.messageSessions++;
    }
    this.lengths.push(outcome.turns);
    if (outcome.status === 'deal' && outcome.price !== null) {
      this.deals++;
      this.finalRatios.push(outcome.price / context.listPrice);
    }
    const firstBuyerOffer = turns.find(
      (t) => t.role === 'buyer' && isPricedAction(t.turn.action) && !t.violation,
    );
    if (firstBuyerOffer?.turn.price != null)
      this.firstOfferRatios.push(firstBuyerOffer.turn.price / context.listPrice);
    let previousHours = 0;
    for (const t of turns) {
      this.responseHours.push(t.elapsedHours - previousHours);
      previousHours = t.elapsedHours;
      if (t.violation) this.illegalTurns++;
    }
  }

  summary(): SimulationSummary {
    const sessionLengths: Record<string, number> = {};
    for (const length of [...this.lengths].sort((a, b) => a - b)) {
      sessionLengths[String(length)] = (sessionLengths[String(length)] ?? 0) + 1;
    }
    const turns = describeDistribution(this.lengths);
    return {
      sessions: this.sessions,
      deals: this.deals,
      dealRate: this.sessions === 0 ? 0 : this.deals / this.sessions,
      messageSessionRate: this.ratedSessions === 0 ? 0 : this.messageSessions / this.ratedSessions,
      meanTurns: turns.mean ?? 0,
      sessionLengths,
      turns,
      finalPriceRatio: describeDistribution(this.finalRatios),
      firstOfferRatio: describeDistribution(this.firstOfferRatios),
      responseTimeHours: describeDistribution(this.responseHours),
      outcomes: { ...this.outcomes },
      errors: this.outcomes.error,
      illegalTurns: this.illegalTurns,
    };
  }
}

/** Summarises finished sessions (from a run, or loaded from JSONL). */
export function summarize(results: Iterable<SessionResult>): SimulationSummary {
  const accumulator = new SummaryAccumulator();
  for (const result of results) accumulator.add(result);
  return accumulator.summary();
}
