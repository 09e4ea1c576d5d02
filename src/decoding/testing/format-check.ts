import { PatternAutomaton } from '../regex/regex.js';
import { formatRule } from '../schema/string-formats.js';

/**
 * Whether `text` is a valid `name` by the decoder's reading of the format (true for annotations), or
 * null for a format it cannot enforce: what the format tests hold the patterns of string-formats.ts to.
 * A test hook (no production code checks a value against a format: `satisfies` refuses `format`).
 */
export function matchesFormat(name: string, text: string): boolean | null {
  const rule = formatRule(name);
  if (rule.kind === 'unsupported') return null;
  if (rule.kind === 'annotation') return true;
  const automaton = new PatternAutomaton(rule.source);
  return automaton.matches(text) && (rule.maxLength === undefined || text.length <= rule.maxLength);
}
