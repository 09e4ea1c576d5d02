import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/contract/index.js';
import { TokenSampler } from '../../../src/decoding/index.js';

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

  describe('matches the exact distribution on a large vocabulary, on every path', () => {
    const size = 3000;
    // Flat logits (the uniform-proposal path), peaked ones (the binned fallback), extreme ones (exact).
    const flat = Array.from({ length: size }, (_, i) => Math.sin(i * 12.9898) * 1.5);
    const peaked = flat.map((v, i) => (i % 500 === 7 ? 9 + (i % 3) : v * 2));
    const extreme = flat.map((v) => v * 2000);
    // Near-normal with a spread of 2.5 (a sum of four sines): too peaked for uniform proposals.
    const wide = Array.from(
      { length: 24_000 },
      (_, i) =>
        1.77 * (Math.sin(i * 12.9898) + Math.sin(i * 78.233) + Math.sin(i * 37.719) + Math.sin(i * 4.581)),
    );
    const sparse = maskOf(
      size,
      Array.from({ length: size }, (_, i) => i).filter((i) => i % 7 === 0 || i % 500 === 7),
    );

    /** The exact target: softmax(logits / T) over allowed ids, then min-p, top-k, top-p as documented. */
    function target(logits: number[], mask: Uint32Array | null, o: Record<string, number>): number[] {
      const t = o.temperature ?? 1;
      const ids = logits
        .map((_, i) => i)
        .filter((i) => !mask || ((mask[i >>> 5] as number) >>> (i & 31)) & 1);
      const top = Math.max(...ids.map((i) => (logits[i] as number) / t));
      let w = ids.map((i) => ({ id: i, w: Math.exp((logits[i] as number) / t - top) }));
      if (o.minP) w = w.filter((x) => x.w >= (o.minP as number));
      w.sort((a, b) => b.w - a.w || a.id - b.id);
      if (o.topK) {
        const threshold = (w[Math.min(o.topK, w.length) - 1] as { w: number }).w;
        w = w.filter((x, j) => j < (o.topK as number) || x.w === threshold);
      }
      if (o.topP) {
        const total = w.reduce((s, x) => s + x.w, 0);
        let sum = 0;
        const kept = [];
        for (const x of w) {
          kept.push(x);
          sum += x.w;
          if (sum >= (o.topP as number) * total) break;
        }
        w = kept;
      }
      const total = w.reduce((s, x) => s + x.w, 0);
      const p = new Array<number>(logits.length).fill(0);
      for (const x of w) p[x.id] = x.w / total;
      return p;
    }

    it.each([
      ['flat, full vocabulary', flat, null, {}],
      ['flat, sparse mask', flat, sparse, {}],
      ['peaked (exact head, bounded tail)', peaked, null, {}],
      ['peaked, sparse mask, T=0.7', peaked, sparse, { temperature: 0.7 }],
      ['min-p', peaked, null, { minP: 0.05 }],
      ['top-k', flat, null, { topK: 40 }],
      ['top-p', flat, null, { topP: 0.5 }],
      ['top-k and top-p, peaked', peaked, null, { topK: 5, topP: 0.9 }],
      ['logits beyond the bins (exact path)', extreme, sparse, { temperature: 1 }],
      // 24,000 ids: more blocks of 32 than the head may span, so its edge is raised by block maxima.
      ['wide normal logits (head edge from block maxima)', wide, null, {}],
    ] as Array<[string, number[], Uint32Array | null, Record<string, number>]>)(
      '%s',
      (_, logits, mask, o) => {
        const p = target(logits, mask, o);
        const sampler = new TokenSampler({ ...o, seed: 11 });
        const input = Float32Array.from(logits);
        const draws = 20_000;
        const seen = new Array<number>(logits.length).fill(0);
        for (let i = 0; i < draws; i++) {
          const id = sampler.sample(input, mask);
          seen[id] = (seen[id] as number) + 1;
        }
        // Tokens grouped by their exact probability (ten groups of equal size, least likely first): each
        // group's drawn share must match its exact mass within 5 standard errors. A wrong weight, cut or
        // bin moves mass between likely and unlikely tokens, which these groups see.
        const ranked = p
          .map((x, id) => ({ x, id }))
          .filter((e) => e.x > 0)
          .sort((a, b) => a.x - b.x);
        const groups = Math.min(10, ranked.length);
        for (let g = 0; g < groups; g++) {
          const members = ranked.slice(
            Math.floor((g * ranked.length) / groups),
            Math.floor(((g + 1) * ranked.length) / groups),
          );
          const mass = members.reduce((s, e) => s + e.x, 0);
          const share = members.reduce((s, e) => s + (seen[e.id] as number), 0) / draws;
          const tolerance = 5 * Math.sqrt((mass * (1 - mass)) / draws) + 1e-3;
          expect(Math.abs(share - mass), `group ${g}: drawn ${share}, exact ${mass}`).toBeLessThan(tolerance);
        }
        for (let id = 0; id < logits.length; id++) {
          if (p[id] === 0) expect(seen[id], `token ${id} is outside the target`).toBe(0);
        }
      },
    );
  });
});
