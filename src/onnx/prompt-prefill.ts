import * as ort from 'onnxruntime-node';
import type { DecodeSequence } from './decode-sequence.js';
import { bindKvCache, emptyFetches } from './kv-binding.js';
import { KvCache } from './kv-cache.js';
import { throughGate } from './native-gate.js';
import type { OnnxModelShape } from './onnx-options.js';
import type { CachedPrefix } from './prefix-cache.js';

/**
 * A request's prompt, run through the model on its own (one row, its own cache) in chunks before the
 * request's rows join the batch. Fed through the batch instead, a prompt widened every step of every
 * decoding row to the chunk's width (a padded batch pays batch x width positions), and a request of
 * `n` samples fed the same prompt `n` times; here it is fed once and its cache copied into each row.
 *
 * The prompt's last token is left out: the rows feed it in their first batch step, so every row's
 * logits come from the batch like every other step's. A prompt that starts with a cached one (see
 * `PrefixCache`) starts from that cache and runs only the rest.
 */
export class PromptPrefill {
  readonly cache: KvCache;
  private fed = 0;
  /** Tokens taken from the prefix cache instead of run. */
  readonly reused: number;
  /** Milliseconds a token of the last chunk took (0 before the first): sizes the next chunk. */
  msPerToken = 0;

  constructor(
    readonly rows: readonly DecodeSequence[],
    /** The tokens to run: what every row waits to feed, less the last token. */
    readonly tokens: readonly number[],
    private readonly shape: OnnxModelShape,
    /** A cached prompt the tokens start with, and how many of its tokens they share: not run again. */
    start?: { entry: CachedPrefix; length: number },
  ) {
    this.cache = new KvCache(shape.layers, shape.kvHeads, shape.headDim, shape.kvDtype === 'float16');
    this.cache.addRows(1);
    if (start) {
      this.cache.loadPrefix(start.entry.arrays, start.entry.tokens.length, start.length);
      this.fed = start.length;
    }
    this.reused = this.fed;
  }

  /** Nothing run yet and nothing taken from the prefix cache: it can be run together with others. */
  get fresh(): boolean {
    return this.fed === 0;
  }

  /**
   * Runs the whole of every (fresh) prefill of `group` in one `session.run`, each a row left-padded to
   * `width`, then gives each its own one-row cache: its row's last `tokens.length` columns.
   */
  static async runTogether(
    group: readonly PromptPrefill[],
    session: ort.InferenceSession,
    shape: OnnxModelShape,
    width: number,
    padTokenId: number,
    keepsLogits: boolean,
  ): Promise<void> {
    const started = performance.now();
    const batch = group.length;
    const inputIds = new BigInt64Array(batch * width).fill(BigInt(padTokenId));
    const positionIds = new BigInt64Array(batch * width);
    const attention = new BigInt64Array(batch * width);
    group.forEach((prefill, b) => {
      const offset = width - prefill.tokens.length;
      prefill.tokens.forEach((token, j) => {
        inputIds[b * width + offset + j] = BigInt(token);
        positionIds[b * width + offset + j] = BigInt(j);
        attention[b * width + offset + j] = 1n;
      });
    });
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, [batch, width]),
      attention_mask: new ort.Tensor('int64', attention, [batch, width]),
      position_ids: new ort.Tensor('int64', positionIds, [batch, width]),
    };
    if (keepsLogits) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    const together = new KvCache(shape.layers, shape.kvHeads, shape.headDim, shape.kvDtype === 'float16');
    together.addRows(batch);
    const fetches = emptyFetches(session);
    const finishCache = bindKvCache(together, shape, width, feeds, fetches);
    const outputs = await throughGate(() => session.run(feeds, fetches));
    finishCache(outputs);
    for (const tensor of Object.values(outputs)) tensor.dispose();
    const msPerToken = (performance.now() - started) / (batch * width);
    group.forEach((prefill, b) => {
      prefill.cache.loadRowEnd(together, b, prefill.tokens.length);
      prefill.fed = prefill.tokens.length;
      prefill.msPerToken = msPerToken;
    });
  }

  /** Tokens in the cache so far (reused or run). */
  get fedTokens(): number {
    return this.fed;
  }

  get done(): boolean {
    return this.fed >= this.tokens.length;
  }

  /** Runs the next `chunk` tokens. */
  async runChunk(session: ort.InferenceSession, chunk: number, keepsLogits: boolean): Promise<void> {
    const started = performance.now();
    const take = this.tokens.slice(this.fed, this.fed + chunk);
    const width = take.length;
    const total = this.cache.length + width;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(take, BigInt), [1, width]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      position_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from(take, (_, j) => BigInt(this.fed + j)),
        [1, width],
      ),
    };
    // Nobody reads a prefill's logits: one position's worth where the export allows it.
    if (keepsLogits) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    const fetches = emptyFetches(session);
    const finishCache = bindKvCache(this.cache, this.shape, total, feeds, fetches);
    const outputs = await throughGate(() => session.run(feeds, fetches));
    finishCache(outputs);
    for (const tensor of Object.values(outputs)) tensor.dispose();
    this.fed += width;
    this.msPerToken = (performance.now() - started) / width;
  }
}
