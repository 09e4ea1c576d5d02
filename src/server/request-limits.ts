/**
 * The limits `haggle serve` puts on one request, and their defaults (all haggle's choices, with why).
 * A local model has no server in front of it to refuse abuse: these keep one client from holding
 * the model (a prompt over the context, `max_tokens: 1e9` with `n: 16`, a request that never ends)
 * or the process's memory (a burst of thousands of requests).
 */
export interface RequestLimits {
  /**
   * The most tokens one sample may generate: a request that asks for more (or names no limit) gets
   * this many, with a warning. Default 1,024: a negotiation turn is under 300 tokens, and it is the
   * local backend's own default.
   */
  maxTokens: number;
  /**
   * Milliseconds a request may take, from its arrival to its answer; then its model work is aborted
   * and it is answered 504 (code `request_timeout`). 0: no deadline. Default 120,000: a turn takes
   * seconds on a GPU and tens of seconds for a long prompt on a CPU; two minutes frees a slot that
   * something went wrong with, while OpenAI clients (10 minutes by default) are still waiting.
   */
  requestTimeoutMs: number;
  /**
   * The most completion requests held at once, being served or waiting for the model; one more is
   * answered 429 with `Retry-After`. Default 256: the model serves a batch of 8 and queues the rest,
   * and 256 waiting requests (each body at most 4 MiB) stay well within a laptop's memory, above the
   * 200 concurrent sessions a simulation runs against one server.
   */
  maxQueue: number;
  /**
   * The deepest nesting of arrays and objects in a request body. Default 64: a negotiation turn's
   * schema is under 10 levels; deeper bodies are refused (400) before anything recurses into them.
   */
  maxJsonDepth: number;
}

/** Limits `OpenAIServer` applies when none are given (haggle's choice). */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  maxTokens: 1024,
  requestTimeoutMs: 120_000,
  maxQueue: 256,
  maxJsonDepth: 64,
};

/**
 * How deeply `value` nests arrays and objects (a scalar: 0), counting without recursion so that a
 * body nested 100,000 deep is measured rather than overflowing the stack; stops once over `limit`.
 */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, level]);
    }
  }
  return deepest;
}
