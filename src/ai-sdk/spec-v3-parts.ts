import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  SharedV3Warning,
  SharedV4FileData,
  SharedV4Warning,
} from '@ai-sdk/provider';

// The parts of the AI SDK language model specification that differ between v3 (`ai` 6,
// `@ai-sdk/provider` 3) and v4 (`ai` 7, `@ai-sdk/provider` 4), converted both ways. Everything else
// (finish reasons `{ unified, raw }`, usage `{ inputTokens: {...}, outputTokens: {...} }`, text,
// reasoning, tool-call and tool-input parts, `stream-start`, `response-metadata`, `finish`) has one
// shape in both, so it passes through. What differs:
// - file data: v3 holds the bytes, a base64 string or a URL itself; v4 wraps it as `{ type: 'data' }`,
//   `{ type: 'url' }`, or a provider `reference` or inline `text`, which v3 has no form for;
// - v4's unified finish reason adds `interrupted`, which is `other` in v3 (the raw reason is kept);
// - v4 adds content and stream parts v3 has no name for (`custom`, `reasoning-file`, `ping`), and a
//   `deprecated` warning.
// Type-only imports: `@ai-sdk/provider` is an optional peer (4.x declares the v3 types too).

type V3FileData = Uint8Array | string | URL;

/** v3 file data in v4's wrapper. */
export function v4FileDataOf(data: V3FileData): SharedV4FileData {
  return data instanceof URL ? { type: 'url', url: data } : { type: 'data', data };
}

/** v4 file data as v3 holds it; undefined for a provider reference or inline text, which v3 cannot hold. */
export function v3FileDataOf(data: SharedV4FileData): V3FileData | undefined {
  if (data.type === 'data') return data.data;
  if (data.type === 'url') return data.url;
  return undefined;
}

/**
 * A v3 prompt as v4's: file parts of messages get v4's data wrapper. Tool results keep their output as
 * it is: haggle's models take no tool results (they are refused by path), and fromLanguageModel sends
 * none, so neither direction here carries one.
 */
export function v4PromptOf(prompt: LanguageModelV3Prompt): LanguageModelV4Prompt {
  return prompt.map((message) => {
    if (message.role === 'system') return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'file' ? { ...part, data: v4FileDataOf(part.data) } : part,
      ),
    };
  }) as LanguageModelV4Prompt;
}

/** A v4 prompt as v3's (the reverse of `v4PromptOf`); a file v3 cannot hold fails by its path. */
export function v3PromptOf(prompt: LanguageModelV4Prompt): LanguageModelV3Prompt {
  return prompt.map((message, index) => {
    if (message.role === 'system') return message;
    return {
      ...message,
      content: message.content.map((part, partIndex) => {
        if (part.type !== 'file') return part;
        const data = v3FileDataOf(part.data);
        if (data === undefined)
          throw new TypeError(
            `prompt[${index}].content[${partIndex}]: a file by ${part.data.type} has no form in specification v3`,
          );
        return { ...part, data };
      }),
    };
  }) as LanguageModelV3Prompt;
}

/** v3 content as v4's: files get the data wrapper. */
export function v4ContentOf(content: LanguageModelV3Content): LanguageModelV4Content {
  return content.type === 'file' ? { ...content, data: { type: 'data', data: content.data } } : content;
}

/** v4 content as v3's, or undefined for a part v3 has no name for (or a file it cannot hold). */
export function v3ContentOf(content: LanguageModelV4Content): LanguageModelV3Content | undefined {
  if (content.type === 'custom' || content.type === 'reasoning-file') return undefined;
  if (content.type !== 'file') return content;
  const data = v3FileDataOf(content.data);
  return data === undefined || data instanceof URL ? undefined : { ...content, data };
}

/** A v3 stream part as v4's. */
export function v4StreamPartOf(part: LanguageModelV3StreamPart): LanguageModelV4StreamPart {
  return part.type === 'file' ? { ...part, data: { type: 'data', data: part.data } } : part;
}

/** A v4 stream part as v3's, or undefined for one v3 has no name for (`ping`, `custom`, `reasoning-file`). */
export function v3StreamPartOf(part: LanguageModelV4StreamPart): LanguageModelV3StreamPart | undefined {
  if (part.type === 'ping' || part.type === 'custom' || part.type === 'reasoning-file') return undefined;
  if (part.type === 'stream-start') return { ...part, warnings: part.warnings.map(v3WarningOf) };
  if (part.type === 'finish') return { ...part, finishReason: v3FinishReasonOf(part.finishReason) };
  // The other parts have one shape in both (v4's `text-end` may carry citations, which v3 ignores).
  if (part.type !== 'file') return part as LanguageModelV3StreamPart;
  const data = v3FileDataOf(part.data);
  return data === undefined || data instanceof URL ? undefined : { ...part, data };
}

/** A v4 finish reason as v3's: `interrupted` has no v3 name and becomes `other`, its raw value kept. */
export function v3FinishReasonOf(reason: LanguageModelV4FinishReason): LanguageModelV3FinishReason {
  return reason.unified === 'interrupted'
    ? { unified: 'other', raw: reason.raw ?? 'interrupted' }
    : { ...reason, unified: reason.unified };
}

/** A v4 warning as v3's: v3 has no `deprecated`, which becomes `other` with its words. */
export function v3WarningOf(warning: SharedV4Warning): SharedV3Warning {
  return warning.type === 'deprecated'
    ? { type: 'other', message: `${warning.setting} is deprecated: ${warning.message}` }
    : warning;
}

/** Maps every part of a stream, leaving out those `map` drops. */
export function mapStream<A, B>(
  stream: ReadableStream<A>,
  map: (part: A) => B | undefined,
): ReadableStream<B> {
  return stream.pipeThrough(
    new TransformStream<A, B>({
      transform(part, controller) {
        const mapped = map(part);
        if (mapped !== undefined) controller.enqueue(mapped);
      },
    }),
  );
}
