/**
 * The worker thread that owns the onnxruntime session and runs the decode loop. onnxruntime-node's
 * `session.run` blocks the thread it runs on, so the loop lives here and the caller's thread stays
 * free (a Session's events keep flowing). Started by `OnnxBackend.load()`; see worker-entry.ts for
 * how this file is found from the sources and from dist.
 */
import { parentPort } from 'node:worker_threads';
import type * as ort from 'onnxruntime-node';
import { HaggleAbortError } from '../contract/errors.js';
import { GrammarCompiler } from '../decoding/compiler/grammar-compiler.js';
import { UnsupportedSchemaError } from '../decoding/errors.js';
import type { CompiledGrammar } from '../decoding/mask/compiled-grammar.js';
import { decoderVocabulary } from '../decoding/vocabulary/vocabulary.js';
import { loadTokenizer, type Tokenizer } from '../prompt/tokenizer.js';
import { BatchDecoder } from './batch-decoder.js';
import { decodersFor } from './generation-job.js';
import { dtypePreference, findModelFiles, readModelShape } from './model-folder.js';
import { useNativeGate } from './native-gate.js';
import type { OnnxModelShape } from './onnx-options.js';
import { Pace } from './pace.js';
import { encodePrompt } from './prompt-tokens.js';
import { createSession } from './session-factory.js';
import {
  type FromWorker,
  type GenerateMessage,
  type LoadMessage,
  serializeError,
  type ToWorker,
} from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('onnx-worker must run in a worker thread');

let session: ort.InferenceSession | undefined;
/**
 * Two lanes, each its own decode batch: prompts up to `LONG_PROMPT_TOKENS` share one, longer ones the
 * other. In one batch every row pays for the longest row's cache (a 30k-token prompt's columns,
 * padded into eight short rows, made each of their steps over ten times slower); in lanes a long
 * prompt is decoded beside the short ones, a turn each, and its prefill chunks are paced (`Pace`).
 */
let pace: Pace | undefined;
let lanes: { short: BatchDecoder; long: BatchDecoder } | undefined;
/**
 * haggle's choice: a negotiation prompt (context, history, instructions) is about 1,000 tokens; past
 * 2,048 a prompt is an outlier that would slow every step of the batch it joins.
 */
const LONG_PROMPT_TOKENS = 2048;
/**
 * haggle's choice: the long lane's milliseconds count three times in the fair share, so short requests
 * get about three quarters of the worker while a long prompt runs (it still gets a quarter: never starved).
 */
const LONG_PROMPT_WEIGHT = 3;
let tokenizer: Tokenizer | undefined;
let shape: OnnxModelShape | undefined;
/**
 * The decoder's compiler for the tokenizer, made once per worker: it owns the vocabulary's token trie
 * (seconds to build) and a bounded cache of compiled grammars (16: an agent asks with the same few
 * schemas again and again, and `haggle serve`'s clients may send thousands of distinct ones).
 */
let compiler: GrammarCompiler | undefined;
/** `OnnxLoadOptions.compileBudgetMs`, from the load message. */
let compileBudgetMs: number | undefined;

const send = (message: FromWorker) => port.postMessage(message);

async function load(message: LoadMessage): Promise<void> {
  compileBudgetMs = message.compileBudgetMs;
  if (message.nativeGate) useNativeGate(message.nativeGate);
  const files = findModelFiles(message.folder, message.dtype, dtypePreference(message.device));
  shape = readModelShape(message.folder, files.dtype);
  const created = await createSession(files.modelPath, message.device, {
    fallback: message.fallback,
    intraOpNumThreads: message.intraOpNumThreads,
  });
  session = created.session;
  tokenizer = await loadTokenizer(message.folder);
  const pad = tokenizer.tokenId('<|endoftext|>') ?? tokenizer.eosTokenIds[0] ?? 0;
  pace = new Pace();
  const lane = (paceWeight: number) =>
    new BatchDecoder(session as ort.InferenceSession, shape as OnnxModelShape, {
      maxBatchSize: message.maxBatchSize,
      prefillTokensPerRun: message.prefillTokensPerRun,
      prefixCacheBytes: message.prefixCacheBytes,
      padTokenId: pad,
      pace: pace as Pace,
      paceWeight,
      profile: message.profile,
    });
  lanes = { short: lane(1), long: lane(LONG_PROMPT_WEIGHT) };
  send({
    type: 'loaded',
    device: created.device,
    dtype: files.dtype,
    modelPath: files.modelPath,
    shape,
    warnings: created.warnings,
  });
}

function grammarFor(schema: unknown, tk: Tokenizer, abortFlag: Int32Array): CompiledGrammar {
  compiler ??= new GrammarCompiler(decoderVocabulary(tk), { grammarCacheSize: 16 });
  const grammars = compiler;
  return refuseTooDeep(() =>
    grammars.compile(schema, {
      ...(compileBudgetMs === undefined ? {} : { timeBudgetMs: compileBudgetMs }),
      signal: flagSignal(abortFlag),
    }),
  );
}

/**
 * The request's abort flag as the `AbortSignal` the compiler checks between its steps: compiling runs
 * synchronously on this thread, so no abort event could arrive, but shared memory can be read.
 */
function flagSignal(flag: Int32Array): AbortSignal {
  return {
    get aborted() {
      return Atomics.load(flag, 0) !== 0;
    },
    reason: 'aborted by the caller',
  } as AbortSignal;
}

/** A schema nested deeper than the stack allows is refused as unsupported, not crashed on. */
function refuseTooDeep<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RangeError && /call stack/i.test(error.message))
      throw new UnsupportedSchemaError({
        keyword: '(nesting)',
        schemaPath: '#',
        detail: 'the schema is nested too deeply to compile',
      });
    throw error;
  }
}

async function generate(message: GenerateMessage): Promise<void> {
  const { id, request } = message;
  if (!lanes || !tokenizer || !shape) throw new Error('the model is not loaded');
  const tk = tokenizer;
  const flag = new Int32Array(message.abortFlag);
  const grammar = request.schema === undefined ? undefined : grammarFor(request.schema, tk, flag);
  // Refused before any model work when it does not fit the context with room for one token.
  const context = shape.maxPositions;
  const promptIds = await encodePrompt(tk, request.promptText, context, pace);
  if (Atomics.load(new Int32Array(message.abortFlag), 0) !== 0)
    throw new HaggleAbortError('aborted by the caller');
  // What is left of the context is the most any sample can generate.
  const room = context === undefined ? request.maxTokens : context - promptIds.length;
  const capped = { ...request, maxTokens: Math.min(request.maxTokens, room) };
  const engine = promptIds.length > LONG_PROMPT_TOKENS ? lanes.long : lanes.short;
  const before = engine.steps;
  const deltas = message.stream ? new DeltaBatch(id) : undefined;
  engine.submit({
    promptIds,
    decoders: decodersFor(capped, tk, grammar, deltas?.add),
    abortFlag: new Int32Array(message.abortFlag),
    resolve: (outputs, info) => {
      // What the rows sampled last goes out before the result, in order.
      deltas?.flush();
      send({
        type: 'result',
        id,
        choices: outputs.map((o) => ({ text: o.text, tokens: o.tokens, finishReason: o.finishReason })),
        promptTokens: promptIds.length,
        cachedPromptTokens: info.cachedPromptTokens,
        steps: engine.steps - before,
      });
    },
    reject: (error) => send({ type: 'error', id, error: serializeError(error) }),
  });
}

/**
 * The deltas of one streamed request, sent as one message per turn of the event loop rather than one
 * per token per row: the batch's rows sample within one step, and a message per row would cost the
 * step a structured clone each.
 */
class DeltaBatch {
  private pending: { index: number; text: string }[] = [];
  private scheduled = false;

  constructor(private readonly id: number) {}

  readonly add = (index: number, text: string): void => {
    const last = this.pending.at(-1);
    if (last && last.index === index) last.text += text;
    else this.pending.push({ index, text });
    if (!this.scheduled) {
      this.scheduled = true;
      // After this step's rows have all sampled; the decode loop yields to the event loop each step.
      setImmediate(this.flush);
    }
  };

  readonly flush = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const deltas = this.pending;
    this.pending = [];
    send({ type: 'delta', id: this.id, deltas });
  };
}

async function dispose(): Promise<void> {
  lanes?.short.abortAll(new Error('the backend was disposed'));
  lanes?.long.abortAll(new Error('the backend was disposed'));
  await session?.release();
  session = undefined;
  lanes = undefined;
  send({ type: 'disposed' });
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'load':
      load(message).catch((error: unknown) =>
        send({ type: 'error', id: null, error: serializeError(error) }),
      );
      break;
    case 'generate':
      generate(message).catch((error: unknown) =>
        send({ type: 'error', id: message.id, error: serializeError(error) }),
      );
      break;
    case 'dispose':
      void dispose();
      break;
  }
});
