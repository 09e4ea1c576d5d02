/**
 * Everything from a run file is untrusted: titles, categories, labels and negotiator descriptions come
 * from whoever wrote the JSONL (real marketplace data, a model's output). Every such string goes
 * through `escapeHtml` before it reaches the page; nothing else builds markup from data.
 */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A number for a `data-*` attribute: full precision, so a test (or a reader) gets the exact value. */
export function dataNumber(value: number | null): string {
  return value === null ? '' : String(value);
}
