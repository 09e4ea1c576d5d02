import type { HistoryEntry } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import { findControlStrings } from './control-strings.js';
import { UnsafePromptError } from './errors.js';
import type { PromptInput, RenderedPrompt } from './prompt-template.js';

/**
 * The check that holds without a tokenizer. Each untrusted field is sanitised on its own, so no field
 * holds a control string; but a template that prints two fields side by side (`"<"` then `"|im_end|>"`,
 * `"<thi"` then `"nk>"`), or a field right after its own `<`, joins pieces into one. To learn which
 * control strings are the template's own, the template is rendered a second time with every non-empty
 * untrusted field replaced by an inert placeholder (private-use characters and digits: no `<`, `|`, `>`
 * and no letters, so no join and no case filter can make a control string of them). The real prompt may
 * hold only control strings that the placeholder prompt holds, in the same order; an extra one came from
 * the fields and the prompt is refused.
 *
 * The comparison is per message content and for the prompt text. Its limit: a template whose own control
 * tokens depend on what a field says (beyond being empty or not) is compared with the wrong skeleton;
 * such a template may be refused, and a tokenizer (`renderPrompt(..., { tokenizer })`) is then the proof
 * to rely on.
 */
export function checkJoinedFields(args: {
  rendered: RenderedPrompt;
  input: PromptInput;
  render: (input: PromptInput) => RenderedPrompt;
  templateId: string;
  extraTokens?: readonly string[];
}): void {
  const { rendered, input, render, templateId, extraTokens = [] } = args;
  const find = (text: string) => findControlStrings(text, extraTokens);
  // A prompt without any control string cannot send one: no second render needed (a plain template).
  const textFound = find(rendered.text);
  const messagesFound = rendered.messages.map((message) => find(message.content));
  if (textFound.length === 0 && messagesFound.every((found) => found.length === 0)) return;

  const skeleton = render(placeholderInput(input));
  const sameShape = skeleton.messages.length === rendered.messages.length;
  for (let index = 0; index < rendered.messages.length; index++) {
    const found = messagesFound[index] as string[];
    if (found.length === 0) continue;
    const allowed = sameShape
      ? find((skeleton.messages[index] as RenderedPrompt['messages'][number]).content)
      : skeleton.messages.flatMap((message) => find(message.content));
    const extra = notInOrder(found, allowed);
    if (extra.length > 0) {
      throw new UnsafePromptError({ messageIndex: index, tokens: extra, templateId, joined: true });
    }
  }
  const extra = notInOrder(textFound, find(skeleton.text));
  if (extra.length > 0) {
    throw new UnsafePromptError({ messageIndex: -1, tokens: extra, templateId, joined: true });
  }
}

/**
 * The strings of `found` that are not matched, in order, by `allowed` (greedy subsequence matching): a
 * template that leaves one of its own control strings out for some input is fine, one more is not.
 */
function notInOrder(found: readonly string[], allowed: readonly string[]): string[] {
  const extra: string[] = [];
  let next = 0;
  for (const token of found) {
    let at = next;
    while (at < allowed.length && allowed[at] !== token) at++;
    if (at < allowed.length) next = at + 1;
    else extra.push(token);
  }
  return [...new Set(extra)];
}

/** The input with each non-empty untrusted field replaced by a placeholder of its own. */
function placeholderInput(input: PromptInput): PromptInput {
  let count = 0;
  const placeholder = (text: string) => (text === '' ? '' : `\uE000${count++}\uE001`);
  const { item } = input.context;
  const safeItem: ListingContext['item'] = { ...item, title: placeholder(item.title) };
  if (item.category !== undefined) safeItem.category = placeholder(item.category);
  if (item.condition !== undefined) safeItem.condition = placeholder(item.condition);
  if (item.description !== undefined) safeItem.description = placeholder(item.description);
  const context: ListingContext = { ...input.context, item: safeItem };
  if (input.context.id !== undefined) context.id = placeholder(input.context.id);
  const history = input.history.map(
    (entry): HistoryEntry =>
      entry.turn.message === ''
        ? entry
        : { ...entry, turn: { ...entry.turn, message: placeholder(entry.turn.message) } },
  );
  return { ...input, context, history };
}
