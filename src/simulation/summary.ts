import { isPricedAction } from '../contract/action.js';
import { type Distribution, describeDistribution } from './distribution.js';
import { type ErrorMessageCount, ErrorTally, isFinished } from './failures.js';
import { hasMessage } from './metrics/message-sessions.js';
import { END_REASONS, type EndReason } from './outcome.js';
import type { SessionResult } from './session-result.js';

/**
 * The headline numbers of a run, as researchers report them. A session that failed (reason `error`) or
 * was stopped (`aborted`) did not finish: it is neither a deal nor a no-deal. Every rate and
 * distribution below stands on the `finished` sessions only; the failed ones are counted apart
 * (`errors`, `outcomes.aborted`) with their messages (`errorMessages`).
 */
export interface SimulationSummary {
  /** Sessions summarised, finished or not: `finished + errors + outcomes.aborted`. */
  sessions: number;
  /** Sessions that ended by the rules (a deal or a no-deal): the denominator of every rate. */
  finished: number;
  deals: number;
  /** Deals / finished sessions, 0..1; null when no session finished (there is no rate to report). */
  dealRate: number | null;
  /**
   * Share of finished sessions with at least one message (`offer_with_message` or `message_only`),
   * 0..1; null when none finished. The model card's population: about 3%.
   */
  messageSessionRate: number | null;
  /** Mean number of turns per finished session; null when none finished. */
  meanTurns: number | null;
  /** Turns per finished session: count of sessions by length. */
  sessionLengths: Record<string, number>;
  turns: Distribution;
  /** Agreed price / list price, over deals. */
  finalPriceRatio: Distribution;
  /** The buyer's first offer / list price, over sessions with a buyer offer. */
  firstOfferRatio: Distribution;
  /** Response time of every turn, in hours. */
  responseTimeHours: Distribution;
  /** Sessions by the reason they ended, failed ones included. */
  outcomes: Record<EndReason, number>;
  /** Sessions that ended because a negotiator failed (reason `error`). */
  errors: number;
  /**
   * The distinct errors of the sessions that did not finish (`error` and `aborted`), as `Name: message`
   * lines with how many sessions ended with each, most frequent first.
   */
  errorMessages: ErrorMessageCount[];
  /** Turns of finished sessions that broke a rule. */
  illegalTurns: number;
}

/** Builds a summary one session at a time, so a run of any size needs no list of results. */
export class SummaryAccumulator {
  private sessions = 0;
  private finished = 0;
  private deals = 0;
  private readonly failures = new ErrorTally();
  private illegalTurns = 0;
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

  /** Counts one session in. */
  add(result: SessionResult): void {
    this.sessions++;
    const { outcome, context, turns } = result;
    this.outcomes[outcome.reason]++;
    if (!isFinished(result)) {
      this.failures.add(result.error);
      return;
    }
    this.finished++;
    if (hasMessage(result)) this.messageSessions++;
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

  /** The summary of the sessions added so far. */
  summary(): SimulationSummary {
    const sessionLengths: Record<string, number> = {};
    for (const length of [...this.lengths].sort((a, b) => a - b)) {
      sessionLengths[String(length)] = (sessionLengths[String(length)] ?? 0) + 1;
    }
    const turns = describeDistribution(this.lengths);
    return {
      sessions: this.sessions,
      finished: this.finished,
      deals: this.deals,
      dealRate: this.finished === 0 ? null : this.deals / this.finished,
      messageSessionRate: this.finished === 0 ? null : this.messageSessions / this.finished,
      meanTurns: turns.mean,
      sessionLengths,
      turns,
      finalPriceRatio: describeDistribution(this.finalRatios),
      firstOfferRatio: describeDistribution(this.firstOfferRatios),
      responseTimeHours: describeDistribution(this.responseHours),
      outcomes: { ...this.outcomes },
      errors: this.outcomes.error,
      errorMessages: this.failures.list(),
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
