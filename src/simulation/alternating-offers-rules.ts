import type { Action } from '../contract/action.js';
import { InvalidInputError } from '../contract/errors.js';
import type { HistoryEntry, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import {
  alternatingNextRole,
  applyCommonEffects,
  type IllegalTurnPolicy,
  initialNegotiationState,
  type NegotiationState,
  type Rules,
  type StandingOffer,
  type TurnRuling,
} from './rules.js';

export interface AlternatingOffersRulesOptions {
  maxTurns?: number;
  illegalTurnPolicy?: IllegalTurnPolicy;
}

/**
 * Plain alternating offers (Rubinstein's protocol, as NegMAS's SAO runs it): the buyer opens, sides
 * alternate, offers never lapse and have no cap, accepting takes the standing offer's price.
 */
export class AlternatingOffersRules implements Rules {
  readonly name = 'alternating-offers';
  readonly maxTurns: number;
  readonly illegalTurnPolicy: IllegalTurnPolicy;

  constructor(options: AlternatingOffersRulesOptions = {}) {
    this.maxTurns = options.maxTurns ?? 20;
    this.illegalTurnPolicy = options.illegalTurnPolicy ?? 'end';
    if (!Number.isInteger(this.maxTurns) || this.maxTurns < 1) {
      throw new InvalidInputError('AlternatingOffersRulesOptions', [
        { path: 'maxTurns', message: 'must be an integer of at least 1' },
      ]);
    }
  }

  describe(): Record<string, unknown> {
    return { name: this.name, maxTurns: this.maxTurns, illegalTurnPolicy: this.illegalTurnPolicy };
  }

  initialState(context: ListingContext): NegotiationState {
    return initialNegotiationState(context);
  }

  nextRole(state: NegotiationState): Role {
    return alternatingNextRole(state);
  }

  legalActions(state: NegotiationState, role: Role): Action[] {
    const actions: Action[] = ['offer', 'offer_with_message'];
    if (state.standingOffer !== null && state.standingOffer.role !== role) actions.push('accept', 'decline');
    actions.push('message_only');
    if (state.history.length > 0) actions.push('no_response');
    return actions;
  }

  expiredOffer(_state: NegotiationState, _atHours: number): StandingOffer | null {
    return null;
  }

  apply(state: NegotiationState, entry: HistoryEntry): TurnRuling {
    if (!this.legalActions(state, entry.role).includes(entry.turn.action)) {
      return {
        kind: 'illegal',
        violation: `${entry.role} chose ${entry.turn.action}, which is not legal now`,
      };
    }
    return applyCommonEffects(state, entry, Number.POSITIVE_INFINITY);
  }
}
