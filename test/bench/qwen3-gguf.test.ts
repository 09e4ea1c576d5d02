import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeGgml, encodeGgml, GGML_TYPE, ggmlBytes, quantizeQ4_0 } from '../../bench/peers/ggml-blocks.js';
import { GGUF_ALIGNMENT, readGgufHeader } from '../../bench/peers/gguf-file.js';
import { ggufBytesPerToken, writeQwen3Gguf } from '../../bench/peers/qwen3-gguf.js';
import { TINY_QWEN3 } from '../../scripts/fixture-model/config.js';
import { seededWeights } from '../../scripts/fixture-model/seeded-weights.js';
import { qwen3TokenizerFolder } from '../../scripts/fixture-model/write-model-folder.js';

// The GGUF writer of bench/local-peers.ts on the tiny Qwen3 shape: read back with an independent
// header reader, the tensor data compared with the weights it came from. No node-llama-cpp here.
const dir = mkdtempSync(join(tmpdir(), 'haggle-gguf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tensorBytes(path: string, offset: number, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  const out = new Uint8Array(length);
  readSync(fd, out, 0, length, offset);
  closeSync(fd);
  return out;
}

describe('Q4_0 and Q8_0 blocks', () => {
  const values = Float32Array.from({ length: 4096 }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 7)));

  it('Q4_0 round-trips within a step of each block, half a step on average, the largest magnitude exact', () => {
    const bytes = quantizeQ4_0(values);
    expect(bytes.length).toBe(ggmlBytes('Q4_0', values.length));
    const back = decodeGgml('Q4_0', bytes, values.length);
    for (let b = 0; b < values.length / 32; b++) {
      const block = values.subarray(b * 32, b * 32 + 32);
      const amax = Math.max(...Array.from(block, Math.abs));
      // The step is amax / 8; rounding to nearest errs by half a step, except on the side opposite the
      // largest value, where codes stop at +7 steps (not +8) and a value near amax errs by up to a step.
      let sum = 0;
      for (let i = 0; i < 32; i++) {
        const error = Math.abs((back[b * 32 + i] as number) - (block[i] as number));
        expect(error).toBeLessThanOrEqual((amax / 8) * 1.01);
        sum += error;
      }
      expect(sum / 32).toBeLessThanOrEqual(amax / 16);
      const at = block.findIndex((v) => Math.abs(v) === amax);
      expect(Math.abs((back[b * 32 + at] as number) - (block[at] as number))).toBeLessThan(amax * 1e-3);
    }
  });

  it('Q4_0 puts the first 16 values of a block in the low nibbles', () => {
    const block = Float32Array.from({ length: 32 }, (_, i) => (i < 16 ? -8 : 7));
    const bytes = quantizeQ4_0(block);
    // d = -8 / -8 = 1: -8 -> code 0 (low nibbles), 7 -> code 15 (high nibbles).
    expect(Array.from(bytes.subarray(2))).toEqual(new Array(16).fill(0xf0));
  });

  it('Q8_0 round-trips within half a step of max / 127', () => {
    const back = decodeGgml('Q8_0', encodeGgml('Q8_0', values), values.length);
    for (let i = 0; i < values.length; i++)
      expect(Math.abs((back[i] as number) - (values[i] as number))).toBeLessThan(7 / 127);
  });

  it('refuses a length that is not whole blocks', () => {
    expect(() => quantizeQ4_0(new Float32Array(33))).toThrow(/multiple of 32/);
  });
});

describe('writeQwen3Gguf on the tiny shape', () => {
  const weights = seededWeights(TINY_QWEN3, 1);
  const write = (type: 'F32' | 'Q4_0') => {
    const path = join(dir, `tiny-${type}.gguf`);
    writeQwen3Gguf(path, { config: TINY_QWEN3, weights, type, tokenizerFolder: qwen3TokenizerFolder() });
    return path;
  };
  const f32 = write('F32');
  const header = readGgufHeader(f32);

  it('writes GGUF v3 with llama.cpp qwen3 hyperparameters', () => {
    expect(header.version).toBe(3);
    const m = header.metadata;
    expect(m.get('general.architecture')).toBe('qwen3');
    expect(m.get('qwen3.block_count')).toBe(TINY_QWEN3.layers);
    expect(m.get('qwen3.embedding_length')).toBe(TINY_QWEN3.hiddenSize);
    expect(m.get('qwen3.attention.head_count')).toBe(TINY_QWEN3.heads);
    expect(m.get('qwen3.attention.head_count_kv')).toBe(TINY_QWEN3.kvHeads);
    expect(m.get('qwen3.attention.key_length')).toBe(TINY_QWEN3.headDim);
    expect(m.get('qwen3.rope.freq_base')).toBe(TINY_QWEN3.ropeTheta);
  });

  it('carries the real Qwen3 tokenizer: every id, the merges, control tokens and eos', () => {
    const tokenizer = JSON.parse(readFileSync(join(qwen3TokenizerFolder(), 'tokenizer.json'), 'utf8'));
    const tokens = header.metadata.get('tokenizer.ggml.tokens') as string[];
    const types = header.metadata.get('tokenizer.ggml.token_type') as number[];
    expect(tokens).toHaveLength(TINY_QWEN3.vocabSize);
    expect(tokens[tokenizer.model.vocab.Ġthe]).toBe('Ġthe');
    expect(tokens[151645]).toBe('<|im_end|>');
    expect(types[151645]).toBe(3);
    expect(types[100]).toBe(1);
    expect(tokens[151935]).toBe('[PAD151935]');
    expect(types[151935]).toBe(5);
    expect((header.metadata.get('tokenizer.ggml.merges') as string[]).length).toBe(
      tokenizer.model.merges.length,
    );
    expect(header.metadata.get('tokenizer.ggml.model')).toBe('gpt2');
    expect(header.metadata.get('tokenizer.ggml.pre')).toBe('qwen2');
    expect(header.metadata.get('tokenizer.ggml.eos_token_id')).toBe(151645);
  });

  it('lists every tensor once, aligned, innermost dimension first, the head tied', () => {
    const names = header.tensors.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(1 + TINY_QWEN3.layers * 11 + 1);
    expect(names).not.toContain('output.weight');
    const q = header.tensors.find((t) => t.name === 'blk.1.attn_q.weight');
    expect(q?.dims).toEqual([TINY_QWEN3.hiddenSize, TINY_QWEN3.heads * TINY_QWEN3.headDim]);
    expect(q?.type).toBe(GGML_TYPE.F32);
    expect(header.tensors.find((t) => t.name === 'blk.0.attn_k_norm.weight')?.dims).toEqual([
      TINY_QWEN3.headDim,
    ]);
    for (const t of header.tensors) expect(t.offset % GGUF_ALIGNMENT).toBe(0);
    const last = header.tensors.at(-1);
    expect(statSync(f32).size).toBe((last?.offset ?? 0) + Math.ceil((TINY_QWEN3.hiddenSize * 4) / 32) * 32);
  });

  it('stores each projection as [out, in] rows: the transpose of the weight source', () => {
    const k = header.tensors.find((t) => t.name === 'blk.1.attn_k.weight');
    const rows = TINY_QWEN3.kvHeads * TINY_QWEN3.headDim;
    const cols = TINY_QWEN3.hiddenSize;
    const stored = decodeGgml('F32', tensorBytes(f32, k?.offset ?? 0, rows * cols * 4), rows * cols);
    const source = weights.projection(1, 'k'); // [in, out]
    for (let out = 0; out < rows; out++)
      for (let i = 0; i < cols; i++) expect(stored[out * cols + i]).toBe(source[i * rows + out]);
  });

  it('Q4_0: the matrices quantized, norms kept in F32, the data the size the header claims', () => {
    const path = write('Q4_0');
    const q4 = readGgufHeader(path);
    expect(q4.metadata.get('general.file_type')).toBe(2);
    const embed = q4.tensors.find((t) => t.name === 'token_embd.weight');
    expect(embed?.type).toBe(GGML_TYPE.Q4_0);
    expect(q4.tensors.find((t) => t.name === 'output_norm.weight')?.type).toBe(GGML_TYPE.F32);
    const bytes = ggmlBytes('Q4_0', TINY_QWEN3.hiddenSize * TINY_QWEN3.vocabSize);
    const back = decodeGgml('Q4_0', tensorBytes(path, embed?.offset ?? 0, bytes), TINY_QWEN3.hiddenSize * 64);
    const [first] = weights.embedChunks();
    let worst = 0;
    for (let i = 0; i < back.length; i++)
      worst = Math.max(worst, Math.abs((back[i] as number) - (first?.[i] as number)));
    // Embedding std 3 / sqrt(32) = 0.53: a 4-bit step over a block's range stays well under 0.5.
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(0.5);
    expect(ggufBytesPerToken(TINY_QWEN3, 'Q4_0')).toBeLessThan(ggufBytesPerToken(TINY_QWEN3, 'F32') / 7);
  });
});
