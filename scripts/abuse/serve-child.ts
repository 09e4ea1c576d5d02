/**
 * `haggle serve --backend onnx` as a child process under ceilings, for the abuse suite and
 * `npm run abuse`: its main heap capped by `--max-old-space-size`, its model worker by
 * `--worker-heap`, and the whole process killed after `killAfterMs`, so a regression that runs away
 * fails the run instead of taking the machine down.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface ServeChildOptions {
  /** The model folder. */
  model: string;
  /** More `haggle serve` flags (`--request-timeout`, `--compile-budget`). */
  args?: string[];
  /** `--max-old-space-size` of the server process (MB). */
  heapMb?: number;
  /** SIGKILL after this many ms, whatever happens. */
  killAfterMs: number;
  /**
   * Run under `prlimit --data=BYTES` (RLIMIT_DATA: V8's address-space reservations make an `--as`
   * ceiling unusable for Node), so memory that runs away ends this process, not the machine.
   */
  dataLimitBytes?: number;
}

export interface ServeChild {
  /** `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** The model name it serves. */
  model: string;
  /** Its stderr so far. */
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Its process id (`prlimit` execs the server: the same process). */
  pid: number;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s); resolves with its exit code or signal. */
  stop(): Promise<number | string | null>;
}

export async function spawnServe(options: ServeChildOptions): Promise<ServeChild> {
  const node = [
    process.execPath,
    `--max-old-space-size=${options.heapMb ?? 1024}`,
    '--import',
    'tsx',
    'src/cli/bin.ts',
    'serve',
    '--backend',
    'onnx',
    '--model',
    options.model,
    '--port',
    '0',
    ...(options.args ?? []),
  ];
  const command =
    options.dataLimitBytes === undefined ? node : ['prlimit', `--data=${options.dataLimitBytes}`, ...node];
  const child: ChildProcess = spawn(command[0] as string, command.slice(1), {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let exit: number | string | null | undefined;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = code ?? signal;
      resolve(exit);
    }),
  );
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
  killer.unref();
  const started = await new Promise<RegExpExecArray>((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(out);
      if (match) {
        clearInterval(poll);
        resolve(match);
      } else if (exit !== undefined) {
        clearInterval(poll);
        reject(new Error(`haggle serve exited (${exit}) before listening: ${err}`));
      }
    }, 50);
  });
  return {
    url: started[2] as string,
    model: started[1] as string,
    stderr: () => err,
    pid: child.pid as number,
    alive: () => exit === undefined,
    stop: async () => {
      if (exit === undefined) {
        child.kill('SIGTERM');
        const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(hard);
      }
      clearTimeout(killer);
      return exit ?? null;
    },
  };
}

export interface Answer {
  status: number;
  /** Milliseconds from sending to the whole answer read. */
  ms: number;
  contentType: string;
  text: string;
}

/** POSTs `body` as JSON; a request that does not finish within `timeoutMs` counts as status 0. */
export async function postJson(url: string, body: unknown, timeoutMs: number): Promise<Answer> {
  const start = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return {
      status: response.status,
      ms: performance.now() - start,
      contentType: response.headers.get('content-type') ?? '',
      text,
    };
  } catch (error) {
    return { status: 0, ms: performance.now() - start, contentType: '', text: String(error) };
  }
}

/** GET `/health` (beside `/v1`): its status, or 0 when it does not answer within `timeoutMs`. */
export async function health(url: string, timeoutMs: number): Promise<number> {
  try {
    const response = await fetch(url.replace(/\/v1$/, '/health'), { signal: AbortSignal.timeout(timeoutMs) });
    await response.text();
    return response.status;
  } catch {
    return 0;
  }
}

/** A chat request under `schema` (a response_format json_schema), short. */
export function chatBody(model: string, schema: unknown, extra: Record<string, unknown> = {}): unknown {
  return {
    model,
    max_tokens: 24,
    seed: 1,
    messages: [{ role: 'user', content: 'Your next turn?' }],
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
    ...extra,
  };
}

/** The schema of an ordinary negotiation-like answer, for the requests that must all succeed after. */
export const ORDINARY_SCHEMA = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'accept', 'decline'] },
    price: { type: 'number', minimum: 0, maximum: 100 },
  },
  required: ['action', 'price'],
};
