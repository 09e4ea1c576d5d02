import { ACTIONS } from '../contract/action.js';
import type { ChatMessage } from '../contract/chat-message.js';
import type { HistoryEntry } from '../contract/history.js';
import type { ListingContext, ParticipantProfile } from '../contract/listing-context.js';
import type { LabelVocabulary, ModelProfile } from '../contract/model-profile.js';
import { fromHours } from '../contract/time-unit.js';
import { formatAmount, formatPrice } from './format.js';
import type { PromptInput } from './prompt-template.js';
import { sanitizeUntrustedText } from './sanitize.js';

/**
 * haggle's own wording (the training prompt's wording is not public): a system message that states the
 * task and the output format, and a user message that lays the listing, both profiles and the history
 * out compactly and deterministically. docs/prompting.md shows a rendered example.
 *
 * Every piece of untrusted text (title, category, condition, description, messages) is sanitised and
 * then written as a JSON string literal: one line each, quotes and newlines escaped, so where untrusted
 * text starts and ends is never in doubt, to a reader or to the model.
 */
export function defaultWording(input: PromptInput): ChatMessage[] {
  return [
    { role: 'system', content: systemText(input.profile) },
    { role: 'user', content: userText(input) },
  ];
}

function systemText(profile: ModelProfile): string {
  const actions = ACTIONS.map((action) => `"${action}"`).join(', ');
  return [
    'You take part in a negotiation on an online marketplace, in the style of eBay Best Offer.',
    "Given the listing, both participants' profiles and the conversation so far, give the next turn of the participant whose turn it is.",
    '',
    'Reply with one JSON object and nothing else. Its fields, in this order:',
    `- action: one of ${actions}.`,
    '- price: the price offered, a number, for "offer" and "offer_with_message"; null for every other action.',
    '- message_labels: the strategy labels of the message, only with a message ("offer_with_message", "message_only"); otherwise [].',
    '- message: the text of the message for "offer_with_message" and "message_only"; "" when there is none.',
    `- response_time: how long the participant took to respond, in ${profile.responseTimeUnit}.`,
    '',
    `Labels: ${describeLabels(profile.labels)}.`,
  ].join('\n');
}

function describeLabels(labels: LabelVocabulary): string {
  if (labels.kind === 'known') return `one of ${labels.values.join(', ')}`;
  if (labels.examples.length === 0) return 'snake_case identifiers';
  return `snake_case identifiers, e.g. ${labels.examples.join(', ')}`;
}

function userText(input: PromptInput): string {
  const { context, role } = input;
  return [
    ...listingLines(context),
    '',
    `Seller: ${describeParticipant(context.seller)}`,
    `Buyer: ${describeParticipant(context.buyer)}`,
    '',
    ...historyLines(input),
    '',
    `It is the ${role}'s turn. Reply with the ${role}'s next turn as one JSON object.`,
  ].join('\n');
}

/** Untrusted text as a sanitised JSON string literal. */
function quoted(text: string): string {
  return JSON.stringify(sanitizeUntrustedText(text));
}

function listingLines(context: ListingContext): string[] {
  const { item } = context;
  const lines = ['Listing:', `- title: ${quoted(item.title)}`];
  if (item.category !== undefined) lines.push(`- category: ${quoted(item.category)}`);
  if (item.condition !== undefined) lines.push(`- condition: ${quoted(item.condition)}`);
  lines.push(`- list price: ${formatPrice(context.listPrice, context.currency)}`);
  if (item.description !== undefined && item.description !== '') {
    lines.push(`- description: ${quoted(item.description)}`);
  }
  return lines;
}

function describeParticipant(profile: ParticipantProfile | undefined): string {
  // A fixed order, whatever order the caller's object had: the prompt must not depend on key order.
  const facts: string[] = [];
  if (profile?.feedbackScore !== undefined) facts.push(`feedback score ${profile.feedbackScore}`);
  if (profile?.feedbackPercent !== undefined)
    facts.push(`${formatAmount(profile.feedbackPercent)}% positive`);
  if (profile?.accountAgeDays !== undefined) facts.push(`account age ${profile.accountAgeDays} days`);
  if (profile?.pastDeals !== undefined) facts.push(`${profile.pastDeals} past deals`);
  return facts.length > 0 ? facts.join(', ') : 'no profile shown';
}

function historyLines({ history, historyIndices, historyLength, context, profile }: PromptInput): string[] {
  if (history.length === 0 && (historyLength ?? 0) === 0) {
    return ['Conversation so far: none; this is the first turn.'];
  }
  const unit = profile.responseTimeUnit;
  const lines = [`Conversation so far (time since the negotiation started, in ${unit}):`];
  // Turns keep their numbers in the full history, and every run of left-out turns gets one marker line,
  // so the model can tell a shortened conversation from a short one.
  let next = 0;
  history.forEach((entry, position) => {
    const index = historyIndices?.[position] ?? position;
    if (index > next) lines.push(omittedLine(next, index));
    lines.push(`${index + 1}. ${describeEntry(entry, context.currency, unit)}`);
    next = index + 1;
  });
  const total = historyLength ?? history.length;
  if (total > next) lines.push(omittedLine(next, total));
  return lines;
}

/** The marker for turns `from` to `to - 1` (0-based) left out by the token budget. */
function omittedLine(from: number, to: number): string {
  const count = to - from;
  const which = count === 1 ? `turn ${from + 1}` : `turns ${from + 1} to ${to}`;
  return `[${which} left out to fit the model's context]`;
}

function describeEntry(
  entry: HistoryEntry,
  currency: string,
  unit: ModelProfile['responseTimeUnit'],
): string {
  const { turn } = entry;
  const parts: string[] = [turn.action];
  if (turn.price !== null) parts.push(formatPrice(turn.price, currency));
  // Labels need no sanitising: the history's schema admits only snake_case identifiers.
  if (turn.message_labels.length > 0) parts.push(`labels: ${turn.message_labels.join(', ')}`);
  if (turn.message !== '') parts.push(`message: ${quoted(turn.message)}`);
  const at = formatAmount(fromHours(entry.elapsedHours, unit));
  return `${entry.role} at ${at} ${unit}: ${parts.join(', ')}`;
}
