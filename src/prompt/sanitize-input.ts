import type { History } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import { type SanitizeOptions, sanitizeUntrustedText } from './sanitize.js';

/**
 * Copies of a context and a history with every free-text field sanitised: the item's title, category,
 * condition and description, the caller's id, and each message. Done before any template sees the
 * input, so a template of your own (a Jinja string, a function) that prints a field raw is still safe.
 * Labels, prices, currency and numbers are already restricted by the contract's schemas.
 */
export function sanitizeContext(context: ListingContext, options?: SanitizeOptions): ListingContext {
  const clean = (text: string) => sanitizeUntrustedText(text, options);
  const { item } = context;
  const safeItem: ListingContext['item'] = { ...item, title: clean(item.title) };
  if (item.category !== undefined) safeItem.category = clean(item.category);
  if (item.condition !== undefined) safeItem.condition = clean(item.condition);
  if (item.description !== undefined) safeItem.description = clean(item.description);
  const safe: ListingContext = { ...context, item: safeItem };
  if (context.id !== undefined) safe.id = clean(context.id);
  return safe;
}

export function sanitizeHistory(history: History, options?: SanitizeOptions): History {
  return history.map((entry) =>
    entry.turn.message === ''
      ? entry
      : { ...entry, turn: { ...entry.turn, message: sanitizeUntrustedText(entry.turn.message, options) } },
  );
}
