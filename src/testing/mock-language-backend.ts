import type {
  BackendStreamPart,
  BackendWarning,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../backends/language-backend.js';
import { BackendError, HaggleAbortError } from '../contract/errors.js';
import { untilAborted } from '../internal/until-aborted.js';

/** Where in the mock's life a response is being produced. */
export interface MockResponseContext {
  /** Index of the `doGenerate` call, from 0. */
  call: number;
  /** Index of the choice within that call, from 0. */
  choice: number;
}

/**
 * One queued response: the text of one choice, or a function that makes it from the call's options (to
 * echo the prompt, to throw a backend failure, to abort, to wait).
 */
export type MockResponse =
  | string
  | ((options: GenerateOptions, context: MockResponseContext) => string | Promise<string>);

/** Options of `MockLanguageBackend`: its queued responses, model id, warnings and latency. */
export interface MockLanguageBackendOptions {
  /** Responses, consumed in order, one per choice (a call with `n: 3` consumes three). */
  responses?: MockResponse[];
  /** Default `mock-model`. */
  modelId?: string;
  /** Warnings returned with every call, to test how an app reports them. */
  warnings?: BackendWarning[];
  /** Milliseconds each call waits before answering, to test timeouts and aborts. Default 0. */
  latencyMs?: number;
  /**
   * Characters per `text-delta` of `doStream`, which hands each queued text out in pieces of this
   * size (to test a streaming UI). Default 4.
   */
  streamChunkSize?: number;
}

/**
 * A `LanguageBackend` that answers from a queue instead of a model, for tests. Records every call's
 * options in `calls`. When the queue runs dry, a call rejects with a `BackendError` that says so, rather
 * than inventing text. Honours `abortSignal` before and during a call.
 */
export class MockLanguageBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'mock';
  readonly modelId: string;
  /** The options of every call, oldest first, exactly as received. */
  readonly calls: GenerateOptions[] = [];
  private readonly queue: MockResponse[];
  private readonly warnings: BackendWarning[];
  private readonly latencyMs: number;
  private readonly streamChunkSize: number;

  constructor(options: MockLanguageBackendOptions = {}) {
    this.modelId = options.modelId ?? 'mock-model';
    this.streamChunkSize = Math.max(1, Math.floor(options.streamChunkSize ?? 4));
    this.queue = [...(options.responses ?? [])];
    this.warnings = [...(options.warnings ?? [])];
    this.latencyMs = options.latencyMs ?? 0;
  }

  /** Adds responses to the end of the queue. */
  enqueue(...responses: MockResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** How many responses are still queued. */
  get remaining(): number {
    return this.queue.length;
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    const call = this.calls.length;
    this.calls.push(options);
    const signal = options.abortSignal;
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);

    const n = options.n ?? 1;
    if (this.queue.length < n) {
      throw new BackendError({
        message:
          `MockLanguageBackend ran out of queued responses: call ${call} asked for ${n} choice(s), ` +
          `${this.queue.length} queued. Add more with enqueue() or the responses option.`,
        backend: `${this.provider}:${this.modelId}`,
      });
    }
    const responses = this.queue.splice(0, n);

    const work = async (): Promise<GenerateResult> => {
      if (this.latencyMs > 0) await sleep(this.latencyMs, signal);
      const texts: string[] = [];
      for (const [choice, response] of responses.entries()) {
        // Once aborted, no further response function runs: their side effects belong to live calls.
        if (signal?.aborted) throw new HaggleAbortError(signal.reason);
        texts.push(typeof response === 'string' ? response : await response(options, { call, choice }));
      }
      return {
        choices: texts.map((text) => ({ text, finishReason: 'stop' as const })),
        // A rough stand-in (characters / 4), so apps that add up usage see numbers move.
        usage: {
          promptTokens: Math.ceil(promptLength(options) / 4),
          completionTokens: texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0),
        },
        warnings: [...this.warnings],
        response: { id: `mock-${call}`, modelId: this.modelId },
      };
    };
    const result = await untilAborted(work(), signal, (reason) => new HaggleAbortError(reason));
    // A response function may abort the signal itself, as a user would mid-call.
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    return result;
  }

  /**
   * The same answer as `doGenerate` (the same queue, recorded in `calls`), handed out in pieces of
   * `streamChunkSize` characters, then the `finish` part.
   */
  doStream(options: GenerateOptions): AsyncIterable<BackendStreamPart> {
    return streamPieces(() => this.doGenerate(options), this.streamChunkSize, options.abortSignal);
  }
}

/** @internal The mock's `doStream`: its answer, cut into deltas (kept out of the class body for brevity). */
async function* streamPieces(
  generate: () => Promise<GenerateResult>,
  size: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<BackendStreamPart> {
  const whole = await generate();
  for (const [index, choice] of whole.choices.entries()) {
    for (let at = 0; at < choice.text.length; at += size) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      yield { type: 'text-delta', index, delta: choice.text.slice(at, at + size) };
    }
  }
  yield { type: 'finish', result: whole };
}

function promptLength(options: GenerateOptions): number {
  return options.prompt.text?.length ?? options.prompt.messages.reduce((sum, m) => sum + m.content.length, 0);
}

/** Waits `ms`, or less when the signal fires first (the caller then sees the abort). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
