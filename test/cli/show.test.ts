import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { PopulationAgent } from '../../src/index.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import { readRunFile } from '../../src/simulation/run-file.js';
import { stratifiedSample } from '../../src/simulation/transcript.js';
import { captureIo } from '../helpers/capture-io.js';

const REAL = new URL('../simulation/fixtures/small-real-sessions.jsonl', import.meta.url).pathname;

async function run(): Promise<string> {
  const out = join(mkdtempSync(join(tmpdir(), 'haggle-show-')), 'run.jsonl');
  const agent = new PopulationAgent();
  await simulate({ buyer: agent, seller: agent, sessions: 60, seed: 8, out }).done();
  return out;
}

describe('haggle show', () => {
  it('prints a session as a dialogue: who, action, price, labels, message, time, outcome', async () => {
    const out = await run();
    const { sessions } = readRunFile(out);
    // A session with a message, so every part of a turn is on show.
    const session = sessions.find((s) =>
      s.turns.some((t) => t.turn.message !== '' && t.turn.message_labels.length > 0),
    );
    expect(session).toBeDefined();
    const chosen = session as (typeof sessions)[number];
    const io = captureIo();
    expect(await runCli(['show', out, '--session', chosen.sessionId], io)).toBe(0);
    const text = io.out();
    expect(text).toContain(`session ${chosen.sessionId} (#${chosen.index} in the run)`);
    expect(text).toContain(chosen.context.item.title);
    for (const [i, entry] of chosen.turns.entries()) {
      const line = text.split('\n').find((l) => l.startsWith(`${String(i + 1).padStart(3)}. `)) ?? '';
      expect(line).toContain(entry.role);
      expect(line).toContain(entry.turn.action);
      if (entry.turn.price !== null) expect(line).toContain(`${entry.turn.price.toFixed(2)} USD`);
      for (const label of entry.turn.message_labels) expect(line).toContain(label);
      if (entry.turn.message) expect(text).toContain(`“${entry.turn.message.replace(/\s+/g, ' ')}”`);
    }
    const outcome =
      chosen.outcome.status === 'deal'
        ? `deal at ${chosen.outcome.price?.toFixed(2)} USD`
        : `no deal (${chosen.outcome.reason}`;
    expect(text).toContain(`outcome: ${outcome}`);

    // By index too, and as JSON.
    const byIndex = captureIo();
    expect(await runCli(['show', out, '--session', String(chosen.index), '--json'], byIndex)).toBe(0);
    const transcript = JSON.parse(byIndex.out());
    expect(transcript.sessionId).toBe(chosen.sessionId);
    expect(transcript.turns).toHaveLength(chosen.turns.length);
  });

  it('without --session lists the sessions and says how to print one', async () => {
    const out = await run();
    const io = captureIo();
    expect(await runCli(['show', out, '--limit', '5'], io)).toBe(0);
    const lines = io.out().trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${out}: 60 sessions`));
    expect(lines.slice(1, 6).map((l) => l.split(' ')[0])).toEqual(['s0', 's1', 's2', 's3', 's4']);
    expect(lines[6]).toBe('... 55 more (--limit to list more)');
    expect(lines[7]).toBe(`print one as a dialogue: haggle show ${out} --session s0`);
  });

  it('reads real sessions by their own ids; an unknown id or a missing file is one line, exit 2', async () => {
    const { sessions } = readRunFile(REAL);
    const io = captureIo();
    expect(await runCli(['show', REAL, '--session', sessions[1]?.sessionId as string], io)).toBe(0);
    expect(io.out()).toContain(`session ${sessions[1]?.sessionId}`);

    const unknown = captureIo();
    expect(await runCli(['show', REAL, '--session', 'nope'], unknown)).toBe(2);
    expect(unknown.err()).toMatch(/^haggle: .* holds no session "nope"; its sessions are /);
    expect(unknown.err().trim().split('\n')).toHaveLength(1);

    const missing = captureIo();
    expect(await runCli(['show', join(tmpdir(), 'no-such-run.jsonl')], missing)).toBe(2);
    expect(missing.err().trim().split('\n')).toHaveLength(1);

    const broken = join(mkdtempSync(join(tmpdir(), 'haggle-show-')), 'bad.jsonl');
    writeFileSync(broken, 'not json\n');
    expect(await runCli(['show', broken], captureIo())).toBe(2);
  });
});

describe('stratifiedSample', () => {
  it('gives every ending one session before any gets a second, is seeded, and keeps run order', async () => {
    const { sessions } = readRunFile(await run());
    const reasons = new Set(sessions.map((s) => s.outcome.reason));
    const sample = stratifiedSample(sessions, { count: reasons.size, seed: 1 });
    expect(new Set(sample.map((s) => s.outcome.reason))).toEqual(reasons);
    expect(sample.map((s) => s.index)).toEqual([...sample.map((s) => s.index)].sort((a, b) => a - b));
    expect(stratifiedSample(sessions, { count: 6, seed: 1 })).toEqual(
      stratifiedSample(sessions, { count: 6, seed: 1 }),
    );
    expect(stratifiedSample(sessions, { count: 6, seed: 1 })).not.toEqual(
      stratifiedSample(sessions, { count: 6, seed: 2 }),
    );
    expect(stratifiedSample(sessions, { count: 1000, seed: 1 })).toHaveLength(sessions.length);
  });
});
