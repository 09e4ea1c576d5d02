import { BoundedCache } from '../../internal/bounded-cache.js';
import { PatternLengths } from '../regex/pattern-lengths.js';
import { PatternAutomaton } from '../regex/regex.js';

/**
 * Automata by their patterns, with their length analyses, owned by the vocabulary's `GrammarCompiler`
 * and shared by the grammars it compiles: masks inside a string are cached by automaton and state (see
 * inside-cache.ts), so the same `pattern`, `format` or `patternProperties` key in many schemas costs its
 * masks once. Bounded (haggle's choice, 1,024 by default): `haggle serve` compiles schemas sent by
 * clients, and each automaton's DFA may grow to `MAX_DFA_STATES`. A grammar keeps the automata it uses.
 */
export class PatternCache {
  private readonly automata: BoundedCache<string, PatternAutomaton>;
  /** By automaton (kept while the automaton lives): the analysis builds its tables lazily, once. */
  private readonly analyses = new WeakMap<PatternAutomaton, PatternLengths>();

  constructor(limit = 1024) {
    this.automata = new BoundedCache(limit, 'use');
  }

  /** The automaton of the strings every pattern in `sources` matches (made and kept when new). */
  automaton(sources: readonly string[]): PatternAutomaton {
    return this.automata.getOrCreate(JSON.stringify(sources), () => PatternAutomaton.all(sources));
  }

  /** The (shared) length analysis of `automaton`. */
  lengths(automaton: PatternAutomaton): PatternLengths {
    let known = this.analyses.get(automaton);
    if (!known) {
      known = new PatternLengths(automaton);
      this.analyses.set(automaton, known);
    }
    return known;
  }

  /** Automata kept now. */
  get size(): number {
    return this.automata.size;
  }

  /** Most automata kept. */
  get limit(): number {
    return this.automata.limit;
  }
}
