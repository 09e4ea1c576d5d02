import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import type { Negotiator, PredictInput, PredictOptions } from '../../src/contract/negotiator.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { readRunFile } from '../../src/simulation/run-file.js';

/** The population agent behind a switch: while `down`, every call fails as a dead server would. */
class Flaky implements Negotiator {
  down = true;
  private readonly inner = new PopulationAgent();
  async predict(input: PredictInput, options?: PredictOptions) {
    if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:9');
    return this.inner.predict(input, options);
  }
  describe() {
    return this.inner.describe();
  }
}

describe('resume after failures', () => {
  it('plays the failed sessions again, and the file ends as an uninterrupted run wrote it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-resume-failed-'));
    const out = join(dir, 'run.jsonl');
    const buyer = new Flaky();
    const seller = new PopulationAgent();
    const base = { buyer, seller, sessions: 30, concurrency: 4, seed: 5, out };

    // The server is down: the run stops early, its played sessions on file as failures.
    await expect(simulate(base).done()).rejects.toThrow(/stopped early/);
    const failed = readRunFile(out).sessions;
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((s) => s.outcome.reason === 'error')).toBe(true);

    // Back up: a resume replays them instead of keeping them as results.
    buyer.down = false;
    const summary = await simulate({ ...base, resume: true }).done();
    expect(summary.sessions).toBe(30);
    expect(summary.errors).toBe(0);
    const clean = join(dir, 'clean.jsonl');
    await simulate({ ...base, buyer: new PopulationAgent(), out: clean }).done();
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(clean, 'utf8'));
  });
});
