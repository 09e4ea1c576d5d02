import type { Command } from 'commander';
import { COMPILE_LIMITS } from '../decoding/compiler/schema-compiler.js';
import { processEnvironment } from '../internal/environment.js';
import { DeferredOnnxBackend } from '../onnx/deferred-onnx-backend.js';
import { DEFAULT_WORKER_HEAP_MB } from '../onnx/onnx-options.js';
import type { OnnxWorkerEvent } from '../onnx/worker-supervisor.js';
import { OpenAIServer } from '../server/openai-server.js';
import { DEFAULT_REQUEST_LIMITS } from '../server/request-limits.js';
import { addBackendOptions, type BackendCliOptions, createCliBackend } from './backend-options.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseIntegerOption, withListenOptions } from './options.js';

interface ServeCliOptions extends BackendCliOptions {
  port: number;
  host: string;
  serverApiKey?: string;
  maxTokens: number;
  requestTimeout: number;
  maxQueue: number;
  compileBudget: number;
  workerHeap: number;
  servedModelName?: string[];
  cors?: string[];
  corsAllowAnyOrigin?: boolean;
}

/**
 * `haggle serve`: an OpenAI-compatible HTTP server in front of a backend, until Ctrl-C. The backend is
 * built before the port opens, so a backend that cannot load fails the command at once.
 */
export function registerServeCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const command = withListenOptions(
    program
      .command('serve')
      .description('serve a backend over an OpenAI-compatible HTTP API (/v1/models, /v1/chat/completions)'),
  )
    .option('--server-api-key <key>', 'require clients to send this key (default: $HAGGLE_SERVE_API_KEY)')
    .option(
      '--max-tokens <n>',
      'most tokens one sample may generate; requests asking for more are capped, with a warning',
      parseIntegerOption('max-tokens', 1, 1_000_000),
      DEFAULT_REQUEST_LIMITS.maxTokens,
    )
    .option(
      '--request-timeout <ms>',
      'deadline of one request in ms, then its work stops and it is answered 504 (0: none)',
      parseIntegerOption('request-timeout', 0, 86_400_000),
      DEFAULT_REQUEST_LIMITS.requestTimeoutMs,
    )
    .option(
      '--served-model-name <name>',
      "a model name clients may ask for (repeatable, as vLLM's flag); default: the backend's model id",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--cors <origin>',
      'let web pages on this origin call the server, e.g. http://localhost:5173 (repeatable; answers preflights)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--cors-allow-any-origin',
      "with --cors '*': let every web page call the server (anyone's page the user visits could use the model)",
    )
    .option(
      '--max-queue <n>',
      'most requests held at once (served or waiting); more are answered 429 with Retry-After',
      parseIntegerOption('max-queue', 1, 100_000),
      DEFAULT_REQUEST_LIMITS.maxQueue,
    )
    .option(
      '--compile-budget <ms>',
      'with --backend onnx: most ms one response schema may take to compile; beyond: 400 (schema-limit)',
      parseIntegerOption('compile-budget', 1, 600_000),
      COMPILE_LIMITS.timeBudgetMs,
    )
    .option(
      '--worker-heap <mb>',
      'with --backend onnx: heap limit of the model worker in MB; a request past it restarts the worker',
      parseIntegerOption('worker-heap', 64, 1_000_000),
      DEFAULT_WORKER_HEAP_MB,
    );
  addBackendOptions(command, { required: true });
  command.action(async (options: ServeCliOptions) => {
    const backend = createCliBackend(options);
    if (!backend) throw new CliUsageError('serve needs --backend');
    if (backend instanceof DeferredOnnxBackend) {
      backend.configure({
        compileBudgetMs: options.compileBudget,
        workerHeapMb: options.workerHeap,
        // Clients send the schemas: each new one compiles first where a runaway cannot hold the model.
        untrustedSchemas: true,
        // Once per worker that ends, with its cause; the requests it held wait for the new one.
        onWorkerEvent: (event) => io.stderr.write(`haggle serve: ${describeWorkerEvent(event)}\n`),
      });
    }
    const apiKey = options.serverApiKey ?? processEnvironment().HAGGLE_SERVE_API_KEY;
    if (options.cors?.includes('*') && !options.corsAllowAnyOrigin) {
      throw new CliUsageError(
        "--cors '*' lets every web page use the server: name the origins (--cors http://localhost:5173), or add --cors-allow-any-origin",
      );
    }
    if (options.corsAllowAnyOrigin && !options.cors?.includes('*')) {
      throw new CliUsageError("--cors-allow-any-origin goes with --cors '*'");
    }
    const server = new OpenAIServer({
      backend,
      ...(options.cors
        ? { cors: { origins: options.cors, allowAnyOrigin: options.corsAllowAnyOrigin === true } }
        : {}),
      ...(options.servedModelName ? { models: options.servedModelName } : {}),
      ...(apiKey ? { apiKey } : {}),
      limits: {
        maxTokens: options.maxTokens,
        requestTimeoutMs: options.requestTimeout,
        maxQueue: options.maxQueue,
      },
      // Every 5xx on stderr with its cause (redacted): the client of a 500 sees no more than that.
      onFailure: (failure) =>
        io.stderr.write(
          `haggle serve: ${failure.status} ${failure.method} ${failure.path}: ${failure.message}\n`,
        ),
      // A client that hangs up is not a server failure: one info line, in nginx's 499 wording.
      onClientClosed: (event) =>
        io.stderr.write(
          `haggle serve: 499 ${event.method} ${event.path}: the client closed the connection after ` +
            `${event.afterMs} ms; its work was cancelled\n`,
        ),
    });
    // A local model loads before the port opens: a broken folder fails the command, and the first
    // request's deadline is not spent loading.
    if (backend instanceof DeferredOnnxBackend) await backend.backend();
    let url: string;
    try {
      url = await server.listen({ port: options.port, host: options.host });
    } catch (error) {
      throw new CliUsageError(
        `cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // The first name is the one printed (tests and scripts read it); every name is served.
    io.stdout.write(`haggle serve: ${backend.provider} model "${server.models[0]}" at ${url}\n`);
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await server.close();
    if (backend instanceof DeferredOnnxBackend) await backend.dispose();
    io.stdout.write('haggle serve: stopped\n');
  });
}

/** A worker event as one log line. */
function describeWorkerEvent(event: OnnxWorkerEvent): string {
  switch (event.type) {
    case 'worker-exit':
      return `the model worker ended (${event.cause}); its requests wait for the new one; restarting it`;
    case 'worker-ready':
      return `the model worker is ready again (restart ${event.restarts}, ${event.ms} ms)`;
    case 'worker-restart-failed':
      return `restarting the model worker failed (${event.cause}); requests waiting for it got 503; trying again in ${event.retryInMs} ms`;
  }
}
