import { ResponseOverLimitError } from './errors.js';

/**
 * Reading an HTTP response's body with a ceiling: a server decides how much it sends, and without a
 * limit a 600 MB answer became one string and took the process with it. Used by every client of haggle
 * that reads a body through `fetch` (the OpenAI-compatible transports, the Hugging Face hub pull), so
 * it sits below both.
 */

/**
 * The body as text, at most `limit` bytes of it: past that, a 2xx throws and an error status is cut.
 * `onChunk` is called as each piece arrives (an idle timeout's clock).
 */
export async function readLimited(response: Response, limit: number, onChunk?: () => void): Promise<string> {
  const body = response.body;
  if (!body || typeof body.getReader !== 'function') {
    // A test double without a stream: only its length can be checked, after the fact.
    const text = await response.text();
    const bytes = new TextEncoder().encode(text);
    if (bytes.length <= limit) return text;
    if (response.ok) throw new ResponseOverLimitError({ limitBytes: limit });
    return new TextDecoder().decode(bytes.subarray(0, limit));
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    onChunk?.();
    if (size + value.length <= limit) {
      size += value.length;
      text += decoder.decode(value, { stream: true });
      continue;
    }
    await reader.cancel().catch(() => undefined);
    if (response.ok) throw new ResponseOverLimitError({ limitBytes: limit });
    return text + decoder.decode(value.subarray(0, limit - size));
  }
}
