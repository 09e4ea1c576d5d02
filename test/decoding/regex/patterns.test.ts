import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledGrammar,
  compileSchema,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from '../../../src/decoding/index.js';
import { PatternAutomaton } from '../../../src/decoding/regex/regex.js';
import { Random } from '../../../src/internal/random.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { randomDecode } from '../support/random-decode.js';
import { expectAccepted, expectPrefixAccepted, expectPrefixRefused, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

function grammar(schema: unknown): CompiledGrammar {
  return compileSchema(schema, q.vocabulary, { warm: false });
}

describe('anchors', () => {
  it('"^$|^(...)$": an empty string or a whole match', () => {
    const g = grammar({ type: 'string', pattern: '^$|^(([0-9]|[1-9][0-9])\\.){3}[0-9]$' });
    expectAccepted(g, q, '""');
    expectAccepted(g, q, '"10.0.42.7"');
    expectRefused(g, q, '"10.0.42"');
    expectPrefixRefused(g, q, '"x');
  });
  it('anchors inside groups and on some branches only', () => {
    const g = grammar({ type: 'string', pattern: '(^[^5]*$)|7' });
    expectAccepted(g, q, '"1234"');
    expectAccepted(g, q, '"5 then 7"');
    expectRefused(g, q, '"5 alone"');
    const h = grammar({ type: 'string', pattern: '^v?\\d+(\\.\\d+)?|^dev-' });
    expectAccepted(h, q, '"v1.2 and more"');
    expectAccepted(h, q, '"dev-x"');
    expectPrefixRefused(h, q, '"x');
  });
  it('a pattern no string can match is unsatisfiable', () => {
    // "^" after a character can never hold.
    expect(() => grammar({ type: 'string', pattern: '/^[0-9]{4}$/' })).toThrow(UnsatisfiableSchemaError);
    expect(() => grammar({ type: 'string', pattern: 'a$b' })).toThrow(UnsatisfiableSchemaError);
  });
  it('the automaton answers like ECMAScript on anchored alternatives', () => {
    const sources = ['^01$|^07$', '^$|(^(?:\\S+\\s+){0,3}\\S+$)', '^[a-z]{2}|^[a-z]{2}-[a-z]{2}?$', 'a^|b'];
    const texts = ['', '01', '07', '0107', 'ab', 'ab-c', 'ab cd', ' ab', 'a b c d e', 'xb', 'a'];
    for (const source of sources) {
      const automaton = new PatternAutomaton(source);
      for (const text of texts) {
        expect(automaton.matches(text), `/${source}/ on ${JSON.stringify(text)}`).toBe(
          new RegExp(source).test(text),
        );
      }
    }
  });

  it('one state for strings with the same future, however the construction got there', () => {
    // After one character and after two, `[a-z0-9]*` reads the same strings: one DFA state, so the
    // strings share one inside mask (the turn's label pattern had two, computed twice).
    const automaton = new PatternAutomaton('^[a-z][a-z0-9]*(_[a-z0-9]+)*$');
    const stateAfter = (text: string) =>
      [...text].reduce((state, ch) => automaton.next(state, ch.codePointAt(0) as number), automaton.start);
    expect(stateAfter('ab')).toBe(stateAfter('a'));
    expect(stateAfter('abc9')).toBe(stateAfter('a'));
    expect(stateAfter('a_bc')).toBe(stateAfter('a_b'));
    expect(stateAfter('a_b')).not.toBe(stateAfter('a_'));
    expect(automaton.matches('a_b')).toBe(true);
    expect(automaton.matches('a_')).toBe(false);
  });
});

describe('ECMAScript and Python differences', () => {
  it('refuses patterns the two engines read differently', () => {
    for (const pattern of ['^[]a]$', '^[^]$', 'a{,3}', '\\01', '[[:alpha:]]']) {
      expect(() => grammar({ type: 'string', pattern }), pattern).toThrow(UnsupportedSchemaError);
    }
  });
  it('keeps to what both engines match in class escapes', () => {
    // U+FEFF is \s in ECMAScript only; U+001C in Python only: neither is matched by \s, both by \S.
    const space = grammar({ type: 'string', pattern: '^\\s$' });
    expectAccepted(space, q, '" "');
    expectRefused(space, q, '"\\ufeff"');
    expectRefused(space, q, '"\\u001c"');
    const nonSpace = grammar({ type: 'string', pattern: '^\\S$' });
    expectAccepted(nonSpace, q, '"x"');
    expectRefused(nonSpace, q, '"\\ufeff"');
    expectRefused(nonSpace, q, '"\\u001c"');
    // Arabic-Indic digits are \d in Python: neither \d nor \D takes them.
    const digit = grammar({ type: 'string', pattern: '^\\d$' });
    expectAccepted(digit, q, '"7"');
    expectRefused(digit, q, '"٣"');
    const nonDigit = grammar({ type: 'string', pattern: '^\\D$' });
    expectAccepted(nonDigit, q, '"x"');
    expectRefused(nonDigit, q, '"٣"');
    expectRefused(nonDigit, q, '"7"');
    // In a negated class, an escape takes what either engine matches: [^\w] refuses "é" (Python's \w).
    const notWord = grammar({ type: 'string', pattern: '^[^\\w]$' });
    expectAccepted(notWord, q, '"-"');
    expectRefused(notWord, q, '"é"');
    expectRefused(notWord, q, '"a"');
  });
});

describe('pattern with minLength and maxLength', () => {
  it('refuses a character that matches the pattern but leaves no completion within maxLength', () => {
    const g = grammar({ type: 'string', pattern: '^a+b$', maxLength: 4 });
    expectAccepted(g, q, '"aaab"');
    expectAccepted(g, q, '"ab"');
    expectPrefixAccepted(g, q, '"aaa');
    expectPrefixRefused(g, q, '"aaaa');
  });
  it('reaches minLength through the pattern', () => {
    const g = grammar({ type: 'string', pattern: '^[0-9]+(-[a-z]+)?$', minLength: 5 });
    expectAccepted(g, q, '"12345"');
    expectAccepted(g, q, '"12-ab"');
    expectRefused(g, q, '"12-a"');
    expectRefused(g, q, '"1234"');
  });
  it('counts lengths the pattern can match exactly (periodic lengths)', () => {
    // Pairs only: even lengths. With 5..7 characters, only 6 fits.
    const g = grammar({ type: 'string', pattern: '^(ab)+$', minLength: 5, maxLength: 7 });
    expectAccepted(g, q, '"ababab"');
    expectRefused(g, q, '"abab"');
    expectPrefixRefused(g, q, '"abababa');
    expect(() => grammar({ type: 'string', pattern: '^(ab)+$', minLength: 5, maxLength: 5 })).toThrow(
      UnsatisfiableSchemaError,
    );
  });
  it('unanchored patterns with bounds', () => {
    const g = grammar({ type: 'string', pattern: 'xyz', minLength: 2, maxLength: 5 });
    expectAccepted(g, q, '"xyz"');
    expectAccepted(g, q, '"-xyz-"');
    expectPrefixRefused(g, q, '"abcd');
  });
  it('leaves no dead end under random decoding, and what it writes is valid', () => {
    const random = new Random(3);
    const cases: Array<{ pattern: string; minLength?: number; maxLength?: number }> = [
      { pattern: '^[A-Za-z0-9_\\-]+$', minLength: 3, maxLength: 6 },
      { pattern: '^(ab|c)+$', minLength: 4, maxLength: 7 },
      { pattern: '^$|^(?:\\S+\\s+){0,3}\\S+$', maxLength: 9 },
      { pattern: '[0-9]', minLength: 2, maxLength: 4 },
    ];
    for (const schema of cases) {
      const g = grammar({ type: 'string', ...schema });
      let completed = 0;
      for (let i = 0; i < 5; i++) {
        const { text, complete } = randomDecode(g, q, random, 40);
        if (!complete) continue;
        completed++;
        const value = JSON.parse(text) as string;
        const length = [...value].length;
        expect(new RegExp(schema.pattern).test(value), `${schema.pattern}: ${text}`).toBe(true);
        expect(length).toBeGreaterThanOrEqual(schema.minLength ?? 0);
        expect(length).toBeLessThanOrEqual(schema.maxLength ?? Number.POSITIVE_INFINITY);
      }
      expect(completed).toBeGreaterThan(0);
    }
  });
});
