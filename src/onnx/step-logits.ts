import * as ort from 'onnxruntime-node';
import { LogitsArena } from '../decoding/mask/block-max-kernel.js';

/**
 * Where onnxruntime writes a decoding step's logits: a buffer the decoder keeps across steps (a fresh
 * one per step, held while eight rows sample, got promoted and collected by full garbage collections).
 * Float32 logits live in the sampler kernel's memory, where its pass over the vocabulary reads them
 * without a copy; float16 logits (an fp16 export) in a plain array, converted per row.
 */
export class StepLogits {
  /** The logits' element type and last dimension, known after the first step. */
  private type: 'float32' | 'float16' | undefined;
  private vocab = 0;
  private plain: Float32Array | Uint16Array | null = null;
  private arena: LogitsArena | null = null;

  /** Learns the type and width from a step's returned logits. */
  learn(returned: ort.Tensor): void {
    this.type = returned.type as 'float32' | 'float16';
    this.vocab = returned.dims[2] as number;
  }

  /**
   * A tensor over the kept buffer for a step of `batch` rows, or null before the first step (the type
   * is not known yet) and for prefill steps of exports that return logits for every position (tokens
   * x vocabulary floats: left to onnxruntime rather than kept). Valid until the next call.
   */
  tensorFor(batch: number, positions: number): ort.Tensor | null {
    if (this.type === undefined || positions !== 1) return null;
    const size = batch * this.vocab;
    const dims = [batch, 1, this.vocab];
    if (this.type === 'float32') {
      this.arena ??= LogitsArena.create();
      if (this.arena) return new ort.Tensor('float32', this.arena.view(size), dims);
    }
    const float16 = this.type === 'float16';
    if (!this.plain || this.plain.length < size || this.plain instanceof Uint16Array !== float16) {
      this.plain = float16 ? new Uint16Array(size) : new Float32Array(size);
    }
    return new ort.Tensor(this.type, this.plain.subarray(0, size), dims);
  }

  /** Gives the buffers back (the decoder is idle). */
  release(): void {
    this.plain = null;
    this.arena = null;
  }
}
