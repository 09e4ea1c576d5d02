import { UnsatisfiableSchemaError, UnsupportedSchemaError } from './errors.js';
import type { GrammarNode } from './nodes.js';
import { PatternAutomaton, PatternSyntaxError } from './regex.js';
import type { SchemaCompiler } from './schema-compiler.js';
import { nonNegativeInteger, type Schema } from './schema-keywords.js';
import { StringLeaf } from './string-leaf.js';

/** `type: string` with its length and pattern. */
export function compileString(c: SchemaCompiler, s: Schema, path: string, collect: boolean): GrammarNode {
  const minLength = nonNegativeInteger(s.minLength, 'minLength', path) ?? 0;
  const maxLength = nonNegativeInteger(s.maxLength, 'maxLength', path) ?? Number.POSITIVE_INFINITY;
  if (minLength > maxLength) throw new UnsatisfiableSchemaError(path, 'minLength is above maxLength');
  let pattern: PatternAutomaton | null = null;
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string') throw new UnsupportedSchemaError('pattern', path, 'not a string');
    if (s.minLength !== undefined || s.maxLength !== undefined) {
      throw new UnsupportedSchemaError('pattern', path, 'pattern together with minLength/maxLength');
    }
    try {
      pattern = new PatternAutomaton(s.pattern);
    } catch (error) {
      if (error instanceof PatternSyntaxError)
        throw new UnsupportedSchemaError('pattern', path, error.message);
      throw error;
    }
    if (pattern.shortestAccepted(pattern.start) === null) {
      throw new UnsatisfiableSchemaError(path, `no string matches /${s.pattern}/`);
    }
  }
  return c.add((id) => new StringLeaf(id, { minLength, maxLength, pattern, collect }));
}
