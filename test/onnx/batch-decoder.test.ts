import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { HaggleAbortError } from '../../src/contract/errors.js';
import { BatchDecoder } from '../../src/onnx/batch-decoder.js';
import type { DecodeJob, NextLogits, SequenceOutput } from '../../src/onnx/decode-sequence.js';
import type { OnnxModelShape } from '../../src/onnx/onnx-options.js';

const shape: OnnxModelShape = {
  modelType: 'fake',
  layers: 1,
  kvHeads: 1,
  headDim: 1,
  vocabSize: 4,
  maxPositions: undefined,
  kvDtype: 'float32',
};

/** A stand-in session that records every run's inputs and stores each fed token id in its KV cache. */
function fakeSession() {
  const runs: { ids: number[][]; mask: number[][]; positions: number[][]; past: number[][] }[] = [];
  let onRun: (() => void) | undefined;
  const session = {
    inputNames: [
      'input_ids',
      'attention_mask',
      'position_ids',
      'past_key_values.0.key',
      'past_key_values.0.value',
    ],
    outputNames: ['logits', 'present.0.key', 'present.0.value'],
    async run(feeds: Record<string, ort.Tensor>, fetches: Record<string, ort.Tensor | null> = {}) {
      const inputIds = feeds.input_ids as ort.Tensor;
      const [batch, width] = inputIds.dims as [number, number];
      const total = feeds.attention_mask?.dims[1] as number;
      const rows = <T>(data: ArrayLike<T>, n: number) =>
        Array.from({ length: batch }, (_, b) => Array.from({ length: n }, (_, i) => Number(data[b * n + i])));
      runs.push({
        ids: rows(feeds.input_ids?.data as BigInt64Array, width),
        mask: rows(feeds.attention_mask?.data as BigInt64Array, total),
        positions: rows(feeds.position_ids?.data as BigInt64Array, width),
        past: rows(feeds['past_key_values.0.key']?.data as Float32Array, total - width),
      });
      onRun?.();
      const past = feeds['past_key_values.0.key']?.data as Float32Array;
      const pastLength = total - width;
      const present = new Float32Array(batch * total);
      for (let b = 0; b < batch; b++) {
        present.set(past.subarray(b * pastLength, (b + 1) * pastLength), b * total);
        for (let j = 0; j < width; j++)
          present[b * total + pastLength + j] = Number((inputIds.data as BigInt64Array)[b * width + j]);
      }
      const logits = new Float32Array(batch * width * 4);
      const outputs: Record<string, ort.Tensor> = {
        logits: new ort.Tensor('float32', logits, [batch, width, 4]),
        'present.0.key': new ort.Tensor('float32', present, [batch, 1, total, 1]),
        'present.0.value': new ort.Tensor('float32', present.slice(), [batch, 1, total, 1]),
      };
      // As onnxruntime does: a preallocated output is written in place (its dims must match), and
      // the returned tensor is a copy.
      for (const [name, into] of Object.entries(fetches)) {
        if (!into) continue;
        const made = outputs[name] as ort.Tensor;
        if (into.dims.join() !== made.dims.join())
          throw new Error(`${name}: dims ${into.dims} != ${made.dims}`);
        (into.data as Float32Array).set(made.data as Float32Array);
      }
      return outputs;
    },
  };
  return {
    session: session as unknown as ort.InferenceSession,
    runs,
    setOnRun: (f: () => void) => (onRun = f),
  };
}

/** A decode that appends `script` tokens one step at a time (a rollback is written as -1). */
function scripted(script: number[]) {
  return async (nextLogits: NextLogits): Promise<SequenceOutput> => {
    const tokens: number[] = [];
    for (const token of script) {
      await nextLogits(tokens);
      if (token < 0) tokens.pop();
      else tokens.push(token);
    }
    await nextLogits(tokens);
    return { text: tokens.join(','), tokens: tokens.length, finishReason: 'stop' };
  };
}

function submit(
  decoder: BatchDecoder,
  job: Omit<DecodeJob, 'resolve' | 'reject'>,
): Promise<SequenceOutput[]> {
  return new Promise((resolve, reject) => decoder.submit({ ...job, resolve, reject }));
}

/** `submit`, also returning how many prompt tokens the decoder took from its prefix cache. */
function submitCounted(decoder: BatchDecoder, job: Omit<DecodeJob, 'resolve' | 'reject'>): Promise<number> {
  return new Promise((resolve, reject) =>
    decoder.submit({ ...job, resolve: (_, info) => resolve(info.cachedPromptTokens), reject }),
  );
}

describe('BatchDecoder', () => {
  it('prefills a prompt on its own, left-pads rows, counts positions per row, and masks rolled-back tokens', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      padTokenId: 0,
    });
    const [a, b] = await Promise.all([
      submit(decoder, { promptIds: [11, 12, 13], decoders: [scripted([1, 2])], abortFlag: null }),
      submit(decoder, { promptIds: [21], decoders: [scripted([3, -1, 3])], abortFlag: null }),
    ]);
    expect(a?.[0]?.text).toBe('1,2');
    expect(b?.[0]?.text).toBe('3');
    const [prefill, first, second, third] = fake.runs;
    // The longer prompt runs alone, less its last token; the one-token prompt has nothing to prefill.
    expect(prefill?.ids).toEqual([[11, 12]]);
    expect(prefill?.positions).toEqual([[0, 1]]);
    // Its cache is copied into row 1; row 2 sees none of it. Each row feeds its prompt's last token
    // at its own position.
    expect(first?.ids).toEqual([[13], [21]]);
    expect(first?.past).toEqual([
      [11, 12],
      [0, 0],
    ]);
    expect(first?.mask).toEqual([
      [1, 1, 1],
      [0, 0, 1],
    ]);
    expect(first?.positions).toEqual([[2], [0]]);
    expect(second?.positions).toEqual([[3], [1]]);
    // Row 2 rolled back the token it had fed: its logits after 21 are gone, so both columns are masked
    // out and 21 is fed again, at its own position 0, in a new column.
    expect(third?.ids[1]).toEqual([21]);
    expect(third?.mask[1]).toEqual([0, 0, 0, 0, 1]);
    expect(third?.positions[1]).toEqual([0]);
  });

  it('prefills prompts that arrive together in one left-padded run, within prefillTokensPerRun while a row decodes', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 9,
      padTokenId: 0,
    });
    const outputs = await Promise.all([
      // A one-token prompt has nothing to prefill: its row decodes from the first step, so a prefill
      // run stalls it and the budget holds.
      submit(decoder, { promptIds: [5], decoders: [scripted([9, 9])], abortFlag: null }),
      submit(decoder, { promptIds: [11, 12, 13], decoders: [scripted([1])], abortFlag: null }),
      submit(decoder, { promptIds: [21, 22, 23, 24], decoders: [scripted([2, 2])], abortFlag: null }),
      submit(decoder, { promptIds: [31, 32], decoders: [scripted([3])], abortFlag: null }),
      // A fourth would make the run 4 x 3 positions, over the budget of 9: it runs on its own next.
      submit(decoder, { promptIds: [41, 42, 43], decoders: [scripted([4])], abortFlag: null }),
    ]);
    expect(outputs.map((output) => output[0]?.text)).toEqual(['9,9', '1', '2,2', '3', '4']);
    const [together, first, alone, second] = fake.runs;
    // Each prompt less its last token, right-aligned, each row counting its own positions from 0.
    expect(together?.ids).toEqual([
      [0, 11, 12],
      [21, 22, 23],
      [0, 0, 31],
    ]);
    expect(together?.mask).toEqual([
      [0, 1, 1],
      [1, 1, 1],
      [0, 0, 1],
    ]);
    const visible = (run: typeof first, key: 'past' | 'positions') =>
      run?.[key].map((row, b) => row.filter((_, c) => run.mask[b]?.[c] === 1));
    expect(visible(together, 'positions')).toEqual([[0, 1], [0, 1, 2], [0]]);
    // The three rows then see exactly their own prompt's cache and feed its last token; the fourth
    // rides along (padding) until its prompt has had its own run.
    expect(first?.ids).toEqual([[5], [13], [24], [32], [0]]);
    expect(visible(first, 'past')?.slice(1, 4)).toEqual([[11, 12], [21, 22, 23], [31]]);
    expect(first?.positions.slice(0, 4)).toEqual([[0], [2], [3], [1]]);
    expect(alone?.ids).toEqual([[41, 42]]);
    expect(second?.ids[4]).toEqual([43]);
    expect(visible(second, 'past')?.[4]).toEqual([41, 42]);
    expect(second?.positions[4]).toEqual([2]);
  });

  it('prefills every waiting prompt in one run when no row decodes (nothing to stall), up to maxBatchSize budgets', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 3,
      prefillTokensPerRun: 3,
      padTokenId: 0,
    });
    const outputs = await Promise.all([
      submit(decoder, { promptIds: [11, 12, 13], decoders: [scripted([1])], abortFlag: null }),
      submit(decoder, { promptIds: [21, 22, 23, 24], decoders: [scripted([2])], abortFlag: null }),
      submit(decoder, { promptIds: [31, 32], decoders: [scripted([3])], abortFlag: null }),
      // Waits for room (maxBatchSize 3), then is prefilled on its own.
      submit(decoder, { promptIds: [41, 42, 43], decoders: [scripted([4])], abortFlag: null }),
    ]);
    expect(outputs.map((output) => output[0]?.text)).toEqual(['1', '2', '3', '4']);
    // 3 x 3 positions: over the budget of 3 a run, within 3 budgets; each prompt fits one budget.
    expect(fake.runs[0]?.ids).toEqual([
      [0, 11, 12],
      [21, 22, 23],
      [0, 0, 31],
    ]);
    expect(fake.runs[1]?.ids).toEqual([[13], [24], [32]]);
    expect(fake.runs.some((run) => JSON.stringify(run.ids) === JSON.stringify([[41, 42]]))).toBe(true);
  });

  it('prefills the prompt of n samples once and copies it into every row', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 4,
      padTokenId: 0,
    });
    const prompt = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    const outputs = await submit(decoder, {
      promptIds: prompt,
      decoders: [scripted([1, 1]), scripted([2, 2]), scripted([3])],
      abortFlag: null,
    });
    expect(outputs.map((output) => output.text)).toEqual(['1,1', '2,2', '3']);
    // Nine tokens in chunks of four, one row each, each chunk continuing the last one's cache.
    const prefills = fake.runs.slice(0, 3);
    expect(prefills.map((run) => run.ids)).toEqual([[[7, 8, 9, 10]], [[11, 12, 13, 14]], [[15]]]);
    expect(prefills.map((run) => run.positions[0]?.[0])).toEqual([0, 4, 8]);
    expect(prefills[2]?.past).toEqual([[7, 8, 9, 10, 11, 12, 13, 14]]);
    // Then every row feeds the last prompt token over its own copy of the prompt.
    const joined = fake.runs[3];
    expect(joined?.ids).toEqual([[16], [16], [16]]);
    expect(joined?.past).toEqual([prompt.slice(0, 9), prompt.slice(0, 9), prompt.slice(0, 9)]);
    expect(joined?.positions).toEqual([[9], [9], [9]]);
    expect(fake.runs.every((run) => run.ids.every((ids) => ids.length <= 4))).toBe(true);
  });

  it('rejects an aborted request before the next step, and the other requests continue', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      padTokenId: 0,
    });
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const long = Array.from({ length: 50 }, () => 1);
    let abortedAtRun = -1;
    fake.setOnRun(() => {
      if (fake.runs.length === 5) {
        Atomics.store(flag, 0, 1);
        abortedAtRun = fake.runs.length;
      }
    });
    // Runs counted when the decoder rejects (synchronously), not when the promise handler runs.
    const aborted = new Promise<{ error: unknown; runs: number }>((resolve) =>
      decoder.submit({
        promptIds: [5],
        decoders: [scripted(long)],
        abortFlag: flag,
        resolve: () => resolve({ error: undefined, runs: fake.runs.length }),
        reject: (error) => resolve({ error, runs: fake.runs.length }),
      }),
    );
    const other = submit(decoder, {
      promptIds: [6],
      decoders: [scripted([2, 2, 2, 2, 2, 2, 2, 2])],
      abortFlag: null,
    });
    const result = await aborted;
    expect(HaggleAbortError.isInstance(result.error)).toBe(true);
    // The flag was set during run 5; the request was rejected before any further run started.
    expect(result.runs).toBe(abortedAtRun);
    expect((await other)[0]?.text).toBe('2,2,2,2,2,2,2,2');
    // After the aborted row left, runs have one row.
    expect(fake.runs.at(-1)?.ids).toHaveLength(1);
  });

  it('takes a prompt that starts with a cached one from the prefix cache and runs only the rest', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      prefixCacheBytes: 1 << 20,
      padTokenId: 0,
    });
    const prompt = [7, 8, 9, 10, 11];
    const cold = await submitCounted(decoder, {
      promptIds: prompt,
      decoders: [scripted([1])],
      abortFlag: null,
    });
    expect(cold).toBe(0);
    expect(fake.runs[0]?.ids).toEqual([[7, 8, 9, 10]]);
    // The same prompt again: nothing to prefill; the row feeds the last token over the cached four.
    const before = fake.runs.length;
    const warm = await submitCounted(decoder, {
      promptIds: prompt,
      decoders: [scripted([2])],
      abortFlag: null,
    });
    expect(warm).toBe(4);
    const again = fake.runs[before];
    expect(again?.ids).toEqual([[11]]);
    expect(again?.past).toEqual([[7, 8, 9, 10]]);
    expect(again?.positions).toEqual([[4]]);
    // A longer conversation: only what follows the cached prompt runs, at its own positions.
    const next = fake.runs.length;
    const extended = await submitCounted(decoder, {
      promptIds: [...prompt, 1, 12, 13, 14],
      decoders: [scripted([3])],
      abortFlag: null,
    });
    expect(extended).toBe(4);
    const rest = fake.runs[next];
    expect(rest?.ids).toEqual([[11, 1, 12, 13]]);
    expect(rest?.positions).toEqual([[4, 5, 6, 7]]);
    expect(rest?.past).toEqual([[7, 8, 9, 10]]);
    expect(fake.runs[next + 1]?.past).toEqual([[7, 8, 9, 10, 11, 1, 12, 13]]);
  });

  it('rejects a request aborted while its prompt is prefilled, and decodes the others', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 4,
      padTokenId: 0,
    });
    const flag = new Int32Array(new SharedArrayBuffer(4));
    // A 40-token prompt in chunks of 4: abort after its second chunk.
    let prefillRuns = 0;
    fake.setOnRun(() => {
      const run = fake.runs.at(-1);
      if (run?.ids.length === 1 && (run.ids[0] ?? []).includes(9) && ++prefillRuns === 2)
        Atomics.store(flag, 0, 1);
    });
    const aborted = submit(decoder, {
      promptIds: Array(40).fill(9),
      decoders: [scripted([1, 1])],
      abortFlag: flag,
    }).catch((error: unknown) => error);
    const other = submit(decoder, { promptIds: [5, 6], decoders: [scripted([2, 2, 2])], abortFlag: null });
    expect(HaggleAbortError.isInstance(await aborted)).toBe(true);
    expect((await other)[0]?.text).toBe('2,2,2');
    // The prompt stopped where the abort found it: no third chunk ran.
    expect(fake.runs.filter((run) => (run.ids[0] ?? []).includes(9))).toHaveLength(2);
  });

  it('fails the requests of a run that throws, and serves the next request', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      padTokenId: 0,
    });
    fake.setOnRun(() => {
      if (fake.runs.length === 3) throw new Error('out of memory');
    });
    await expect(
      submit(decoder, { promptIds: [5, 6], decoders: [scripted([1, 1, 1, 1])], abortFlag: null }),
    ).rejects.toThrow('out of memory');
    const next = await submit(decoder, { promptIds: [5], decoders: [scripted([2])], abortFlag: null });
    expect(next[0]?.text).toBe('2');
  });

  it('feeds one position a step at batch > 1 once the graph refuses wider steps over a past (GroupQueryAttention)', async () => {
    // Each row feeds its prompt's last token, then three tokens at once (a jump-forward's forced text).
    const forced = async (nextLogits: NextLogits): Promise<SequenceOutput> => {
      await nextLogits([]);
      await nextLogits([7, 8, 9]);
      return { text: '7,8,9', tokens: 3, finishReason: 'stop' };
    };
    const widths = async (refuse: boolean) => {
      const fake = fakeSession();
      const decoder = new BatchDecoder(fake.session, shape, {
        maxBatchSize: 8,
        prefillTokensPerRun: 64,
        padTokenId: 0,
      });
      fake.setOnRun(() => {
        const run = fake.runs[fake.runs.length - 1];
        const width = run?.ids[0]?.length ?? 0;
        if (refuse && (run?.ids.length ?? 0) > 1 && width > 1 && (run?.past[0]?.length ?? 0) > 0)
          throw new Error(
            'Non-zero status code returned while running GroupQueryAttention node. Status Message: batch_size must be 1 when sequence_length > 1 and past context is given.',
          );
      });
      const outputs = await Promise.all([
        submit(decoder, { promptIds: [11, 12], decoders: [forced], abortFlag: null }),
        submit(decoder, { promptIds: [21, 22], decoders: [forced], abortFlag: null }),
      ]);
      expect(outputs.map((o) => o[0]?.text)).toEqual(['7,8,9', '7,8,9']);
      return { widths: fake.runs.map((run) => run.ids[0]?.length), multi: decoder.multiPositionBatches };
    };
    const plain = await widths(false);
    expect(plain.multi).toBe(true);
    expect(plain.widths).toContain(3);
    const refused = await widths(true);
    expect(refused.multi).toBe(false);
    // The refused step (width 3) ran again one position wide, and so did every later step.
    const at = refused.widths.indexOf(3);
    expect(at).toBeGreaterThan(0);
    expect(refused.widths.slice(at + 1).every((w) => w === 1)).toBe(true);
    expect(refused.widths.slice(at + 1)).toHaveLength(3);
  });

  it('compacts the cache once padding for a long prompt is dead, keeping what each row sees', async () => {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      padTokenId: 0,
    });
    // A long prompt joining mid-flight pads the decoding row with masked columns, step after step;
    // once that request has left, those columns are dead weight the cache should drop.
    let late: Promise<SequenceOutput[]> | undefined;
    fake.setOnRun(() => {
      if (fake.runs.length === 20) {
        late = submit(decoder, {
          promptIds: Array(200).fill(3),
          decoders: [scripted([2, 2])],
          abortFlag: null,
        });
      }
    });
    const early = await submit(decoder, {
      promptIds: [5],
      decoders: [scripted(Array(100).fill(1))],
      abortFlag: null,
    });
    const [lateOut] = (await late) ?? [];
    expect(early[0]?.tokens).toBe(100);
    expect(lateOut?.tokens).toBe(2);
    // After the long prompt's request has left, the early row runs alone: what it attends to (its cache
    // where its mask is 1) must be exactly what it was fed, in order, wherever compaction moved it.
    const alone = fake.runs
      .slice(20)
      .filter((run) => run.ids.length === 1 && !(run.ids[0] ?? []).includes(3));
    expect(alone.length).toBeGreaterThan(10);
    for (const run of alone) {
      const seen = (run.past[0] ?? []).filter((_, c) => run.mask[0]?.[c] === 1);
      expect(seen).toEqual([5, ...Array(seen.length - 1).fill(1)]);
      expect(run.positions[0]?.at(-1)).toBe(seen.length + (run.ids[0]?.length ?? 1) - 1);
    }
    // The long prompt ran on its own: no step of the decoding row was widened to carry it.
    const together = fake.runs.filter((run) => run.ids.length === 2);
    expect(together.length).toBeGreaterThan(0);
    expect(together.every((run) => run.ids.every((ids) => ids.length === 1))).toBe(true);
    // The 200 padded columns are gone: the cache is about as long as the row.
    const last = alone.at(-1);
    expect(last?.mask[0]?.length ?? 0).toBeLessThan(150);
  });
});

describe('BatchDecoder profile (OnnxLoadOptions.profile)', () => {
  async function printed(profile: boolean | undefined): Promise<string[]> {
    const fake = fakeSession();
    const decoder = new BatchDecoder(fake.session, shape, {
      maxBatchSize: 8,
      prefillTokensPerRun: 64,
      padTokenId: 0,
      ...(profile === undefined ? {} : { profile }),
    });
    const lines: string[] = [];
    const original = console.error;
    console.error = (...parts: unknown[]) => lines.push(parts.join(' '));
    try {
      await submit(decoder, { promptIds: [11, 12, 13], decoders: [scripted([1, 2])], abortFlag: null });
      // The summary is printed when the loop finds nothing left to do, just after the last result.
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      console.error = original;
    }
    return lines;
  }

  it('prints one JSON line of where the CPU went when the decoder goes idle', async () => {
    const lines = await printed(true);
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0] as string) as {
      decodeProfile: { sections: Record<string, { count: number }>; counts: Record<string, number> };
    };
    expect(summary.decodeProfile.sections['step.run']?.count).toBe(3);
    expect(summary.decodeProfile.counts['prefill.tokens']).toBe(2);
  });

  it('prints nothing by default', async () => {
    expect(await printed(undefined)).toEqual([]);
    expect(await printed(false)).toEqual([]);
  });
});
