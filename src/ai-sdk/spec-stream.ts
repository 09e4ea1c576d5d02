import type { LanguageModelV4StreamPart, SharedV4Warning } from '@ai-sdk/provider';
import type { BackendStreamPart, GenerateResult } from '../backends/language-backend.js';
import { BackendError } from '../contract/errors.js';
import { specFinishOf, specUsageOf, specWarningOf } from './spec-conversions.js';

// Type-only import of `@ai-sdk/provider` (an optional peer): `ReadableStream` is the platform's.

/** The one text part a haggle answer streams (a call asks for one choice). */
const TEXT_ID = '0';

/** What `specStreamOf` needs besides the backend's parts. */
export interface SpecStreamContext {
  /** Warnings known before the backend answers (settings the backend cannot take). */
  warnings: SharedV4Warning[];
  /** The model id for `response-metadata` when the backend's result names none. */
  modelId: string;
  /** The backend's name, for the error a diverging `reset` becomes. */
  backend: string;
}

/**
 * A backend's stream (`BackendStreamPart`s) as the AI SDK's stream parts, forwarded as the backend
 * writes them: `stream-start`, `response-metadata` (again at the end when the backend names a response id), then `text-start`, one `text-delta` per backend
 * delta of choice 0, `text-end` and `finish` (warnings the backend reports with its result ride on
 * `finish`'s `providerMetadata.haggle.warnings`, since the spec's warnings part comes first).
 *
 * A `reset` cannot take back text a consumer has already seen, so haggle's choice: text streamed
 * after a `reset` is compared with what was forwarded; as long as it repeats it, nothing is sent
 * again, and what goes beyond it is forwarded. If the new text differs from what was forwarded (or the
 * final text does), the stream ends with an `error` part carrying a retryable `BackendError` and a
 * `finish` with reason `error`: the consumer never sees two answers run together.
 *
 * The stream pulls one backend part at a time; cancelling it (the SDK does when its consumer stops
 * reading) returns the backend's iterator, which aborts the generation.
 */
export function specStreamOf(
  parts: AsyncIterable<BackendStreamPart>,
  context: SpecStreamContext,
): ReadableStream<LanguageModelV4StreamPart> {
  const iterator = parts[Symbol.asyncIterator]();
  /** Text the consumer has seen. */
  let forwarded = '';
  /** Text of choice 0 since the last reset. */
  let current = '';
  let diverged = false;
  let opened = false;
  let started = false;

  const start = (controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>) => {
    if (started) return;
    started = true;
    controller.enqueue({ type: 'stream-start', warnings: context.warnings });
    controller.enqueue({ type: 'response-metadata', modelId: context.modelId, timestamp: new Date() });
  };
  /** Forwards what `text` adds to `forwarded`, or notes that it departs from it. */
  const follow = (controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>, text: string) => {
    if (diverged) return;
    if (text.length <= forwarded.length) {
      if (!forwarded.startsWith(text)) diverged = true;
      return;
    }
    if (!text.startsWith(forwarded)) {
      diverged = true;
      return;
    }
    if (!opened) {
      opened = true;
      controller.enqueue({ type: 'text-start', id: TEXT_ID });
    }
    controller.enqueue({ type: 'text-delta', id: TEXT_ID, delta: text.slice(forwarded.length) });
    forwarded = text;
  };
  const finish = (
    controller: ReadableStreamDefaultController<LanguageModelV4StreamPart>,
    result: GenerateResult,
  ) => {
    const choice = result.choices[0];
    follow(controller, choice?.text ?? '');
    if (opened) controller.enqueue({ type: 'text-end', id: TEXT_ID });
    const usage = specUsageOf(result.usage);
    const later = result.warnings.map(specWarningOf);
    const providerMetadata = later.length > 0 ? { haggle: { warnings: later as never } } : undefined;
    if (diverged) {
      controller.enqueue({
        type: 'error',
        error: new BackendError({
          backend: context.backend,
          retryable: true,
          message:
            'the backend started its answer again (a retry after the stream had begun) and the new text ' +
            'differs from the text already streamed, so the streamed text is void: ask again ' +
            '(generateText and generateObject, which do not stream, are not affected)',
        }),
      });
      controller.enqueue({ type: 'finish', usage, finishReason: { unified: 'error', raw: 'reset' } });
    } else
      controller.enqueue({
        type: 'finish',
        usage,
        finishReason: specFinishOf(choice?.finishReason ?? 'other'),
        ...(providerMetadata ? { providerMetadata } : {}),
      });
    controller.close();
  };

  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      start(controller);
      // Pull until something reaches the consumer or the stream ends, so each pull makes progress.
      for (;;) {
        const next = await iterator.next();
        if (next.done) {
          controller.error(
            new BackendError({
              backend: context.backend,
              message: 'the backend stream ended without a finish part',
            }),
          );
          return;
        }
        const part = next.value;
        if (part.type === 'reset') {
          current = '';
          continue;
        }
        if (part.type === 'finish') {
          const { response } = part.result;
          if (response?.id !== undefined || response?.modelId !== undefined)
            controller.enqueue({
              type: 'response-metadata',
              ...(response.id !== undefined ? { id: response.id } : {}),
              ...(response.modelId !== undefined ? { modelId: response.modelId } : {}),
            });
          finish(controller, part.result);
          return;
        }
        if (part.index !== 0) continue;
        const before = forwarded.length;
        current += part.delta;
        follow(controller, current);
        if (forwarded.length > before) return;
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
