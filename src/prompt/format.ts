/**
 * Number formatting for prompts. Deterministic on every machine (no locale, no Intl): the same input must
 * render the same prompt byte for byte, or a seed would not reproduce a run.
 */

/** Up to two decimals, trailing zeros dropped: `3`, `1.5`, `0.25`. */
export function formatAmount(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** A price with its currency: `45.00 USD`; a price with sub-cent precision keeps it (`45.125 USD`). */
export function formatPrice(price: number, currency: string): string {
  const cents = price * 100;
  const wholeCents = Math.abs(Math.round(cents) - cents) < 1e-6;
  return `${wholeCents ? price.toFixed(2) : String(price)} ${currency}`;
}
