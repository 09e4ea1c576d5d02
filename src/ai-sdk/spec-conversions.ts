import type {
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4Usage,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { BackendWarning, ChatMessage, FinishReason, Usage } from '../backends/language-backend.js';

// Type-only imports: `@ai-sdk/provider` is an optional peer, so nothing here loads it at run time.
// The shapes converted are those of the AI SDK language model specification v4.

/** haggle's chat messages as an AI SDK prompt (text parts only: a negotiation prompt is text). */
export function specPromptOf(messages: readonly ChatMessage[]): LanguageModelV4Prompt {
  return messages.map((message): LanguageModelV4Prompt[number] => {
    if (message.role === 'system') return { role: 'system', content: message.content };
    if (message.role === 'user') return { role: 'user', content: [{ type: 'text', text: message.content }] };
    return { role: 'assistant', content: [{ type: 'text', text: message.content }] };
  });
}

/** A provider's warning in haggle's shape (`BackendWarning`), keeping what it names. */
export function backendWarningOf(warning: SharedV4Warning): BackendWarning {
  switch (warning.type) {
    case 'unsupported':
      return {
        type: 'unsupported-setting',
        setting: warning.feature,
        ...(warning.details !== undefined ? { details: warning.details } : {}),
      };
    case 'compatibility':
      return {
        type: 'fallback',
        message: `${warning.feature} is used in a compatibility mode${warning.details ? `: ${warning.details}` : ''}`,
      };
    case 'deprecated':
      return { type: 'other', message: `${warning.setting} is deprecated: ${warning.message}` };
    default:
      return { type: 'other', message: (warning as { message?: string }).message ?? JSON.stringify(warning) };
  }
}

/** A haggle warning in the AI SDK's shape. */
export function specWarningOf(warning: BackendWarning): SharedV4Warning {
  switch (warning.type) {
    case 'unsupported-setting':
      return {
        type: 'unsupported',
        feature: warning.setting,
        ...(warning.details !== undefined ? { details: warning.details } : {}),
      };
    case 'fallback':
      return { type: 'compatibility', feature: 'haggle', details: warning.message };
    default:
      return { type: 'other', message: warning.message };
  }
}

/** The AI SDK's usage in haggle's shape; a count the provider does not report counts as 0. */
export function backendUsageOf(usage: LanguageModelV4Usage | undefined): Usage {
  const cached = usage?.inputTokens.cacheRead;
  return {
    promptTokens: usage?.inputTokens.total ?? 0,
    completionTokens: usage?.outputTokens.total ?? 0,
    ...(cached !== undefined ? { cachedPromptTokens: cached } : {}),
  };
}

/** haggle's usage in the AI SDK's shape. */
export function specUsageOf(usage: Usage): LanguageModelV4Usage {
  const cached = usage.cachedPromptTokens;
  return {
    inputTokens: {
      total: usage.promptTokens,
      noCache: cached !== undefined ? usage.promptTokens - cached : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: { total: usage.completionTokens, text: usage.completionTokens, reasoning: undefined },
  };
}

/** The AI SDK's unified finish reason in haggle's (tool calls and interruptions are `other`). */
export function backendFinishOf(reason: LanguageModelV4FinishReason | undefined): FinishReason {
  switch (reason?.unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'error':
      return reason.unified;
    default:
      return 'other';
  }
}

/** haggle's finish reason in the AI SDK's shape, the raw value being haggle's own. */
export function specFinishOf(reason: FinishReason): LanguageModelV4FinishReason {
  return { unified: reason, raw: reason };
}
