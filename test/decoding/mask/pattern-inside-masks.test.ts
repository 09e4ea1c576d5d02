import { beforeAll, describe, expect, it, vi } from 'vitest';
import { GrammarCompiler } from '../../../src/decoding/compiler/grammar-compiler.js';
import { InsideKeys } from '../../../src/decoding/grammar/inside-keys.js';
import { midCharacter } from '../../../src/decoding/grammar/json-string-machine.js';
import { DEAD } from '../../../src/decoding/grammar/nodes.js';
import { StringLeaf } from '../../../src/decoding/grammar/string-leaf.js';
import { workNow } from '../../../src/decoding/grammar/work-clock.js';
import { InsideCache } from '../../../src/decoding/mask/inside-cache.js';
import { PatternAutomaton } from '../../../src/decoding/regex/regex.js';
import type { PlainStringLengths } from '../../../src/decoding/vocabulary/plain-string-lengths.js';
import type { TokenTrie } from '../../../src/decoding/vocabulary/token-trie.js';
import { Random } from '../../../src/internal/random.js';
import { qwen3 } from '../support/qwen3.js';

let trie: TokenTrie;
let words: number;
/** The vocabulary's tokens by id, for masks an `InsideCache` filters from the pattern's own walk. */
let tokens: readonly Uint8Array[];
/** The vocabulary's table of plain-string lengths (the compiler's), for a mask over the whole trie. */
let plainLengths: PlainStringLengths | undefined;
const insideKeys = new InsideKeys(64);
beforeAll(async () => {
  const { vocabulary } = await qwen3();
  const compiler = new GrammarCompiler(vocabulary);
  trie = compiler.trie;
  plainLengths = compiler.inside.plainLengths;
  words = Math.ceil(vocabulary.tokens.length / 32);
  tokens = vocabulary.tokens;
});

function leaf(pattern: string, minLength = 0, maxLength = Number.POSITIVE_INFINITY): StringLeaf {
  return new StringLeaf(0, {
    minLength,
    maxLength,
    pattern: PatternAutomaton.all([pattern]),
    collect: false,
  });
}

/**
 * The reference: every token stepped byte by byte through the leaf's own `step` (the parser the
 * matcher runs), kept when no byte is refused and the string is still open after it. Written apart
 * from `insideMask`'s typed-array pass and its shortcuts, so the two can disagree.
 */
function steppedMask(l: StringLeaf, state: unknown): Uint32Array {
  const mask = new Uint32Array(words);
  const states: unknown[] = [state];
  for (let i = 1; i < trie.nodeCount; ) {
    const d = trie.depth[i] as number;
    const next = l.step(states[d - 1], trie.byte[i] as number);
    if (next === DEAD || !l.isInside(next)) {
      i = trie.end[i] as number;
      continue;
    }
    states[d] = next;
    trie.markTokens(mask, i);
    i++;
  }
  return mask;
}

/** States inside the string after random characters the pattern allows (ASCII, accents, emoji, spaces). */
function randomStates(l: StringLeaf, random: Random, count: number): unknown[] {
  const alphabet = [...'ab0129 -,.xyzT:Z\t', 'é', '日', '😀'];
  const out: unknown[] = [];
  for (let run = 0; out.length < count && run < count * 4; run++) {
    let state = l.step(l.initial(), 0x22);
    out.push(state);
    for (let k = 0; k < 12 && out.length < count; k++) {
      const ch = alphabet[random.int(0, alphabet.length - 1)] as string;
      let next: unknown = state;
      for (const b of new TextEncoder().encode(ch)) {
        if (next === DEAD) break;
        next = l.step(next, b);
      }
      if (next === DEAD || !l.isInside(next)) continue;
      state = next;
      if (random.bernoulli(0.5)) out.push(state);
    }
  }
  return out;
}

function expectSameMask(l: StringLeaf, state: unknown, label: string): void {
  const fast = new Uint32Array(words);
  l.insideMask(state, trie, fast, Number.POSITIVE_INFINITY, plainLengths);
  const reference = steppedMask(l, state);
  let differ = 0;
  for (let w = 0; w < fast.length; w++) if (fast[w] !== reference[w]) differ++;
  expect(differ, label).toBe(0);
}

describe('masks inside pattern-constrained strings', () => {
  it('a pattern state that refuses nothing is told apart from one that does', () => {
    const hex = PatternAutomaton.all(['[a-f0-9]{24}']);
    // Unanchored: any string can still contain the match, yet not every string is one.
    expect(hex.unconstrained(hex.start, false)).toBe(true);
    expect(hex.unconstrained(hex.start, true)).toBe(false);
    const comma = PatternAutomaton.all(['^([^,]|$)']);
    expect(comma.unconstrained(comma.start, false)).toBe(false);
    const after = comma.next(comma.start, 0x78);
    expect(comma.unconstrained(after, true)).toBe(true);
    const anchored = PatternAutomaton.all(['^[a-z]+$']);
    expect(anchored.unconstrained(anchored.next(anchored.start, 0x61), false)).toBe(false);
    // Counted: free for a while, but a bound lies ahead.
    const words = PatternAutomaton.all(['^(?:\\S+\\s+){0,3}\\S+$']);
    expect(words.unconstrained(words.next(words.start, 0x61), false)).toBe(false);
  });

  it('states that refuse nothing share one mask across patterns', () => {
    const a = leaf('[a-f0-9]{24}');
    const b = leaf('^([^,]|$)');
    const inA = a.step(a.initial(), 0x22);
    let inB = b.step(b.initial(), 0x22);
    inB = b.step(inB, 0x78);
    expect(a.insideKey(inA, trie.maxTokenBytes, insideKeys)).toBe(
      b.insideKey(inB, trie.maxTokenBytes, insideKeys),
    );
    // Not shared with a pattern state that still refuses something.
    const c = leaf('^[a-z]+$');
    expect(c.insideKey(c.step(c.initial(), 0x22), trie.maxTokenBytes, insideKeys)).not.toBe(
      a.insideKey(inA, trie.maxTokenBytes, insideKeys),
    );
  });

  it('free strings of any bounds share the mask far from maxLength, not near it', () => {
    const wide = new StringLeaf(0, { minLength: 3, maxLength: 1000, pattern: null, collect: false });
    const open = new StringLeaf(0, {
      minLength: 0,
      maxLength: Number.POSITIVE_INFINITY,
      pattern: null,
      collect: false,
    });
    const near = new StringLeaf(0, { minLength: 0, maxLength: 20, pattern: null, collect: false });
    const key = (l: StringLeaf) => l.insideKey(l.step(l.initial(), 0x22), trie.maxTokenBytes, insideKeys);
    expect(key(wide)).toBe(key(open));
    expect(key(near)).not.toBe(key(open));
  });

  it('strings without a pattern near their bounds: a table lookup equal to the byte-by-byte walk', () => {
    const plain = (minLength: number, maxLength: number) =>
      new StringLeaf(0, { minLength, maxLength, pattern: null, collect: false });
    // Every position of a text with characters of one and two units (emoji), within reach of the
    // bounds: maxLength a unit or two away, minLength not yet met, both. With 14..14 every
    // character must be one unit: an emoji (2 units, 1 character) is refused though it fits maxLength.
    const text = new TextEncoder().encode('a😀bé\\c😀defghijklmnopqrstuvwxyz0123456789😀ABCDEFGHIJ');
    for (const l of [plain(0, 5), plain(4, 9), plain(12, 14), plain(14, 14), plain(30, 36)]) {
      let state = l.step(l.initial(), 0x22);
      let units = -1;
      for (let i = 0; state !== DEAD && l.isInside(state); i++) {
        const at = state as { units: number; bytes: number };
        const u = at.units;
        if (!midCharacter(at.bytes) && u !== units) {
          units = u;
          const label = `${l.options.minLength}..${l.options.maxLength} after ${u} units`;
          if (l.options.maxLength - u <= 14) {
            expect(
              l.insideMask(state, trie, new Uint32Array(words), Number.POSITIVE_INFINITY, plainLengths),
              `${label}: no pass`,
            ).toBe(0);
            expectSameMask(l, state, label);
          }
        }
        if (i >= text.length) break;
        state = l.step(state, text[i] as number);
      }
    }
  });

  it('every mask equals the byte-by-byte walk at random states', () => {
    const random = new Random(19);
    const cases: StringLeaf[] = [
      leaf('[a-f0-9]{24}'),
      leaf('[a-f0-9]{24}', 0, 40),
      leaf('^([^,]|$)', 1, 191),
      leaf('\\d{4}-\\d{2}-\\d{2}|\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}'),
      leaf('^$|(^(?:\\S+\\s+){0,5}\\S+$)', 0, 30),
      leaf('^[a-z0-9 ]{2,8}$'),
      leaf('x', 2, 12),
    ];
    for (const l of cases) {
      for (const state of randomStates(l, random, 3))
        expectSameMask(l, state, l.options.pattern?.source ?? '');
    }
  });

  it('a walk past its deadline (compile-time warming) gives up and keeps nothing', () => {
    const l = leaf('^(?:\\S+\\s+){0,29}\\S+$', 0, 100);
    const state = l.step(l.initial(), 0x22);
    const past = workNow() - 1; // deadlines are on the work clock (grammar/work-clock.ts)
    expect(l.insideMask(state, trie, new Uint32Array(words), past)).toBe(-1);
    const cache = new InsideCache(trie, words, 8);
    expect(cache.warm(l, state, past)).toBe(false);
    expect(cache.warm(l, state, Number.POSITIVE_INFINITY)).toBe(true);
    const kept = cache.mask(l, state);
    expect(kept).toEqual(steppedMask(l, state));
  });

  it('positions far from maxLength share a cached mask that is exact for each of them', () => {
    // Keys drop the exact room far from maxLength (slack from the shortest completions once minLength
    // is met, from the length profiles before): a mask cached for one position serves the others.
    const cases: Array<[StringLeaf, string]> = [
      [leaf('^(?:\\S+\\s+){0,40}\\S+$', 0, 400), 'abcdefghijkl'],
      [leaf('^[a-z ]+$', 3, 300), 'abcdefgh'],
    ];
    for (const [l, text] of cases) {
      const cache = new InsideCache(trie, words, 64);
      let state = l.step(l.initial(), 0x22);
      const keys = new Set<string>();
      for (const [i, ch] of [...text].entries()) {
        state = l.step(state, ch.charCodeAt(0));
        if (i % 3 !== 2) continue;
        keys.add(l.insideKey(state, trie.maxTokenBytes, insideKeys));
        expect(cache.mask(l, state), `${l.options.pattern?.source} after ${i + 1}`).toEqual(
          steppedMask(l, state),
        );
      }
      // Some positions did share a key (else the test would check nothing shared).
      expect(keys.size).toBeLessThan(text.length / 3);
    }
  });

  it('a bounded label pattern shares masks by the longest token its pattern lets through, exact at each length', () => {
    // The turn schema's labels: maxLength 48 is below Qwen3's longest token, so only the pattern's own
    // longest token (issue 45) lets positions far from it share a mask. Each position's mask from the
    // cache (shared or not) must equal the byte-by-byte reference, up to the bound and past it.
    // Nearer maxLength the masks are filtered from the pattern's own walk (its longest tokens stepped
    // through the string): held to the reference too, up to the last unit.
    const l = leaf('^[a-z][a-z0-9]*(_[a-z0-9]+)*$', 0, 48);
    const cache = new InsideCache(trie, words, 256, undefined, tokens);
    const text = 'declare_cost_limit_seller_firm_and_more_words_x';
    let state = l.step(l.initial(), 0x22);
    const masks: Uint32Array[] = [];
    for (const ch of text) {
      const mask = cache.mask(l, state);
      expect(mask, `after ${masks.length} characters`).toEqual(steppedMask(l, state));
      masks.push(mask);
      state = l.step(state, ch.charCodeAt(0));
      if (state === DEAD) break;
    }
    expect(masks.length).toBe(text.length);
    // Shared: far from maxLength the same mask object served positions of different lengths (one walk
    // per pattern state: the opening, the first word, after `_`, a later word), where each of the first
    // 20 lengths had its own before (positions up to 20 units share: 48 - 26 - 1 of slack - 1).
    expect(new Set(masks.slice(0, 20)).size).toBeLessThanOrEqual(6);
  });

  it('near maxLength, tokens that are not plain text are stepped, not judged by their bytes', () => {
    // The filter refuses a plain-text token longer than the room without stepping it (a byte a unit);
    // an accented letter is two bytes and one unit, an escape several bytes and one unit, so tokens
    // holding them must be stepped: a token of 4 bytes can fit a room of 2 units. Held to the
    // reference at every length up to the bound.
    const l = leaf('^[a-z\u00e0-\u00ff]+( [a-z\u00e0-\u00ff]+)*$', 0, 14);
    const cache = new InsideCache(trie, words, 256, undefined, tokens);
    let state = l.step(l.initial(), 0x22);
    let near = 0;
    for (const ch of 'été là où ça va') {
      if (!l.isInside(state)) break;
      const mask = cache.mask(l, state);
      expect(mask, `before ${JSON.stringify(ch)}`).toEqual(steppedMask(l, state));
      if (!l.farWithin(state, trie.maxTokenBytes)) near++;
      for (const b of new TextEncoder().encode(ch)) state = l.step(state, b);
      if (state === DEAD) break;
    }
    expect(near).toBeGreaterThan(5);
  });

  it('the shortest completion of every state is within the automaton-wide bound', () => {
    for (const source of ['^(?:\\S+\\s+){0,9}\\S+$', '^(ab|c)+x?$', 'xyz', '^[0-9]{3}-[a-z]{2,4}$']) {
      const automaton = PatternAutomaton.all([source]);
      const bound = automaton.completionBound() as number;
      const seen = new Set<number>([automaton.start]);
      const queue = [automaton.start];
      for (let head = 0; head < queue.length && queue.length < 300; head++) {
        const at = queue[head] as number;
        expect((automaton.shortestAccepted(at) as number[]).length, source).toBeLessThanOrEqual(bound);
        for (const edge of automaton.successors(at)) {
          if (!seen.has(edge.to)) {
            seen.add(edge.to);
            queue.push(edge.to);
          }
        }
      }
      expect(Number.isFinite(bound), source).toBe(true);
    }
    expect(PatternAutomaton.all(['a', 'b']).completionBound()).toBeNull();
  });

  it('the shared cache drops the least recently used mask, not the oldest', () => {
    const cache = new InsideCache(trie, words, 2);
    const [a, b, c] = ['^a+$', '^b+$', '^c+$'].map((p) => leaf(p));
    const open = (l: StringLeaf) => l.step(l.initial(), 0x22);
    const walks = [a, b, c].map((l) => vi.spyOn(l as StringLeaf, 'insideMask'));
    cache.mask(a as StringLeaf, open(a as StringLeaf));
    cache.mask(b as StringLeaf, open(b as StringLeaf));
    cache.mask(a as StringLeaf, open(a as StringLeaf)); // a used again: b is now the least recent
    cache.mask(c as StringLeaf, open(c as StringLeaf)); // drops b
    cache.mask(a as StringLeaf, open(a as StringLeaf));
    cache.mask(b as StringLeaf, open(b as StringLeaf));
    expect(walks.map((w) => w.mock.calls.length)).toEqual([1, 2, 1]);
  });
});
