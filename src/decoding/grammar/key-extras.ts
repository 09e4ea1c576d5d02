import type { PatternAutomaton } from '../regex/regex.js';

/** What an undeclared key may be; shared by every key leaf of one object schema. */
export interface KeyExtras {
  /** Automata run over every undeclared key: `patternProperties` patterns, then `propertyNames`. */
  readonly automata: readonly PatternAutomaton[];
  /** Indices of automata of which one must accept the key; null: any key (within the lengths). */
  readonly alternatives: readonly number[] | null;
  /** In code points (`propertyNames`); only with `alternatives` null. */
  readonly minLength: number;
  readonly maxLength: number;
  /** The class (which schema governs the value) of a key that `accepted[i]` automata accept; null: refused. */
  classify(accepted: readonly boolean[]): number | null;
}
