import { type CompiledGrammar, compileSchema, prepareVocabulary } from '../../src/decoding/index.js';
import { GrammarMatcher } from '../../src/decoding/matcher/grammar-matcher.js';
import type { Engine, EngineMatcher, EngineSetup } from './engine.js';
import { SchemaRefused } from './engine.js';

/**
 * MaskBench asks what a JSON Schema validator asks: any whitespace, properties in any order, other
 * properties allowed unless the schema says otherwise, and numbers as Python prints them (up to 17
 * significant digits, the shortest round trip of a double; an exponent for small and large floats)
 * and as a validator compares them (an enum's 2 is also 2.0).
 */
export const MASKBENCH_OPTIONS = {
  whitespace: 'flexible',
  propertyOrder: 'any',
  additionalProperties: 'allow',
  maxFractionDigits: 15,
  maxDigits: 17,
  numberSyntax: 'json',
} as const;

// A schema past the compiler's bounds (SchemaLimitError) is refused up front too, with a typed error.
const REFUSALS = new Set(['UnsupportedSchemaError', 'UnsatisfiableSchemaError', 'SchemaLimitError']);

export function haggleEngine(setup: EngineSetup): Engine {
  const { vocabulary } = setup;
  prepareVocabulary(vocabulary);
  const eosTokenId = vocabulary.eosTokenIds[0] as number;
  const buffer = new Uint32Array(Math.ceil(vocabulary.tokens.length / 32));
  return {
    name: 'haggle',
    eosTokenId,
    compile(schema) {
      try {
        return compileSchema(schema, vocabulary, MASKBENCH_OPTIONS);
      } catch (error) {
        if (REFUSALS.has((error as Error).name)) throw new SchemaRefused((error as Error).message);
        throw error;
      }
    },
    matcher(compiled): EngineMatcher {
      const matcher = new GrammarMatcher(compiled as CompiledGrammar);
      return {
        // A copy, as XGrammar hands back one: the same work for the caller on both sides.
        mask: () => matcher.fillMask(buffer),
        accept: (id) => matcher.accept(id),
        finish: () => matcher.isComplete(),
        dispose: () => {},
      };
    },
    release() {},
    cacheBytes: (compiled) => (compiled as CompiledGrammar).cacheBytes(),
  };
}
