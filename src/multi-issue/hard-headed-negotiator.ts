import { InvalidInputError } from '../contract/errors.js';
import { FrequencyOpponentModel } from './frequency-opponent-model.js';
import { modelAwareTurn, turnTime } from './model-aware-turn.js';
import type { MultiIssueInput, MultiIssueNegotiator, MultiIssueTurn } from './multi-issue-turn.js';
import { learnFromHistory } from './opponent-model.js';
import { rankOutcomes } from './outcome-ranking.js';

/** Options of `HardHeadedNegotiator`. */
export interface HardHeadedOptions {
  /**
   * Concession exponent of the target `r + (1 - r)(1 - t^(1/e))`. Default 0.1 (haggle's choice: HardHeaded
   * concedes hardly at all until the end; 0.1 does that within a 10-round negotiation).
   */
  exponent?: number;
}

/**
 * A hard-headed concession with opponent-aware offer choice, after HardHeaded (van Krimpen, Looije &
 * Hajizadeh 2013, winner of ANAC 2011): a very Boulware target over its own utility, and among the offers
 * of (nearly) equal utility to itself, the one its frequency model (`FrequencyOpponentModel`) says the other
 * side likes best. Accepts like the fixed curves (AC_next); never proposes or accepts below its
 * reservation. Stateless: the model is rebuilt from the history on every turn. Deterministic.
 */
export class HardHeadedNegotiator implements MultiIssueNegotiator {
  readonly exponent: number;

  constructor(options: HardHeadedOptions = {}) {
    this.exponent = options.exponent ?? 0.1;
    if (!(this.exponent > 0) || !Number.isFinite(this.exponent))
      throw new InvalidInputError({
        subject: 'HardHeadedOptions',
        issues: [{ path: 'exponent', message: 'must be a positive number' }],
      });
  }

  describe() {
    return { kind: 'utility-hard-headed', exponent: this.exponent, model: 'frequency' };
  }

  async predict(input: MultiIssueInput): Promise<MultiIssueTurn> {
    const model = learnFromHistory(
      new FrequencyOpponentModel(input.space),
      input.history,
      input.role,
      input.maxRounds,
    );
    const r = input.utility.reservation;
    const target = r + (1 - r) * (1 - turnTime(input) ** (1 / this.exponent));
    return modelAwareTurn(input, rankOutcomes(input.space, input.utility), target, (o) => model.utility(o));
  }
}
