import { randomUUID } from 'node:crypto';
import type { FinishReason } from '../backends/language-backend.js';
import type { ToolCallPlan } from './tool-call-plan.js';

/** One function call as OpenAI's `message.tool_calls[i]`. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A fresh call id in OpenAI's shape (`call_` and 24 characters). */
export function toolCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/**
 * The call in a choice's decoded text: for a named tool the text is its arguments; for `"required"`
 * over several tools it is `{"name", "arguments"}`, read back into a call (arguments written compactly
 * as JSON). Undefined when the text is not a whole call, which happens only when the answer was cut off
 * (`max_tokens`): the caller then returns the text as content with finish reason `length`.
 */
export function toolCallOf(text: string, plan: ToolCallPlan, id: string): ToolCall | undefined {
  if (plan.kind === 'one') return { id, type: 'function', function: { name: plan.name, arguments: text } };
  try {
    const parsed = JSON.parse(text) as { name?: unknown; arguments?: unknown };
    if (typeof parsed.name !== 'string' || !plan.names.includes(parsed.name)) return undefined;
    return {
      id,
      type: 'function',
      function: { name: parsed.name, arguments: JSON.stringify(parsed.arguments ?? {}) },
    };
  } catch {
    return undefined;
  }
}

/**
 * OpenAI's finish reason for a choice that made a call: `tool_calls` when the arguments are complete,
 * `length` when the token budget cut them off (the arguments are then the text decoded so far).
 */
export function toolCallFinishReason(reason: FinishReason): 'tool_calls' | 'length' | 'content_filter' {
  if (reason === 'length') return 'length';
  if (reason === 'content-filter') return 'content_filter';
  return 'tool_calls';
}
