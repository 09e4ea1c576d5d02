// A reasoning block a Qwen3 server may emit before the answer when thinking was not turned off.
const LEADING_THINK = /^\s*<think>[\s\S]*?<\/think>\s*/;
// One Markdown fence around the whole answer, optionally tagged json.
const WHOLE_FENCE = /^```[ \t]*(?:json|JSON)?[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/;
// End-of-turn tokens a server that ignored the stop sequence may leave behind.
const TRAILING_END_TOKENS = /(?:\s*(?:<\|im_end\|>|<\|endoftext\|>))+$/;

/**
 * Removes what servers wrap around a JSON answer: a leading `<think>...</think>` block, a Markdown
 * fence around the whole answer, trailing end-of-turn tokens. Only when what is left looks like one
 * JSON object is the cleaned text returned; anything else comes back untouched, so an invalid output
 * reaches the agent's error exactly as the server sent it.
 */
export function cleanOutputText(text: string): string {
  let out = text.replace(LEADING_THINK, '').replace(TRAILING_END_TOKENS, '').trim();
  const fenced = WHOLE_FENCE.exec(out);
  if (fenced) out = (fenced[1] ?? '').trim();
  return out.startsWith('{') && out.endsWith('}') ? out : text;
}
