import { describe, expect, it } from 'vitest';
import { compileSchema, decodeConstrained, TokenSampler } from '../../src/decoding/index.js';
import {
  checkOutcome,
  generateSuite,
  MultiIssueTurnSchema,
  multiIssueTurnJsonSchema,
} from '../../src/evaluation/index.js';
import { Random } from '../../src/internal/random.js';
import { qwen3 } from '../decoding/support/qwen3.js';

describe('multi-issue offers under the constrained decoder', () => {
  it("every suite scenario's schema compiles, and random logits always yield a valid offer for it", async () => {
    const q = await qwen3();
    const suite = generateSuite({ seed: 8, scenarios: 12, seedsPerPair: 1 });
    const size = q.vocabulary.tokens.length;
    const random = new Random(3);
    const noise = Float32Array.from({ length: size * 2 }, () => 2 * random.normal());
    let decoded = 0;
    for (const [index, scenario] of suite.scenarios.entries()) {
      const grammar = compileSchema(
        multiIssueTurnJsonSchema(scenario.space, { canAccept: index % 2 === 0 }),
        q.vocabulary,
      );
      for (let k = 0; k < 4; k++) {
        const result = await decodeConstrained({
          grammar,
          sampler: new TokenSampler({ temperature: 1, seed: index * 10 + k }),
          maxTokens: 200,
          encode: q.encode,
          nextLogits: () => {
            const offset = random.int(0, size - 1);
            return noise.subarray(offset, offset + size);
          },
        });
        const turn = MultiIssueTurnSchema.parse(JSON.parse(result.text));
        if (turn.action === 'offer') checkOutcome(scenario.space, turn.offer ?? {});
        else expect(turn.offer).toBeNull();
        if (index % 2 === 1) expect(turn.action).not.toBe('accept');
        decoded++;
      }
    }
    expect(decoded).toBe(48);
  });
});
