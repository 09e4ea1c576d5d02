import { createNodeStreamTransport } from './node-stream-transport.js';
import { createNodeTransport, type HttpTransport } from './node-transport.js';
import { OpenAICompatibleBackend as FetchOpenAICompatibleBackend } from './openai-compatible-backend.js';
import type { HttpStreamTransport } from './stream-transport.js';

/**
 * The Node build of {@link FetchOpenAICompatibleBackend | OpenAICompatibleBackend}: the same backend,
 * posting through `node:http` with a keep-alive agent by default, since Node 20's `fetch` spends several
 * times more CPU per request (bench/remote.ts). `haggle` resolves to it under Node; `haggle/node`
 * exports it for other runtimes with Node's modules (Deno, Bun).
 *
 * @see The guide: [Remote backend and haggle serve](../../../docs/remote.md).
 */
export class OpenAICompatibleBackend extends FetchOpenAICompatibleBackend {
  /** @internal */
  protected override defaultTransport(maxSockets: number): HttpTransport {
    return createNodeTransport(maxSockets);
  }

  /** @internal */
  protected override defaultStreamTransport(maxSockets: number): HttpStreamTransport {
    return createNodeStreamTransport(maxSockets);
  }
}
