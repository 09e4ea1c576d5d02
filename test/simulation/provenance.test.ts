import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { OpenAICompatibleBackend } from '../../src/backends/openai/openai-compatible-backend.js';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import {
  currentProvenance,
  provenanceChanges,
  sameRunSettings,
  withoutLocations,
} from '../../src/simulation/provenance.js';
import { RunFileError, readRunFile } from '../../src/simulation/run-file.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-provenance-'));
const population = new PopulationAgent();

describe('run header provenance', () => {
  it("the first line holds haggle's version as package.json has it, process.version and the platform", async () => {
    const out = join(tmp(), 'run.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 3, seed: 2, out }).done();
    const first = readFileSync(out, 'utf8').split('\n')[0] as string;
    const header = JSON.parse(first);
    expect(header.provenance).toEqual({
      haggle: packageVersion,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
    });
    expect(first).toContain(`"haggle":"${packageVersion}"`);
    expect(first).toContain(process.version);
  });

  it('keeps server URLs in provenance, out of the settings a resume compares', () => {
    const agent = (baseURL: string) =>
      new NegotiationAgent({ backend: new OpenAICompatibleBackend({ baseURL, model: 'm' }) });
    const a = agent('http://10.0.0.1:8000/v1').describe();
    const b = agent('http://user:pw@10.0.0.2:9000/v1?key=k').describe();
    expect(withoutLocations(a)).toEqual(withoutLocations(b));
    expect(currentProvenance({ buyer: b }).locations).toEqual({
      buyer: [{ replicas: ['http://10.0.0.2:9000/v1'] }],
    });
    expect(JSON.stringify(currentProvenance({ buyer: b }))).not.toMatch(/pw|key=k/);
  });

  it('a resume on another machine (other haggle, Node or platform) continues; other settings refuse', async () => {
    const out = join(tmp(), 'run.jsonl');
    const run = (seed = 4) =>
      simulate({ buyer: population, seller: population, sessions: 8, seed, out, resume: true }).done();
    await run();
    const whole = readFileSync(out, 'utf8');
    // Half the run, as another machine would have left it.
    const lines = whole.split('\n');
    const header = JSON.parse(lines[0] as string);
    header.provenance = { haggle: '0.0.1', node: 'v99.0.0', platform: 'plan9', arch: 'mips' };
    writeFileSync(out, `${[JSON.stringify(header), ...lines.slice(1, 5)].join('\n')}\n`);
    await run();
    const after = readRunFile(out);
    expect(after.sessions.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The sessions are the ones an uninterrupted run plays; the header is the one the run started with.
    expect(readFileSync(out, 'utf8').split('\n').slice(1)).toEqual(lines.slice(1));
    expect(after.header?.provenance?.haggle).toBe('0.0.1');
    // Another seed is another run.
    await expect(run(5)).rejects.toBeInstanceOf(RunFileError);
  });

  it('sameRunSettings ignores provenance only; provenanceChanges names what moved', () => {
    const now = currentProvenance();
    const header = { type: 'run', seed: 1, config: { a: 1 }, provenance: now };
    expect(sameRunSettings(header, { ...header, provenance: { ...now, node: 'v1.0.0' } })).toBe(true);
    expect(sameRunSettings(header, { ...header, config: { a: 2 } })).toBe(false);
    expect(provenanceChanges({ ...now, haggle: '0.0.1' }, now)).toEqual([`haggle 0.0.1 -> ${now.haggle}`]);
    expect(provenanceChanges(undefined, now)).toEqual([]);
  });
});
