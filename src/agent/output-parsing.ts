import type { ValidationIssue } from '../contract/errors.js';

/** A model's text read as JSON: the value, or the issues that say why it is not a turn's JSON. */
export type ParsedOutput = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

// A reasoning block a model may emit before its answer, even when told not to (Qwen3 with thinking on).
const LEADING_THINK_BLOCK = /^<think>[\s\S]*?<\/think>/;
// End-of-turn tokens a backend that ignored the stop sequence may leave behind.
const TRAILING_END_TOKENS = /(?:\s*(?:<\|im_end\|>|<\|endoftext\|>))+$/;
// A Markdown code fence, optionally tagged `json`, whose body is the answer.
const CODE_FENCE = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)```/g;

/**
 * Turns a backend's text into a candidate turn object, or says why it cannot. Tolerated around the JSON
 * object: whitespace, a leading `<think>...</think>` block, trailing end-of-turn tokens, and a Markdown
 * code fence (then prose around the fence is ignored: the fence delimits the answer clearly). Not
 * tolerated: an object embedded in prose without a fence, or several fences; guessing which braces
 * were meant would turn a confused answer into a confident turn.
 */
export function parseModelOutput(rawText: string): ParsedOutput {
  let text = rawText.trim();

  if (text.startsWith('<think>')) {
    const block = LEADING_THINK_BLOCK.exec(text);
    if (!block) return failure('the output opens a <think> block and never closes it');
    text = text.slice(block[0].length).trim();
  }
  text = text.replace(TRAILING_END_TOKENS, '').trim();

  const fences = [...text.matchAll(CODE_FENCE)];
  if (fences.length > 1)
    return failure(`the output holds ${fences.length} code blocks; expected one JSON object`);
  const fenced = fences[0];
  if (fenced) text = (fenced[1] ?? '').trim();

  if (text === '') return failure('the output is empty; expected one JSON object');
  if (!text.startsWith('{') || !text.endsWith('}')) {
    return failure(`expected one JSON object and nothing else, got ${preview(text)}`);
  }

  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return failure(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return failure('expected a JSON object');
  }
  return { ok: true, value };
}

function failure(message: string): ParsedOutput {
  return { ok: false, issues: [{ path: '(root)', message }] };
}

function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
