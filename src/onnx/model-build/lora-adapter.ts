import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from './checkpoint-folder.js';
import { quoteValue, UnsupportedAdapterError } from './errors.js';
import type { MergeProduct } from './onnxruntime-merge.js';
import type { Qwen3Shape } from './qwen3-shape.js';
import { SafetensorsFile } from './safetensors-file.js';
import { PROJECTION_NAMES, type ProjectionKind } from './weight-source.js';

const CONFIG_FILE = 'adapter_config.json';
const WEIGHTS_FILE = 'adapter_model.safetensors';

/** Module names of Qwen3's projections as PEFT's `target_modules` names them. */
const MODULE_KIND: Record<string, ProjectionKind> = {
  q_proj: 'q',
  k_proj: 'k',
  v_proj: 'v',
  o_proj: 'o',
  gate_proj: 'gate',
  up_proj: 'up',
  down_proj: 'down',
};

// PEFT saves `base_model.model.<module path>.lora_A.weight` (the adapter's own name, `default`, is
// dropped on save; some tools keep it, so it is accepted).
const KEY =
  /^base_model\.model\.model\.layers\.(\d+)\.(self_attn|mlp)\.(\w+)\.lora_([AB])(?:\.[\w-]+)?\.weight$/;

/** One targeted projection's LoRA pair, as PEFT stores them: A [r, in], B [out, r]. */
export interface LoraPair {
  a: string;
  b: string;
  rank: number;
}

/**
 * A PEFT LoRA adapter folder (`adapter_config.json`, `adapter_model.safetensors`), checked on open:
 * plain LoRA only (no DoRA, no bias terms, no saved whole modules, no per-module rank or alpha), every
 * tensor mapped to one of Qwen3's seven projections with the shapes the base model implies. Merging is
 * W' = W + scale * B A with scale = lora_alpha / r, or lora_alpha / sqrt(r) with `use_rslora` (PEFT's
 * definitions).
 */
export class LoraAdapter {
  readonly rank: number;
  readonly alpha: number;
  readonly rslora: boolean;
  readonly scale: number;
  readonly files: string[];
  /** Things PEFT itself would warn about and then do as haggle does (e.g. `fan_in_fan_out`). */
  readonly warnings: string[] = [];
  private readonly weights: SafetensorsFile;
  private readonly pairs = new Map<string, LoraPair>();

  constructor(
    readonly folder: string,
    shape: Qwen3Shape,
  ) {
    const configPath = join(folder, CONFIG_FILE);
    const config = readJsonFile(configPath);
    const fail = (problem: string): never => {
      throw new UnsupportedAdapterError({ file: configPath, problem });
    };
    if (config.peft_type !== 'LORA')
      fail(
        `peft_type is ${quoteValue(config.peft_type)}; haggle merges LoRA adapters only (peft_type "LORA")`,
      );
    if (config.use_dora === true)
      fail(
        'use_dora is true: DoRA rescales each merged column by a learned magnitude, which haggle does not merge',
      );
    if (config.bias !== undefined && config.bias !== 'none')
      fail(
        `bias is ${quoteValue(config.bias)}: Qwen3's projections have no bias to merge it into (only "none" is supported)`,
      );
    if (config.lora_bias === true) fail('lora_bias is true: LoRA bias terms are not supported');
    if (Array.isArray(config.modules_to_save) && config.modules_to_save.length > 0)
      fail(`modules_to_save is ${quoteValue(config.modules_to_save)}: whole replaced modules are not merged`);
    for (const key of ['rank_pattern', 'alpha_pattern'] as const) {
      const value = config[key];
      if (value && typeof value === 'object' && Object.keys(value).length > 0)
        fail(`${key} is set: a rank or alpha per module is not supported (one r and lora_alpha for all)`);
    }
    if (typeof config.r !== 'number' || !Number.isInteger(config.r) || config.r <= 0)
      fail(`r must be a positive integer, got ${quoteValue(config.r)}`);
    if (typeof config.lora_alpha !== 'number' || !Number.isFinite(config.lora_alpha))
      fail(`lora_alpha must be a number, got ${quoteValue(config.lora_alpha)}`);
    this.rank = config.r as number;
    this.alpha = config.lora_alpha as number;
    this.rslora = config.use_rslora === true;
    this.scale = this.rslora ? this.alpha / Math.sqrt(this.rank) : this.alpha / this.rank;
    const targets = config.target_modules;
    if (Array.isArray(targets)) {
      for (const target of targets) {
        const last = String(target).split('.').pop() ?? '';
        if (!Object.hasOwn(MODULE_KIND, last))
          fail(
            `target_modules names ${quoteValue(target)}, which is not one of Qwen3's projections (${Object.keys(MODULE_KIND).join(', ')})`,
          );
      }
    } else if (typeof targets !== 'string') {
      fail('target_modules must be a list of module names or a pattern');
    }
    if (config.fan_in_fan_out === true)
      this.warnings.push(
        'adapter_config.json has fan_in_fan_out: true, which is for Conv1D layers (GPT-2); Qwen3 uses nn.Linear, ' +
          'for which PEFT itself sets it to false with a warning and merges B A as usual, so haggle does the same',
      );

    const weightsPath = join(folder, WEIGHTS_FILE);
    if (!existsSync(weightsPath))
      throw new UnsupportedAdapterError({
        file: weightsPath,
        problem: existsSync(join(folder, 'adapter_model.bin'))
          ? 'missing; only adapter_model.bin (a pickle) is there, which haggle does not read: save the adapter with safe_serialization=True'
          : 'missing: a PEFT adapter folder has adapter_config.json and adapter_model.safetensors',
      });
    this.files = [configPath, weightsPath];
    this.weights = new SafetensorsFile(weightsPath);
    try {
      this.mapTensors(shape);
    } catch (error) {
      this.weights.close();
      throw error;
    }
  }

  /** The LoRA pair of a layer's projection, if the adapter targets it. */
  pair(layer: number, kind: ProjectionKind): LoraPair | undefined {
    return this.pairs.get(`${layer}.${kind}`);
  }

  /** Projections the adapter changes. */
  get targetCount(): number {
    return this.pairs.size;
  }

  /**
   * Adds scale * B A to `weight` ([out, in], float32, in place): float32 arithmetic over B pre-scaled,
   * row by row, so the inner loop runs over contiguous memory.
   */
  mergeInto(weight: Float32Array, layer: number, kind: ProjectionKind, out: number, inputs: number): void {
    const factors = this.factors(layer, kind);
    if (!factors) return;
    const { a, scaledB, rank: r } = factors;
    for (let o = 0; o < out; o++) {
      const row = weight.subarray(o * inputs, (o + 1) * inputs);
      for (let k = 0; k < r; k++) {
        const coefficient = scaledB[o * r + k] as number;
        if (coefficient === 0) continue;
        const aRow = a.subarray(k * inputs, (k + 1) * inputs);
        for (let i = 0; i < inputs; i++) row[i] = (row[i] as number) + coefficient * (aRow[i] as number);
      }
    }
  }

  /** The same merge with the product computed by `product` (onnxruntime); returns the merged weight. */
  async mergeWith(
    product: MergeProduct,
    weight: Float32Array,
    layer: number,
    kind: ProjectionKind,
    out: number,
    inputs: number,
  ): Promise<Float32Array> {
    const factors = this.factors(layer, kind);
    if (!factors) return weight;
    return product(weight, factors.scaledB, factors.a, out, inputs, factors.rank);
  }

  /** A [r, in] and scale * B [out, r] in float32, or nothing when the pair is absent or B is all zeros. */
  private factors(
    layer: number,
    kind: ProjectionKind,
  ): { a: Float32Array; scaledB: Float32Array; rank: number } | undefined {
    const pair = this.pair(layer, kind);
    if (!pair) return undefined;
    const b = this.weights.readFloat32(pair.b);
    // PEFT initialises B to zeros: such a pair changes nothing, and W + 0 stays bit for bit W.
    if (b.every((value) => value === 0)) return undefined;
    const scale = Math.fround(this.scale);
    for (let i = 0; i < b.length; i++) b[i] = Math.fround(scale * (b[i] as number));
    return { a: this.weights.readFloat32(pair.a), scaledB: b, rank: pair.rank };
  }

  close(): void {
    this.weights.close();
  }

  private mapTensors(shape: Qwen3Shape): void {
    const path = this.weights.path;
    const { hiddenSize: d, heads, kvHeads, headDim, intermediateSize: m, layers } = shape;
    const dims: Record<ProjectionKind, [number, number]> = {
      q: [heads * headDim, d],
      k: [kvHeads * headDim, d],
      v: [kvHeads * headDim, d],
      o: [d, heads * headDim],
      gate: [m, d],
      up: [m, d],
      down: [d, m],
    };
    const found = new Map<string, { a?: string; b?: string }>();
    for (const [name, entry] of this.weights.entries) {
      const fail = (problem: string): never => {
        throw new UnsupportedAdapterError({ file: path, problem, tensor: name });
      };
      if (name.includes('lora_magnitude_vector'))
        fail('a DoRA magnitude vector: DoRA adapters are not supported (merge them with PEFT)');
      const match = KEY.exec(name);
      if (!match)
        fail(
          "not a LoRA matrix of one of Qwen3's projections (base_model.model.model.layers.N.{self_attn,mlp}.<proj>.lora_{A,B}.weight): haggle cannot map it",
        );
      const [, layerText, block, module, side] = match as RegExpExecArray;
      const kind = MODULE_KIND[module as string];
      if (!kind || PROJECTION_NAMES[kind] !== `${block}.${module}`)
        fail(`${block}.${module} is not one of Qwen3's projections`);
      const layer = Number(layerText);
      if (layer >= layers) fail(`layer ${layer} does not exist: the base model has ${layers}`);
      const [out, inputs] = dims[kind as ProjectionKind];
      const want = side === 'A' ? [this.rank, inputs] : [out, this.rank];
      if (entry.shape.length !== 2 || entry.shape[0] !== want[0] || entry.shape[1] !== want[1])
        fail(
          `shape [${entry.shape.join(', ')}], but r = ${this.rank} and the base ${PROJECTION_NAMES[kind as ProjectionKind]} [${out}, ${inputs}] need [${want.join(', ')}]`,
        );
      const key = `${layer}.${kind}`;
      const slot = found.get(key) ?? {};
      if (side === 'A') slot.a = name;
      else slot.b = name;
      found.set(key, slot);
    }
    for (const [key, slot] of found) {
      if (!slot.a || !slot.b)
        throw new UnsupportedAdapterError({
          file: path,
          problem: `layer ${key.split('.')[0]}'s ${key.split('.')[1]} projection has lora_${slot.a ? 'A' : 'B'} but not lora_${slot.a ? 'B' : 'A'}`,
          tensor: slot.a ?? slot.b,
        });
      this.pairs.set(key, { a: slot.a, b: slot.b, rank: this.rank });
    }
    if (this.pairs.size === 0)
      throw new UnsupportedAdapterError({ file: path, problem: 'the adapter holds no LoRA matrices' });
  }
}
