// The weights a fixture preset's ONNX files were built from (scripts/fixture-model/seeded-weights.ts,
// the same seed), written as a llama.cpp GGUF file of architecture `qwen3`, with the real Qwen3
// tokenizer's vocabulary and merges as its metadata: so node-llama-cpp runs the very model haggle runs.
//
// Names and keys follow llama.cpp's Qwen3 loader (learned from its gguf-py constants and
// convert_hf_to_gguf.py, not copied): `token_embd`, `blk.N.attn_{norm,q,k,v,output,q_norm,k_norm}`,
// `blk.N.ffn_{norm,gate,up,down}`, `output_norm`; no `output` tensor, so the head is the tied
// embedding, as in Qwen3-0.6B and -4B. Qwen3's q/k projections need no row permutation (llama.cpp's
// Qwen3 uses NeoX-style RoPE, the rotate-half layout transformers uses; only its `llama` arch permutes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TinyQwen3Config } from '../../scripts/fixture-model/config.js';
import type { NormKind, ProjectionKind, WeightSource } from '../../scripts/fixture-model/weights.js';
import { encodeGgml, type GgmlTypeName, ggmlBytes } from './ggml-blocks.js';
import { type GgufTensor, type GgufValue, writeGguf } from './gguf-file.js';

/** The GGUF encodings the bench writes; `general.file_type` of each (llama.cpp's `LLAMA_FTYPE_*`). */
export const GGUF_FILE_TYPE: Record<GgmlTypeName, number> = {
  F32: 0,
  F16: 1,
  Q4_0: 2,
  Q8_0: 7,
};

const PROJECTION_TENSOR: Record<ProjectionKind, string> = {
  q: 'attn_q',
  k: 'attn_k',
  v: 'attn_v',
  o: 'attn_output',
  gate: 'ffn_gate',
  up: 'ffn_up',
  down: 'ffn_down',
};
const NORM_TENSOR: Record<NormKind, string> = {
  inputNorm: 'attn_norm',
  postNorm: 'ffn_norm',
  qNorm: 'attn_q_norm',
  kNorm: 'attn_k_norm',
};

/** The tokenizer as GGUF metadata (llama.cpp's `gpt2` BPE with Qwen2's pre-tokenizer). */
export function qwen3TokenizerMetadata(
  tokenizerFolder: string,
  vocabSize: number,
): Record<string, GgufValue> {
  const json = JSON.parse(readFileSync(join(tokenizerFolder, 'tokenizer.json'), 'utf8')) as {
    model: { vocab: Record<string, number>; merges: (string | [string, string])[] };
    added_tokens: { id: number; content: string; special: boolean }[];
  };
  const config = JSON.parse(readFileSync(join(tokenizerFolder, 'tokenizer_config.json'), 'utf8')) as {
    eos_token: string;
    pad_token: string;
    chat_template?: string;
  };
  const tokens: string[] = new Array(vocabSize);
  // llama.cpp's token types: 1 normal, 3 control (special added tokens), 4 user-defined (other added
  // tokens), 5 unused (the embedding's padding rows past the tokenizer's last id).
  const types = new Int32Array(vocabSize).fill(5);
  for (const [text, id] of Object.entries(json.model.vocab))
    if (id < vocabSize) {
      tokens[id] = text;
      types[id] = 1;
    }
  const idOf = new Map<string, number>();
  for (const added of json.added_tokens)
    if (added.id < vocabSize) {
      tokens[added.id] = added.content;
      types[added.id] = added.special ? 3 : 4;
      idOf.set(added.content, added.id);
    }
  for (let id = 0; id < vocabSize; id++) if (tokens[id] === undefined) tokens[id] = `[PAD${id}]`;
  const merges = json.model.merges.map((m) => (typeof m === 'string' ? m : `${m[0]} ${m[1]}`));
  const id = (text: string) => {
    const found = idOf.get(text);
    if (found === undefined) throw new Error(`the tokenizer has no token ${text}`);
    return found;
  };
  return {
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'qwen2' },
    'tokenizer.ggml.tokens': { type: 'string[]', value: tokens },
    'tokenizer.ggml.token_type': { type: 'i32[]', value: types },
    'tokenizer.ggml.merges': { type: 'string[]', value: merges },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: id(config.eos_token) },
    'tokenizer.ggml.padding_token_id': { type: 'u32', value: id(config.pad_token) },
    // Qwen3 has no BOS token and adds none; llama.cpp still wants an id, and <|endoftext|> is the one
    // Qwen's own GGUF conversions give.
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: id('<|endoftext|>') },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    ...(config.chat_template
      ? { 'tokenizer.chat_template': { type: 'string', value: config.chat_template } as GgufValue }
      : {}),
  };
}

/** A projection as ggml stores it: [out, in] rows (the weight source gives [in, out]). */
function transposed(weight: Float32Array, k: number, n: number): Float32Array {
  const out = new Float32Array(k * n);
  for (let row = 0; row < k; row++)
    for (let col = 0; col < n; col++) out[col * k + row] = weight[row * n + col] as number;
  return out;
}

export interface Qwen3GgufOptions {
  config: TinyQwen3Config;
  /** The weights: `seededWeights(config, seed)` for a fixture preset. */
  weights: WeightSource;
  /** The encoding of the 2-D matrices (embedding/head and projections); norms stay F32, as llama.cpp keeps them. */
  type: GgmlTypeName;
  tokenizerFolder: string;
  name?: string;
}

/** Writes the GGUF file; returns the bytes of its tensor data. */
export function writeQwen3Gguf(path: string, options: Qwen3GgufOptions): number {
  const { config: c, weights, type } = options;
  const kn: Record<ProjectionKind, [number, number]> = {
    q: [c.hiddenSize, c.heads * c.headDim],
    k: [c.hiddenSize, c.kvHeads * c.headDim],
    v: [c.hiddenSize, c.kvHeads * c.headDim],
    o: [c.heads * c.headDim, c.hiddenSize],
    gate: [c.hiddenSize, c.intermediateSize],
    up: [c.hiddenSize, c.intermediateSize],
    down: [c.intermediateSize, c.hiddenSize],
  };
  const normSize: Record<NormKind, number> = {
    inputNorm: c.hiddenSize,
    postNorm: c.hiddenSize,
    qNorm: c.headDim,
    kNorm: c.headDim,
  };
  const f32 = (values: Float32Array) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const tensors: GgufTensor[] = [
    {
      name: 'token_embd.weight',
      dims: [c.hiddenSize, c.vocabSize],
      type,
      *data() {
        for (const rows of weights.embedChunks()) yield encodeGgml(type, rows);
      },
    },
  ];
  for (let layer = 0; layer < c.layers; layer++) {
    for (const kind of ['inputNorm', 'qNorm', 'kNorm', 'postNorm'] as const)
      tensors.push({
        name: `blk.${layer}.${NORM_TENSOR[kind]}.weight`,
        dims: [normSize[kind]],
        type: 'F32',
        data: () => [f32(weights.norm(layer, kind))],
      });
    for (const kind of ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const) {
      const [k, n] = kn[kind];
      tensors.push({
        name: `blk.${layer}.${PROJECTION_TENSOR[kind]}.weight`,
        dims: [k, n],
        type,
        data: () => [encodeGgml(type, transposed(weights.projection(layer, kind), k, n))],
      });
    }
  }
  tensors.push({
    name: 'output_norm.weight',
    dims: [c.hiddenSize],
    type: 'F32',
    data: () => [f32(weights.finalNorm())],
  });
  const arch = 'qwen3';
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: arch },
    'general.name': { type: 'string', value: options.name ?? 'haggle fixture (seeded random weights)' },
    'general.file_type': { type: 'u32', value: GGUF_FILE_TYPE[type] },
    'general.quantization_version': { type: 'u32', value: 2 },
    'general.alignment': { type: 'u32', value: 32 },
    [`${arch}.context_length`]: { type: 'u32', value: 40960 },
    [`${arch}.embedding_length`]: { type: 'u32', value: c.hiddenSize },
    [`${arch}.block_count`]: { type: 'u32', value: c.layers },
    [`${arch}.feed_forward_length`]: { type: 'u32', value: c.intermediateSize },
    [`${arch}.attention.head_count`]: { type: 'u32', value: c.heads },
    [`${arch}.attention.head_count_kv`]: { type: 'u32', value: c.kvHeads },
    [`${arch}.attention.key_length`]: { type: 'u32', value: c.headDim },
    [`${arch}.attention.value_length`]: { type: 'u32', value: c.headDim },
    [`${arch}.rope.freq_base`]: { type: 'f32', value: c.ropeTheta },
    [`${arch}.attention.layer_norm_rms_epsilon`]: { type: 'f32', value: c.rmsNormEps },
    ...qwen3TokenizerMetadata(options.tokenizerFolder, c.vocabSize),
  };
  return writeGguf(path, metadata, tensors);
}

/** Bytes of weights a decode step reads whole in a GGUF of this type: every matrix, the tied head included. */
export function ggufBytesPerToken(c: TinyQwen3Config, type: GgmlTypeName): number {
  const perLayer =
    c.hiddenSize * c.headDim * (2 * c.heads + 2 * c.kvHeads) + 3 * c.hiddenSize * c.intermediateSize;
  return ggmlBytes(type, c.layers * perLayer + c.vocabSize * c.hiddenSize);
}
