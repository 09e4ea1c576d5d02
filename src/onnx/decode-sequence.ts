/** What one sequence's decode returns; the engine only relays it. */
export interface SequenceOutput {
  text: string;
  tokens: number;
  finishReason: 'stop' | 'length';
}

/** Asks the engine for the logits after `prompt + tokens`; `tokens` may be shorter than last time (rollback). */
export type NextLogits = (tokens: readonly number[]) => Promise<Float32Array>;

/** A request of `n` sequences that share a prompt and finish (or fail) together. */
export interface DecodeJob {
  promptIds: readonly number[];
  /** One decode function per sequence: drives the grammar and sampler, calls `nextLogits` per step. */
  decoders: ((nextLogits: NextLogits, signal: AbortSignal) => Promise<SequenceOutput>)[];
  /** Set to 1 (by the main thread, through shared memory) to abort; checked before every step. */
  abortFlag: Int32Array | null;
  resolve(outputs: SequenceOutput[], info: { cachedPromptTokens: number }): void;
  reject(error: unknown): void;
}

/** A request the decoder has taken: its abort controller, and what the prefix cache spared it. */
export type AdmittedJob = DecodeJob & { controller: AbortController; cachedPromptTokens: number };

/**
 * One row of the batch: the tokens its KV cache columns hold, which columns it may attend to, and
 * the tokens still to feed before its pending logits request can be answered.
 */
export class DecodeSequence {
  state: 'running' | 'waiting' | 'done' = 'running';
  /** Token ids in the cache, prompt first, and the cache column of each. */
  readonly fed: number[] = [];
  readonly slots: number[] = [];
  /** 1 where this row attends to a cache column (the row's part of `attention_mask`). */
  readonly mask: number[];
  pending: number[] = [];
  /** Not fed through the batch yet: its prompt is being (or about to be) prefilled on its own. */
  prefilling = true;
  output: SequenceOutput | undefined;
  error: unknown;
  private answer: { resolve: (logits: Float32Array) => void; reject: (error: unknown) => void } | null = null;

  constructor(
    readonly job: AdmittedJob,
    cacheLength: number,
    private readonly onChange: () => void,
  ) {
    this.mask = new Array<number>(cacheLength).fill(0);
  }

  /** Starts the decode; its first logits request comes synchronously or on a microtask. */
  start(decode: DecodeJob['decoders'][number]): void {
    decode((tokens) => this.ask(tokens), flagAware(this.job.controller.signal, this.job.abortFlag)).then(
      (output) => this.finish(output, undefined),
      (error: unknown) => this.finish(undefined, error ?? new Error('decode failed')),
    );
  }

  private finish(output: SequenceOutput | undefined, error: unknown): void {
    this.output = output;
    this.error = error;
    this.state = 'done';
    this.onChange();
  }

  /**
   * Works out what to feed: the longest prefix of `prompt + tokens` already in the cache stays; the
   * rest of the cache is masked out (a jump-forward rollback), and at least one token is fed so that
   * fresh logits come back.
   */
  private ask(tokens: readonly number[]): Promise<Float32Array> {
    // The target is `prompt + tokens`. What was fed is a prefix of an earlier target, and every target
    // starts with the same prompt, so only the generated part needs comparing: per step this costs the
    // tokens generated so far, not the prompt (often a thousand tokens of conversation).
    const prompt = this.job.promptIds;
    const length = prompt.length + tokens.length;
    const limit = Math.min(this.fed.length, length);
    let common = Math.min(limit, prompt.length);
    while (common < limit && this.fed[common] === tokens[common - prompt.length]) common++;
    if (common === length) common--;
    for (let i = common; i < this.slots.length; i++) this.mask[this.slots[i] as number] = 0;
    this.fed.length = common;
    this.slots.length = common;
    const pending: number[] = [];
    for (let i = common; i < prompt.length; i++) pending.push(prompt[i] as number);
    for (let i = Math.max(common, prompt.length); i < length; i++)
      pending.push(tokens[i - prompt.length] as number);
    this.pending = pending;
    return new Promise<Float32Array>((resolve, reject) => {
      this.answer = { resolve, reject };
      this.state = 'waiting';
      this.onChange();
    });
  }

  /** Hands the logits of the last fed token to the decode. */
  deliver(logits: Float32Array): void {
    const answer = this.answer;
    this.answer = null;
    this.state = 'running';
    answer?.resolve(logits);
  }

  /** Fails the pending request (abort): the decode's promise rejects and the row ends. */
  fail(error: unknown): void {
    const answer = this.answer;
    this.answer = null;
    this.state = 'running';
    answer?.reject(error);
  }
}

/**
 * The job's signal, aborted too as soon as the main thread sets the shared abort flag: the engine
 * aborts the controller only between steps, and a search inside one step (a mask over a large enum,
 * the completion near the token budget) is synchronous, so no event could reach it; shared memory can.
 */
export function flagAware(signal: AbortSignal, flag: Int32Array | null): AbortSignal {
  if (flag === null) return signal;
  return new Proxy(signal, {
    get(target, key) {
      if (key === 'aborted') return target.aborted || Atomics.load(flag, 0) !== 0;
      if (key === 'reason')
        return target.reason ?? (Atomics.load(flag, 0) !== 0 ? 'aborted by the caller' : undefined);
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
