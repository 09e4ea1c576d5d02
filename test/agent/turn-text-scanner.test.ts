import { describe, expect, it } from 'vitest';
import { type ScannedField, TurnTextScanner } from '../../src/agent/turn-text-scanner.js';
import { Random } from '../../src/internal/random.js';

/** Feeds `text` in the given pieces; returns every field and the message the deltas spell. */
function scan(pieces: string[]) {
  const scanner = new TurnTextScanner();
  const fields: ScannedField[] = [];
  for (const piece of pieces) fields.push(...scanner.push(piece));
  const values = Object.fromEntries(
    fields.flatMap((field) => (field.kind === 'value' ? [[field.key, field.value]] : [])),
  );
  const message = fields.map((field) => (field.kind === 'message-delta' ? field.text : '')).join('');
  return { fields, values, message, complete: scanner.complete };
}

function randomSplit(text: string, random: Random): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = random.int(1, 6);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

const TURN = {
  action: 'offer_with_message',
  price: 45.5,
  message_labels: ['build_rapport', 'invoke_compromise'],
  message: 'Hi! "Quoted", a tab\there, a snowman ☃ and an emoji 😀 \\ done',
  response_time: 3,
};

describe('TurnTextScanner', () => {
  it('reads every field of a turn whatever the split: char by char and 200 random splits', () => {
    // Compact, indented, and with the snowman and the emoji written as \u escapes (a surrogate pair).
    const texts = [
      JSON.stringify(TURN),
      JSON.stringify(TURN, null, 2),
      JSON.stringify(TURN).replace('☃', '\\u2603').replace('😀', '\\ud83d\\ude00'),
    ];
    const random = new Random(5);
    for (const text of texts) {
      const splits = [
        [...text].map((c) => c),
        ...Array.from({ length: 200 }, () => randomSplit(text, random)),
      ];
      for (const pieces of splits) {
        const { values, message, complete } = scan(pieces);
        expect(values).toEqual(TURN);
        expect(message).toBe(TURN.message);
        expect(complete).toBe(true);
      }
    }
  });

  it('reports a number only once it is whole: never "4" on the way to "45"', () => {
    const scanner = new TurnTextScanner();
    expect(scanner.push('{"action":"offer","price":4')).toEqual([
      { kind: 'value', key: 'action', value: 'offer' },
    ]);
    expect(scanner.push('5')).toEqual([]);
    expect(scanner.push('.2')).toEqual([]);
    expect(scanner.push(',')).toEqual([{ kind: 'value', key: 'price', value: 45.2 }]);
  });

  it('hands the message out as it is written, and never half a character', () => {
    const scanner = new TurnTextScanner();
    scanner.push('{"message":"Hel');
    expect(scanner.push('lo \\u')).toEqual([{ kind: 'message-delta', text: 'lo ' }]);
    expect(scanner.push('d83d')).toEqual([]);
    expect(scanner.push('\\ude00!"')).toEqual([
      { kind: 'message-delta', text: '😀!' },
      { kind: 'value', key: 'message', value: 'Hello 😀!' },
    ]);
  });

  it('skips a think block and a code fence before the object', () => {
    const text = `<think>\n{"not": "this"}\n</think>\n\`\`\`json\n${JSON.stringify(TURN)}\n\`\`\``;
    const { values } = scan(randomSplit(text, new Random(1)));
    expect(values).toEqual(TURN);
  });

  it('stops for good at text that is not a turn object, and at a value past its bound', () => {
    expect(scan(['Sure! Here is the turn: {"action":"offer"}']).fields).toEqual([]);
    expect(scan(['{"action" "offer"}']).fields).toEqual([]);
    const long = `{"message_labels":[${'"a",'.repeat(5000)}"a"],"action":"offer"}`;
    expect(scan([long]).fields).toEqual([]);
  });
});
