/**
 * Child process of long-stream-memory.test.ts (run with `--expose-gc`): streams PARTS one-character
 * deltas through a real OpenAIServer on loopback, read by fetch to the end, and prints the heap in use
 * after a full GC at every SAMPLE_EVERY parts, as JSON on stdout. The backend is scripted: it is
 * the server's memory per part that is measured, not a model's.
 */
import type { BackendStreamPart, GenerateOptions, LanguageBackend } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';

const PARTS = Number(process.argv[2]);
const SAMPLE_EVERY = Number(process.argv[3]);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heapMiB: number[] = [];

function sample(): void {
  gc?.();
  heapMiB.push(Math.round(process.memoryUsage().heapUsed / 1024 ** 2));
}

const backend: LanguageBackend = {
  specificationVersion: 'v1',
  provider: 'scripted',
  modelId: 'm',
  async doGenerate() {
    throw new Error('this backend only streams');
  },
  async *doStream(_options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    for (let i = 0; i < PARTS; i++) {
      if (i % SAMPLE_EVERY === 0) sample();
      yield { type: 'text-delta', index: 0, delta: 'x' };
    }
    sample();
    yield {
      type: 'finish',
      result: {
        choices: [{ text: 'x'.repeat(PARTS), finishReason: 'stop' }],
        usage: { promptTokens: 1, completionTokens: PARTS },
        warnings: [],
      },
    };
  },
};

// The default deadline (120 s) is on: it is what each part's wait is bound by.
const server = new OpenAIServer({ backend, limits: { maxTokens: 1_000_000 } });
const url = await server.listen();
const response = await fetch(`${url}/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
});
const text = await response.text();
await server.close();
process.stdout.write(
  `${JSON.stringify({ status: response.status, done: text.endsWith('data: [DONE]\n\n'), heapMiB })}\n`,
);
