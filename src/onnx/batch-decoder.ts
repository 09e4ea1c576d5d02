import * as ort from 'onnxruntime-node';
import { HaggleAbortError } from '../contract/errors.js';
import { DecodeProfile } from './decode-profile.js';
import { type AdmittedJob, type DecodeJob, DecodeSequence, type SequenceOutput } from './decode-sequence.js';
import { halfToFloat32 } from './float16.js';
import { bindKvCache, emptyFetches } from './kv-binding.js';
import { KvCache } from './kv-cache.js';
import { isMultiPositionRefusal } from './multi-position-refusal.js';
import { throughGate } from './native-gate.js';
import type { OnnxModelShape } from './onnx-options.js';
import { Pace } from './pace.js';
import { PrefixCache } from './prefix-cache.js';
import { PromptPrefill } from './prompt-prefill.js';
import { StepCost } from './step-cost.js';
import { StepLogits } from './step-logits.js';

export interface BatchDecoderOptions {
  maxBatchSize: number;
  prefillTokensPerRun: number;
  /** Bytes of recent prompts' KV caches kept for prompts that start with them (0: none). */
  prefixCacheBytes?: number;
  /** Fed in padding positions (masked out; any id works, the tokenizer's pad keeps logs readable). */
  padTokenId: number;
  /** Shared with the model's other decoders (lanes), to size prefill chunks; default: its own. */
  pace?: Pace;
  /** Each millisecond of this decoder's turns counts this many in `pace` (default 1). */
  paceWeight?: number;
  /** Print where this decoder's CPU goes to stderr whenever it goes idle (`OnnxLoadOptions.profile`). */
  profile?: boolean;
}

/** The smallest prefill chunk: below it, a chunk's fixed cost (copying the cache) dominates. */
const MIN_PREFILL_CHUNK = 32;

/** Drop leading cache columns nobody attends to once there are at least this many (a copy each time). */
const TRIM_AT = 64;

/** How long an idle decoder keeps its buffers for the next request. */
const RELEASE_AFTER_MS = 1000;

type Job = AdmittedJob;

/**
 * The decode loop: every sequence of every admitted request is a row of one batch, and each step is
 * one `session.run` over all rows, left-padded. Rows join when there is room (continuous batching)
 * and leave when done; a request's prompt is first run on its own (`PromptPrefill`), a chunk between
 * two decoding steps, and copied into its rows. Each row sees only its own cache columns through
 * `attention_mask`, which also hides tokens a jump-forward rolled back; `position_ids` count the
 * row's own visible tokens.
 */
export class BatchDecoder {
  private rows: DecodeSequence[] = [];
  /** Prompts being run on their own before their rows join the batch, the one whose turn it is first. */
  private prefills: PromptPrefill[] = [];
  private readonly queue: Job[] = [];
  private readonly cache: KvCache;
  private readonly logits = new StepLogits();
  /** How a step's time grows with its width: sizes steps where rows feed forced runs of different lengths. */
  private readonly stepCost = new StepCost();
  private pumping = false;
  private releaseTimer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | null = null;
  /** Steps run so far (for tests and benches). */
  steps = 0;
  private readonly prefixCache: PrefixCache | null;
  private readonly pace: Pace;
  /** Where the CPU goes (`options.profile` only; see decode-profile.ts). */
  private readonly profile: DecodeProfile | null;

  private timed<T>(name: string, run: () => T): T {
    return this.profile ? this.profile.time(name, run) : run();
  }

  constructor(
    private readonly session: ort.InferenceSession,
    private readonly shape: OnnxModelShape,
    private readonly options: BatchDecoderOptions,
  ) {
    this.cache = new KvCache(shape.layers, shape.kvHeads, shape.headDim, shape.kvDtype === 'float16');
    this.keepsLogits = session.inputNames.includes('num_logits_to_keep');
    const budget = options.prefixCacheBytes ?? 0;
    this.prefixCache = budget > 0 ? new PrefixCache(budget) : null;
    this.pace = options.pace ?? new Pace();
    this.profile = options.profile ? new DecodeProfile() : null;
  }

  /** The export has transformers.js's optional `num_logits_to_keep` input. */
  private readonly keepsLogits: boolean;
  /**
   * The export computes several positions a row over a past with more than one row. False once it
   * refused (`GroupQueryAttention`, see multi-position-refusal.ts): such steps then feed one position.
   */
  multiPositionBatches = true;

  submit(job: DecodeJob): void {
    this.queue.push({ ...job, controller: new AbortController(), cachedPromptTokens: 0 });
    // Start on the next turn of the event loop, so that requests arriving together share the first step.
    if (!this.pumping) setImmediate(() => void this.pump());
  }

  get idle(): boolean {
    return this.rows.length === 0 && this.queue.length === 0;
  }

  private readonly changed = () => {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  };

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.rows.length > 0 || this.queue.length > 0) {
        this.checkAborts();
        this.admit();
        // Every row either asks for logits or ends before a step: decodes run on microtasks.
        await this.timed('rows.sample', async () => {
          while (this.rows.some((row) => row.state === 'running')) {
            await new Promise<void>((resolve) => {
              this.wake = resolve;
            });
          }
        });
        this.timed('kv.leave', () => this.removeFinished());
        this.startPrefills();
        // Take a turn: wait while another lane (or a long prompt's tokenizing) has had less time.
        await this.pace.turn(this);
        const turnStarted = performance.now();
        // One prompt chunk (or one run of short prompts together) and one decoding step per turn: a
        // long prompt does not stall decoding rows.
        const group = this.prefillGroup();
        const prefill = this.prefills[0];
        if (group.length > 1) {
          await this.guarded(
            group.flatMap((member) => member.rows),
            () => this.timed('prefill', () => this.prefillTogether(group)),
          );
        } else if (prefill) {
          await this.guarded(prefill.rows, () => this.timed('prefill', () => this.prefillChunk(prefill)));
          // Prompts take turns, a chunk each: a short prompt that arrives while a 30k-token one is
          // prefilled waits a few chunks, not the whole long prompt.
          if (this.prefills[0] === prefill && this.prefills.length > 1)
            this.prefills.push(this.prefills.shift() as PromptPrefill);
        }
        const decoding = this.rows.filter((row) => row.state === 'waiting' && !row.prefilling);
        if (decoding.length > 0) await this.guarded(decoding, () => this.timed('step', () => this.step()));
        this.pace.charge(this, (performance.now() - turnStarted) * (this.options.paceWeight ?? 1));
        // Let the worker's message port deliver new requests, aborts and dispose between steps.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      this.pumping = false;
      this.pace.leave(this);
    }
    // One line per busy spell (then counting starts again).
    if (this.profile) {
      this.profile.count('stepCost.exponent', this.stepCost.exponent());
      console.error(this.profile.summary());
      this.profile.reset();
    }
    // Idle: give the KV arenas and the logits buffer back unless work comes again soon.
    clearTimeout(this.releaseTimer);
    this.releaseTimer = setTimeout(() => {
      if (!this.idle || this.pumping) return;
      this.cache.release();
      this.logits.release();
    }, RELEASE_AFTER_MS);
    this.releaseTimer.unref?.();
  }

  /**
   * Runs `run`; if it throws (out of memory, a broken export), the rows that waited on it fail, their
   * requests reject, and the decoder goes on with whatever comes next.
   */
  private async guarded(rows: readonly DecodeSequence[], run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      for (const row of rows) if (row.state === 'waiting') row.fail(error);
      this.prefills = this.prefills.filter((prefill) => !prefill.rows.some((row) => rows.includes(row)));
    }
  }

  /**
   * Gives each newly admitted request a prefill of what all its rows wait to feed (the prompt, and any
   * text the grammar forced before the first token), less the last token. A request with nothing
   * worth prefilling joins the batch at once.
   */
  private startPrefills(): void {
    const started = new Set(this.prefills.map((prefill) => prefill.rows[0]?.job));
    for (const job of new Set(this.rows.filter((row) => row.prefilling).map((row) => row.job))) {
      if (started.has(job)) continue;
      const rows = this.rows.filter((row) => row.job === job && row.prefilling && row.state === 'waiting');
      if (rows.length === 0) continue;
      const first = (rows[0] as DecodeSequence).pending;
      let common = first.length;
      for (const row of rows) {
        let n = 0;
        while (n < common && n < row.pending.length && row.pending[n] === first[n]) n++;
        common = n;
      }
      const tokens = first.slice(0, Math.max(0, common - 1));
      if (tokens.length === 0) {
        for (const row of rows) row.prefilling = false;
        continue;
      }
      const start = this.prefixCache?.lookup(tokens) ?? undefined;
      this.prefills.push(new PromptPrefill(rows, tokens, this.shape, start));
    }
  }

  /**
   * Prompts to prefill together in one run, when the one whose turn it is can go with others: fresh
   * prompts (nothing run, nothing from the prefix cache) that fit one run together, left-padded, within
   * `prefillTokensPerRun` positions (while no row decodes, `maxBatchSize` times that). One run over
   * eight 60-token prompts took 0.55 of the CPU of eight runs on the 0.6B-shaped model (a one-row run
   * reads every weight for few tokens), and rows no longer ride along idle in decoding steps while the
   * prompts before theirs take a turn each.
   */
  private prefillGroup(): PromptPrefill[] {
    // Prompts whose rows have all ended (aborted) are dropped here, so the group starts at the front.
    this.prefills = this.prefills.filter((prefill) =>
      prefill.rows.some((row) => row.state === 'waiting' && this.rows.includes(row)),
    );
    const perPrompt = this.options.prefillTokensPerRun;
    // With no row decoding, a longer run stalls nobody: every waiting prompt that fits the per-run
    // budget on its own goes in one run, up to maxBatchSize times the budget in all (haggle's choice:
    // bounds the run's memory). On the 0.6B-shaped model eight 59-token prompts in one run cost 5.9
    // CPU ms a token, against 6.6 four to a run and 9.1 two to a run (bench/onnx-prefill-batch.ts).
    const idle = !this.rows.some((row) => row.state === 'waiting' && !row.prefilling);
    const budget = idle ? perPrompt * this.options.maxBatchSize : perPrompt;
    const group: PromptPrefill[] = [];
    let widest = 0;
    for (const prefill of this.prefills) {
      if (!prefill.fresh || prefill.tokens.length > perPrompt) break;
      const width = Math.max(widest, prefill.tokens.length);
      if (width * (group.length + 1) > budget) break;
      group.push(prefill);
      widest = width;
    }
    return group;
  }

  /** Runs every prompt of `group` in one left-padded run, then copies each cache into its rows. */
  private async prefillTogether(group: PromptPrefill[]): Promise<void> {
    const width = Math.max(...group.map((prefill) => prefill.tokens.length));
    await this.timed('prefill.run', () =>
      PromptPrefill.runTogether(
        group,
        this.session,
        this.shape,
        width,
        this.options.padTokenId,
        this.keepsLogits,
      ),
    );
    this.profile?.count(
      'prefill.tokens',
      group.reduce((sum, prefill) => sum + prefill.tokens.length, 0),
    );
    this.profile?.count('prefill.groupedRuns', 1);
    for (const prefill of group) {
      const live = prefill.rows.filter((row) => row.state === 'waiting' && this.rows.includes(row));
      this.prefills.splice(this.prefills.indexOf(prefill), 1);
      if (live.length > 0) this.finishPrefill(prefill, live);
    }
  }

  /** Runs one chunk of the prefill whose turn it is; once it is done, copies its cache into its rows. */
  private async prefillChunk(prefill: PromptPrefill): Promise<void> {
    const live = prefill.rows.filter((row) => row.state === 'waiting' && this.rows.includes(row));
    if (live.length === 0) {
      this.prefills.shift();
      return;
    }
    if (!prefill.done) {
      const chunk = this.pace.chunkTokens(
        prefill.msPerToken,
        this.options.prefillTokensPerRun,
        Math.min(MIN_PREFILL_CHUNK, this.options.prefillTokensPerRun),
      );
      const before = prefill.fedTokens;
      await this.timed('prefill.run', () => prefill.runChunk(this.session, chunk, this.keepsLogits));
      this.profile?.count('prefill.tokens', prefill.fedTokens - before);
      if (!prefill.done) return;
    }
    this.prefills.shift();
    this.finishPrefill(prefill, live);
  }

  /** A prefill is done: its cache goes to the prefix cache (if any) and into each of its live rows. */
  private finishPrefill(prefill: PromptPrefill, live: DecodeSequence[]): void {
    const job = prefill.rows[0]?.job;
    if (job) job.cachedPromptTokens = prefill.reused;
    if (prefill.reused < prefill.tokens.length) this.prefixCache?.store(prefill.tokens, prefill.cache.arrays);
    const width = prefill.cache.length;
    this.timed('kv.join', () => this.placePrefill(prefill, live, width));
  }

  /** Copies a finished prefill's cache (`width` columns) into its live rows, widening the cache if needed. */
  private placePrefill(prefill: PromptPrefill, live: DecodeSequence[], width: number): void {
    if (width > this.cache.length) {
      const added = width - this.cache.length;
      this.cache.padLeft(added);
      for (const row of this.rows) {
        // Not `unshift(...zeros)`: a prompt of tens of thousands of tokens would overflow the call.
        const old = row.mask.splice(0);
        for (let c = 0; c < added; c++) row.mask.push(0);
        for (const seen of old) row.mask.push(seen);
        for (let i = 0; i < row.slots.length; i++) row.slots[i] = (row.slots[i] as number) + added;
      }
    }
    const length = this.cache.length;
    this.cache.placeRows(
      live.map((row) => this.rows.indexOf(row)),
      prefill.cache,
    );
    for (const row of live) {
      for (let c = length - width; c < length; c++) row.mask[c] = 1;
      for (let j = 0; j < width; j++) {
        row.fed.push(prefill.tokens[j] as number);
        row.slots.push(length - width + j);
      }
      row.pending = row.pending.slice(width);
      row.prefilling = false;
    }
  }

  private checkAborts(): void {
    for (const job of [...this.queue, ...new Set(this.rows.map((row) => row.job))]) {
      if (job.abortFlag && Atomics.load(job.abortFlag, 0) !== 0 && !job.controller.signal.aborted) {
        job.controller.abort(new HaggleAbortError('aborted by the caller'));
      }
    }
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i] as Job;
      if (job.controller.signal.aborted) {
        this.queue.splice(i, 1);
        job.reject(new HaggleAbortError(job.controller.signal.reason));
      }
    }
    for (const row of this.rows) {
      if (row.state === 'waiting' && row.job.controller.signal.aborted) {
        row.fail(new HaggleAbortError(row.job.controller.signal.reason));
      }
    }
  }

  /** Admits whole requests while they fit (a request larger than the batch runs alone). */
  private admit(): void {
    while (this.queue.length > 0) {
      const job = this.queue[0] as Job;
      const n = job.decoders.length;
      if (this.rows.length > 0 && this.rows.length + n > this.options.maxBatchSize) return;
      this.queue.shift();
      this.timed('kv.join', () => this.cache.addRows(n));
      const rows = job.decoders.map(() => new DecodeSequence(job, this.cache.length, this.changed));
      this.rows.push(...rows);
      rows.forEach((row, i) => {
        row.start(job.decoders[i] as DecodeJob['decoders'][number]);
      });
    }
  }

  /** Drops finished rows, settles requests whose rows are all done, trims dead cache columns. */
  private removeFinished(): void {
    const done = this.rows.filter((row) => row.state === 'done');
    if (done.length === 0) return;
    for (const job of new Set(done.map((row) => row.job))) {
      const rows = this.rows.filter((row) => row.job === job);
      const failed = rows.find((row) => row.state === 'done' && row.error !== undefined);
      // One failed sequence fails the request: stop its siblings at their next step.
      if (failed && !job.controller.signal.aborted) job.controller.abort(failed.error);
    }
    const keep: number[] = [];
    const kept: DecodeSequence[] = [];
    const finishedJobs = new Set<Job>();
    this.rows.forEach((row, i) => {
      const jobDone = this.rows.every((other) => other.job !== row.job || other.state === 'done');
      if (jobDone) finishedJobs.add(row.job);
      else {
        keep.push(i);
        kept.push(row);
      }
    });
    if (kept.length === this.rows.length) return;
    for (const job of finishedJobs) {
      const rows = this.rows.filter((row) => row.job === job);
      const failed = rows.find((row) => row.error !== undefined);
      if (failed) job.reject(job.controller.signal.reason ?? failed.error);
      else
        job.resolve(
          rows.map((row) => row.output as SequenceOutput),
          { cachedPromptTokens: job.cachedPromptTokens },
        );
    }
    this.cache.keepRows(keep);
    this.rows = kept;
    this.trim();
  }

  private trim(): void {
    if (this.rows.length === 0) {
      this.cache.clear();
      return;
    }
    let first = this.cache.length;
    for (const row of this.rows) {
      const i = row.mask.indexOf(1);
      first = Math.min(first, i < 0 ? this.cache.length : i);
    }
    if (first >= TRIM_AT) {
      this.cache.dropLeading(first);
      for (const row of this.rows) {
        row.mask.splice(0, first);
        for (let i = 0; i < row.slots.length; i++) row.slots[i] = (row.slots[i] as number) - first;
      }
    }
    // Rows that joined at different times keep each other's columns alive: when the cache is much
    // longer than the longest row, right-align every row's own columns into a cache that long.
    const longest = Math.max(...this.rows.map((row) => row.slots.length));
    if (this.cache.length < 2 * longest + TRIM_AT) return;
    this.cache.compact(
      this.rows.map((row) => row.slots),
      longest,
    );
    for (const row of this.rows) {
      const offset = longest - row.slots.length;
      row.mask.length = 0;
      for (let c = 0; c < longest; c++) row.mask.push(c >= offset ? 1 : 0);
      for (let i = 0; i < row.slots.length; i++) row.slots[i] = offset + i;
    }
  }

  /** One `session.run` over every row; rows with nothing to feed ride along as padding. */
  private async step(): Promise<void> {
    const rows = this.rows;
    const batch = rows.length;
    const past = this.cache.length;
    // Rows that decode feed what they wait on (a token, or a few after a jump-forward); prefilling
    // rows ride along as padding.
    const chunk = this.options.prefillTokensPerRun;
    const wanted = rows.map((row) =>
      row.state === 'waiting' && !row.prefilling ? row.pending.slice(0, chunk) : [],
    );
    // Every row of a step is as wide as its widest: one row feeding five forced tokens (jump-forward)
    // makes the whole batch compute five positions. Whether that pays depends on what a wider step
    // costs here (StepCost, timed on this decoder's own steps); longer takes go on next step.
    const lengths = wanted.map((take) => take.length);
    const narrow = !this.multiPositionBatches && batch > 1 && past > 0;
    const width = narrow ? Math.min(1, this.stepCost.width(lengths)) : this.stepCost.width(lengths);
    const takes = wanted.map((take) => take.slice(0, width));
    const total = past + width;
    const inputIds = new BigInt64Array(batch * width).fill(BigInt(this.options.padTokenId));
    const positionIds = new BigInt64Array(batch * width);
    const attention = new BigInt64Array(batch * total);
    rows.forEach((row, b) => {
      const take = takes[b] as number[];
      const offset = width - take.length;
      for (let c = 0; c < past; c++) if (row.mask[c] === 1) attention[b * total + c] = 1n;
      for (let j = 0; j < take.length; j++) {
        inputIds[b * width + offset + j] = BigInt(take[j] as number);
        positionIds[b * width + offset + j] = BigInt(row.fed.length + j);
        attention[b * total + past + offset + j] = 1n;
      }
    });
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', inputIds, [batch, width]),
      attention_mask: new ort.Tensor('int64', attention, [batch, total]),
      position_ids: new ort.Tensor('int64', positionIds, [batch, width]),
    };
    // Only the last position's logits are used: ask for just those when the export allows it.
    if (this.keepsLogits) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
    // onnxruntime writes the KV cache and (once its type is known) the logits into buffers this
    // decoder keeps. The tensors `run` returns are copies the binding makes anyway: dropped at once,
    // they die young, where keeping them (as the cache, or while eight rows sample) got them promoted
    // and every few dozen steps V8 ran a full collection for their memory.
    const fetches = emptyFetches(this.session);
    const finishCache = bindKvCache(this.cache, this.shape, total, feeds, fetches);
    const logitsInto = this.logits.tensorFor(batch, this.keepsLogits ? 1 : width);
    if (logitsInto) fetches.logits = logitsInto;
    const started = performance.now();
    if (this.profile) {
      const riding = rows.filter((row) => row.prefilling || row.state !== 'waiting').length;
      const fed = takes.reduce((sum, take) => sum + take.length, 0);
      this.profile.count('step.positions', batch * width);
      if (width > 1 && batch > 1) this.profile.count('step.widened', 1);
      this.profile.count('step.fedPositions', fed);
      this.profile.count('step.ridingRowPositions', riding * width);
      this.profile.count('step.rowsRidingAlong', riding);
      this.profile.count('step.pastColumns', batch * past);
      this.profile.count(
        'step.liveColumns',
        rows.reduce((sum, row) => sum + row.fed.length, 0),
      );
    }
    // A step the graph may refuse runs with onnxruntime's own log quiet: the refusal is expected once,
    // handled here, and would otherwise print a red native error line.
    const mayBeRefused = width > 1 && batch > 1 && past > 0 && this.multiPositionBatches;
    const runOptions: ort.InferenceSession.RunOptions = mayBeRefused ? { logSeverityLevel: 4 } : {};
    let outputs: ort.InferenceSession.OnnxValueMapType;
    try {
      outputs = await this.timed('step.run', () =>
        throughGate(() => this.session.run(feeds, fetches, runOptions)),
      );
    } catch (error) {
      // Nothing of the step is kept yet: learn the graph's limit and run it again, one position wide.
      if (mayBeRefused && isMultiPositionRefusal(error)) {
        this.multiPositionBatches = false;
        return this.step();
      }
      throw error;
    }
    const ms = performance.now() - started;
    this.pace.recordStep(this, ms);
    this.stepCost.record(batch * width, ms);
    this.steps++;
    try {
      finishCache(outputs);
      const returned = outputs.logits;
      if (!returned) throw new Error('the model returned no logits');
      this.logits.learn(returned);
      const logits = logitsInto ?? returned;
      const positions = returned.dims[1] as number;
      const vocab = returned.dims[2] as number;
      rows.forEach((row, b) => {
        const take = takes[b] as number[];
        const offset = width - take.length;
        for (let c = 0; c < width; c++) row.mask.push(c >= offset ? 1 : 0);
        for (let j = 0; j < take.length; j++) {
          row.fed.push(take[j] as number);
          row.slots.push(past + offset + j);
        }
        if (take.length === 0) return;
        row.pending = row.pending.slice(take.length);
        if (row.pending.length > 0) return;
        const start = (b * positions + positions - 1) * vocab;
        row.deliver(
          logits.type === 'float16'
            ? halfToFloat32(logits.data as Uint16Array, start, start + vocab)
            : // A view, not a copy: rows are done with it before the next step writes the buffer again
              // (a step runs only once every row has asked for its next logits or ended).
              (logits.data as Float32Array).subarray(start, start + vocab),
        );
      });
    } finally {
      // Release what onnxruntime allocated for this step (native memory on GPU providers). The KV data
      // just taken over stays referenced by the cache; on the CPU, dispose() only drops the wrapper.
      for (const tensor of Object.values(outputs)) tensor.dispose();
      for (const tensor of Object.values(feeds)) tensor.dispose();
    }
  }

  /** Fails every request (the backend is being disposed). */
  abortAll(reason: unknown): void {
    for (const job of [...this.queue, ...new Set(this.rows.map((row) => row.job))])
      job.controller.abort(reason);
    this.checkAborts();
  }
}
