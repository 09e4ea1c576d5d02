import type { BackendStreamPart, GenerateOptions, LanguageBackend } from './language-backend.js';

/**
 * A backend's generation as a stream of parts: its own `doStream` when it has one; otherwise
 * `doGenerate`, whose whole texts come out as one `text-delta` per choice before the `finish` part
 * (custom backends keep working with `agent.stream`, they just do not stream early).
 */
export function streamGenerate(
  backend: LanguageBackend,
  options: GenerateOptions,
): AsyncIterable<BackendStreamPart> {
  if (typeof backend.doStream === 'function') return backend.doStream(options);
  return generateAsStream(backend, options);
}

async function* generateAsStream(
  backend: LanguageBackend,
  options: GenerateOptions,
): AsyncGenerator<BackendStreamPart> {
  const result = await backend.doGenerate(options);
  if (typeof result === 'object' && result !== null && Array.isArray(result.choices)) {
    for (const [index, choice] of result.choices.entries()) {
      if (typeof choice?.text === 'string' && choice.text !== '')
        yield { type: 'text-delta', index, delta: choice.text };
    }
  }
  yield { type: 'finish', result };
}
