/**
 * Sends `haggle serve` a run of requests, each under a schema no earlier request used
 * (`distinctSchema`), a few at a time: the load of the server-memory test and bench.
 */
import { distinctSchema } from './distinct-schemas.js';
import { chatBody, postJson } from './serve-child.js';

/** How a run of requests was answered: statuses counted, and the first answers that were not 200. */
export interface ChurnResult {
  statuses: Record<number, number>;
  failures: string[];
}

/**
 * Requests `from` (inclusive) to `to` (exclusive), `concurrency` in flight, each with `max_tokens`
 * 2: the point is the schema, not the text. A request that gets no answer within `timeoutMs` counts
 * as status 0.
 */
export async function churnSchemas(
  server: { url: string; model: string },
  from: number,
  to: number,
  options: { concurrency: number; timeoutMs: number },
): Promise<ChurnResult> {
  const result: ChurnResult = { statuses: {}, failures: [] };
  let next = from;
  const lane = async () => {
    while (next < to) {
      const i = next++;
      const answer = await postJson(
        `${server.url}/chat/completions`,
        chatBody(server.model, distinctSchema(i), { max_tokens: 2, seed: i }),
        options.timeoutMs,
      );
      result.statuses[answer.status] = (result.statuses[answer.status] ?? 0) + 1;
      if (answer.status !== 200 && result.failures.length < 5)
        result.failures.push(`#${i}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, lane));
  return result;
}
