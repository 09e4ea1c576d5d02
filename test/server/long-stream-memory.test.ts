import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A streamed answer waits on the request's deadline once per part (Deadline.bound). Each wait used to
// leave its listener with the deadline until the request ended: about 460 bytes per part, so a long
// answer (16 samples of 1,024 tokens is 16,384 parts; `--max-tokens` allows far more) held memory in
// proportion to its length, times every stream at once. Run in a child process under `prlimit --data`
// and a kill timeout, with `--expose-gc` so that the heap is measured after a full collection.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const PARTS = 250_000;
const SAMPLE_EVERY = 50_000;
/** haggle's choice: the heap may move by GC noise and buffers, not by ~115 MiB (the old cost of 250,000 parts). */
const GROWTH_LIMIT_MIB = 16;

describe('OpenAIServer streaming a long answer', () => {
  it(`keeps its heap flat over ${PARTS.toLocaleString('en')} parts (within ${GROWTH_LIMIT_MIB} MiB)`, () => {
    const run = spawnSync(
      'prlimit',
      [
        `--data=${2 * 1024 ** 3}`,
        process.execPath,
        '--expose-gc',
        '--max-old-space-size=512',
        '--import',
        'tsx',
        'test/server/long-stream-heap.ts',
        String(PARTS),
        String(SAMPLE_EVERY),
      ],
      { cwd: repoRoot, encoding: 'utf8', timeout: 100_000, killSignal: 'SIGKILL' },
    );
    expect(run.status, run.stderr).toBe(0);
    const { status, done, heapMiB } = JSON.parse(run.stdout) as {
      status: number;
      done: boolean;
      heapMiB: number[];
    };
    expect(status).toBe(200);
    expect(done).toBe(true);
    expect(heapMiB).toHaveLength(PARTS / SAMPLE_EVERY + 1);
    const [first] = heapMiB as [number];
    const peak = Math.max(...heapMiB);
    expect(peak - first, `heap MiB every ${SAMPLE_EVERY} parts: ${heapMiB.join(', ')}`).toBeLessThanOrEqual(
      GROWTH_LIMIT_MIB,
    );
  }, 120_000);
});
