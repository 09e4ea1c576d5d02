import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/index.js';
import { TokenSampler } from '../../src/decoding/index.js';

function maskOf(size: number, allowed: number[]): Uint32Array {
  const mask = new Uint32Array((size + 31) >>> 5);
  for (const id of allowed) mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
  return mask;
}

function frequencies(
  sampler: TokenSampler,
  logits: number[],
  mask: Uint32Array | null,
  draws: number,
): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const id = sampler.sample(logits, mask);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

describe('TokenSampler', () => {
  it('draws only allowed tokens, in proportion to softmax(logits / T)', () => {
    const logits = [5, 0, Math.log(2), Math.log(4), 9];
    const mask = maskOf(5, [1, 2, 3]); // the two best tokens are masked out
    const counts = frequencies(new TokenSampler({ seed: 1 }), logits, mask, 20_000);
    expect([...counts.keys()].sort()).toEqual([1, 2, 3]);
    expect((counts.get(1) ?? 0) / 20_000).toBeCloseTo(1 / 7, 1);
    expect((counts.get(3) ?? 0) / 20_000).toBeCloseTo(4 / 7, 1);
  });
  it('temperature flattens or sharpens', () => {
    const logits = [0, Math.log(4)];
    const hot = frequencies(new TokenSampler({ temperature: 2, seed: 2 }), logits, null, 20_000);
    expect((hot.get(1) ?? 0) / 20_000).toBeCloseTo(2 / 3, 1); // 4^(1/2) = 2 : 1
    const greedy = frequencies(new TokenSampler({ temperature: 0, seed: 2 }), logits, null, 100);
    expect(greedy.get(1)).toBe(100);
  });
  it('weights far below the top are still drawn at their rate (no bin is dropped)', () => {
    const logits = [0, -3.5, -3.5, -3.5, -3.5, -3.5, -3.5, -3.5, -3.5, -3.5, -3.5];
    const counts = frequencies(new TokenSampler({ seed: 9 }), logits, null, 40_000);
    const tail = 40_000 - (counts.get(0) ?? 0);
    const expected = (10 * Math.exp(-3.5)) / (1 + 10 * Math.exp(-3.5));
    expect(tail / 40_000).toBeCloseTo(expected, 1);
  });
  it('top-k, top-p and min-p cut the tail', () => {
    const logits = [3, 2, 1, 0, -1];
    expect(
      [...frequencies(new TokenSampler({ topK: 2, seed: 3 }), logits, null, 2000).keys()].sort(),
    ).toEqual([0, 1]);
    expect([...frequencies(new TokenSampler({ topK: 1, seed: 3 }), logits, null, 200).keys()]).toEqual([0]);
    // p(0) = 0.64, p(0)+p(1) = 0.87: top-p 0.8 keeps two tokens.
    expect(
      [...frequencies(new TokenSampler({ topP: 0.8, seed: 3 }), logits, null, 2000).keys()].sort(),
    ).toEqual([0, 1]);
    // min-p 0.3 keeps tokens with p >= 0.3 p(top): e^-1 = 0.37 passes, e^-2 = 0.14 does not.
    expect(
      [...frequencies(new TokenSampler({ minP: 0.3, seed: 3 }), logits, null, 2000).keys()].sort(),
    ).toEqual([0, 1]);
  });
  it('the repetition guard makes recent tokens less likely', () => {
    const logits = [2, 2];
    const sampler = new TokenSampler({ repetitionPenalty: 4, seed: 4 });
    let zero = 0;
    for (let i = 0; i < 4000; i++) if (sampler.sample(logits, null, [0]) === 0) zero++;
    expect(zero / 4000).toBeCloseTo(Math.exp(0.5) / (Math.exp(0.5) + Math.exp(2)), 1);
  });
  it('the same seed gives the same tokens; another seed does not', () => {
    const logits = Array.from({ length: 1000 }, (_, i) => Math.sin(i));
    const draw = (seed: number) => {
      const s = new TokenSampler({ seed });
      return Array.from({ length: 50 }, () => s.sample(logits, null));
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });
  it('still returns an allowed token when the model gives every allowed token -Infinity or NaN', () => {
    const logits = [0, Number.NEGATIVE_INFINITY, Number.NaN];
    const id = new TokenSampler({ seed: 5 }).sample(logits, maskOf(3, [1, 2]));
    expect([1, 2]).toContain(id);
  });
  it('refuses bad options and an empty mask with typed errors', () => {
    expect(() => new TokenSampler({ temperature: -1 })).toThrow(InvalidInputError);
    expect(() => new TokenSampler({ topP: 0 })).toThrow(InvalidInputError);
    expect(() => new TokenSampler({ minP: 1 })).toThrow(InvalidInputError);
    expect(() => new TokenSampler({ topK: 1.5 })).toThrow(InvalidInputError);
    expect(() => new TokenSampler({ repetitionPenalty: 0.5 })).toThrow(InvalidInputError);
    expect(() => new TokenSampler().sample([1, 2], maskOf(2, []))).toThrow(InvalidInputError);
  });
});
