import {
  PatternSyntaxError,
  SchemaLimitError,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from '../errors.js';
import type { GrammarNode } from '../grammar/nodes.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import type { PatternLengths } from '../regex/pattern-lengths.js';
import type { PatternAutomaton } from '../regex/regex.js';
import { nonNegativeInteger, type Schema } from '../schema/schema-keywords.js';
import { formatRule } from '../schema/string-formats.js';
import type { CompileContext } from './compile-context.js';

/** `type: string` with its length, `pattern` and `format` (the last two as one automaton). */
export function compileString(c: CompileContext, s: Schema, path: string, collect: boolean): GrammarNode {
  let minLength = nonNegativeInteger(s.minLength, 'minLength', path) ?? 0;
  let maxLength = nonNegativeInteger(s.maxLength, 'maxLength', path) ?? Number.POSITIVE_INFINITY;
  c.budget.size(minLength, 'minLength', path);
  const sources: string[] = [];
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string')
      throw new UnsupportedSchemaError({ keyword: 'pattern', schemaPath: path, detail: 'not a string' });
    sources.push(s.pattern);
  }
  if (s.format !== undefined) {
    if (typeof s.format !== 'string')
      throw new UnsupportedSchemaError({ keyword: 'format', schemaPath: path, detail: 'not a string' });
    const rule = formatRule(s.format);
    if (rule.kind === 'unsupported') {
      throw new UnsupportedSchemaError({
        keyword: 'format',
        schemaPath: path,
        detail: `format "${s.format}" cannot be enforced`,
      });
    }
    if (rule.kind === 'pattern') {
      sources.push(rule.source);
      if (rule.maxLength !== undefined) maxLength = Math.min(maxLength, rule.maxLength);
    }
  }
  if (minLength > maxLength)
    throw new UnsatisfiableSchemaError({ schemaPath: path, detail: 'minLength is above maxLength' });
  let pattern: PatternAutomaton | null = null;
  let lengths: PatternLengths | undefined;
  if (sources.length > 0) {
    try {
      pattern = c.patterns.automaton(sources);
    } catch (error) {
      if (error instanceof PatternSyntaxError)
        throw new UnsupportedSchemaError({ keyword: 'pattern', schemaPath: path, detail: error.message });
      throw atPath(error, path);
    }
    const automaton = pattern;
    // A minLength every match of the pattern already meets (`minLength: 1` beside `^\S+$`) bounds
    // nothing, and without a bound the string needs no length analysis of the pattern, which for a
    // counted pattern (`^(?:\S+\s+){0,199}\S+$`) took seconds.
    let satisfiable: boolean;
    let bounded: boolean;
    try {
      if (minLength > 0 && maxLength === Number.POSITIVE_INFINITY) {
        const shortest = automaton.shortestAccepted(automaton.start);
        if (shortest !== null && shortest.length >= minLength) minLength = 0;
      }
      bounded = minLength > 0 || maxLength !== Number.POSITIVE_INFINITY;
      if (bounded) lengths = c.patterns.lengths(automaton);
      satisfiable = lengths
        ? lengths.canFinish(automaton.start, minLength, maxLength)
        : automaton.shortestAccepted(automaton.start) !== null;
    } catch (error) {
      throw atPath(error, path);
    }
    if (!satisfiable) {
      const what = [
        s.pattern !== undefined ? `/${s.pattern}/` : '',
        s.format !== undefined ? `format "${s.format}"` : '',
        bounded ? `${minLength}..${maxLength} characters` : '',
      ].filter((part) => part !== '');
      throw new UnsatisfiableSchemaError({
        schemaPath: path,
        detail: `no string matches ${what.join(' and ')}`,
      });
    }
  }
  return c.add((id) => new StringLeaf(id, { minLength, maxLength, pattern, collect, lengths }));
}

/** A pattern's bound reached while compiling the string at `path`: said at that path. */
function atPath(error: unknown, path: string): unknown {
  return error instanceof SchemaLimitError && error.schemaPath === '(pattern)' ? error.at(path) : error;
}
