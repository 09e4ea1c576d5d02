import { HaggleAbortError, HaggleError } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import { deriveSeed } from '../internal/random.js';
import { untilAborted } from '../internal/until-aborted.js';
import { checkOutcome, type Outcome } from './issue-space.js';
import {
  type MultiIssueHistoryEntry,
  type MultiIssueNegotiator,
  type MultiIssueTurn,
  MultiIssueTurnSchema,
  standingProposal,
} from './multi-issue-turn.js';
import type { Scenario } from './scenario.js';
import { utilityOf } from './utility.js';

/** How a multi-issue negotiation ended. */
export type MultiIssueEndReason =
  | 'accepted'
  | 'walked-away'
  | 'deadline'
  | 'invalid-turn'
  | 'error'
  | 'timeout';

/** The result of `runMultiIssueNegotiation`: the agreement (if any), why it ended, and the turns. */
export interface MultiIssueResult {
  agreement: Outcome | null;
  reason: MultiIssueEndReason;
  /** Turns played. */
  rounds: number;
  /** Each side's utility of the result: of the agreement (discounted by its round), else the reservation. */
  utilities: { buyer: number; seller: number };
  turns: (MultiIssueHistoryEntry & { violation?: string })[];
  error?: { name: string; message: string };
  /**
   * For `invalid-turn`, `error` and `timeout`: the side whose turn broke the rules, whose negotiator
   * failed, or whose turn was pending when the time ran out.
   * The other side did nothing wrong: the match says nothing about its policy (a reward is void).
   */
  failedBy?: Role;
}

/** What `runMultiIssueNegotiation` plays: the scenario, both negotiators and a seed. */
export interface MultiIssueNegotiationOptions {
  scenario: Scenario;
  buyer: MultiIssueNegotiator;
  seller: MultiIssueNegotiator;
  seed: number;
  /** Default 10 turns. */
  maxRounds?: number;
  /** Who proposes first. Default 'seller' (the listing is the seller's opening). */
  firstMover?: Role;
  /** Wall-clock limit for the whole negotiation; over it the result is `timeout`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

class NegotiationTimeout extends HaggleError {
  static override readonly marker: string = 'haggle.error.NegotiationTimeout';
  constructor(ms: number) {
    super({ code: 'timeout', message: `the negotiation took longer than ${ms} ms` });
    this.name = 'NegotiationTimeout';
  }
}

/**
 * Plays one bilateral multi-issue negotiation by alternating offers over whole outcomes. Each side sees
 * only its own utility. A malformed or illegal turn ends the negotiation (reason `invalid-turn`) and is
 * recorded as it was; a negotiator that throws ends it with reason `error`; both score as no deal.
 */
export async function runMultiIssueNegotiation(
  options: MultiIssueNegotiationOptions,
): Promise<MultiIssueResult> {
  const { scenario, seed, signal } = options;
  const maxRounds = options.maxRounds ?? 10;
  const first: Role = options.firstMover ?? 'seller';
  const negotiators: Record<Role, MultiIssueNegotiator> = { buyer: options.buyer, seller: options.seller };
  const turns: MultiIssueResult['turns'] = [];
  const finish = (
    reason: MultiIssueEndReason,
    agreement: Outcome | null,
    error?: unknown,
    failedBy?: Role,
  ): MultiIssueResult => {
    const round = Math.max(0, turns.length - 1);
    const utilities = agreement
      ? {
          buyer: utilityOf(scenario.space, scenario.buyer, agreement, round),
          seller: utilityOf(scenario.space, scenario.seller, agreement, round),
        }
      : { buyer: scenario.buyer.reservation, seller: scenario.seller.reservation };
    return {
      agreement,
      reason,
      rounds: turns.length,
      utilities,
      turns,
      ...(failedBy !== undefined ? { failedBy } : {}),
      ...(error !== undefined
        ? {
            error: {
              name: (error as Error).name ?? 'Error',
              message: (error as Error).message ?? String(error),
            },
          }
        : {}),
    };
  };

  // One controller per negotiation: a timeout cancels the negotiator's pending work, not just waits less.
  const match = new AbortController();
  const forwardAbort = () => match.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(() => {
      timedOut = true;
      match.abort(new NegotiationTimeout(options.timeoutMs as number));
    }, options.timeoutMs);
  }
  try {
    return await play();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }

  async function play(): Promise<MultiIssueResult> {
    for (let round = 0; round < maxRounds; round++) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      const role: Role = round % 2 === 0 ? first : first === 'seller' ? 'buyer' : 'seller';
      let turn: MultiIssueTurn;
      try {
        const proposed = await untilAborted(
          negotiators[role].predict(
            {
              space: scenario.space,
              role,
              utility: scenario[role],
              history: turns,
              round,
              maxRounds,
              title: scenario.title,
            },
            { seed: deriveSeed(seed, round), signal: match.signal },
          ),
          match.signal,
        );
        turn = MultiIssueTurnSchema.parse(proposed);
      } catch (error) {
        if (signal?.aborted) throw new HaggleAbortError(signal.reason);
        if (timedOut)
          return finish('timeout', null, new NegotiationTimeout(options.timeoutMs as number), role);
        return finish('error', null, error, role);
      }
      if (timedOut) return finish('timeout', null, new NegotiationTimeout(options.timeoutMs as number), role);
      const standing = standingProposal(turns, role);
      if (turn.action === 'accept') {
        if (!standing) {
          turns.push({ role, turn, violation: 'accepted, but the other side has no standing proposal' });
          return finish('invalid-turn', null, undefined, role);
        }
        turns.push({ role, turn });
        return finish('accepted', standing);
      }
      if (turn.action === 'walk_away') {
        turns.push({ role, turn });
        return finish('walked-away', null);
      }
      try {
        checkOutcome(scenario.space, turn.offer ?? {});
      } catch (error) {
        turns.push({ role, turn, violation: (error as Error).message });
        return finish('invalid-turn', null, undefined, role);
      }
      turns.push({ role, turn });
    }
    return finish('deadline', null);
  }
}
