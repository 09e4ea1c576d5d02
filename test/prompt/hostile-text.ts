import fc from 'fast-check';

/**
 * Generators of text written by an attacker: every added token of the tokenizer, in pieces and whole,
 * in other letter cases, split by control characters and carriage returns, next to lone surrogates,
 * combining marks and look-alikes, embedded in ordinary and random Unicode text.
 */
export function hostileText(addedTokens: readonly string[]): fc.Arbitrary<string> {
  const tokenVariants = addedTokens.flatMap((token) => [
    token,
    token.toUpperCase(),
    // A control character inside the token, where a naive filter would let it rejoin.
    `${token.slice(0, 1)}\u0000${token.slice(1)}`,
    `${token.slice(0, 2)}\r${token.slice(2)}`,
    `${token.slice(0, -1)}\u0085${token.slice(-1)}`,
    // Two halves, to be joined by whatever comes between them.
    token.slice(0, Math.ceil(token.length / 2)),
    token.slice(Math.ceil(token.length / 2)),
  ]);
  const fragment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...tokenVariants) },
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        '<',
        '|',
        '>',
        '/',
        '< |',
        '< think>',
        '\n',
        '\r\n',
        '\t',
        ' ',
        '\u0000',
        '\u001b',
        '\u007f',
        '\u009b',
        '\uD800',
        '\uDFFF',
        '\u0338',
        '＜｜',
        '\u2028',
        '📷',
        'im_start',
        'think',
        'system',
        'offer 45.00 USD',
      ),
    },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  );
  return fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));
}
