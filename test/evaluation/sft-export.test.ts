import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderQwen3NoThinkTraining, sftExamples } from '../../src/evaluation/index.js';
import { PopulationAgent, renderPrompt, type SessionResult, simulate } from '../../src/index.js';

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');

async function sessions(): Promise<SessionResult[]> {
  const results: SessionResult[] = [];
  // Openings with a message as often as before the population was calibrated to the card's 3% of
  // message sessions, so the golden example keeps a message to render.
  const agent = new PopulationAgent({ parameters: { buyerOpeningMessageProbability: 0.2 } });
  const run = simulate({
    buyer: agent,
    seller: agent,
    sessions: 5,
    seed: 17,
  });
  run.on('session-end', (e) => {
    results[e.index] = e.result;
  });
  await run.done();
  return results;
}

describe('SFT export (sharegpt, qwen3_nothink)', () => {
  it('renders each example to exactly the prompt the agent sends, plus the answer and <|im_end|>', async () => {
    const runs = await sessions();
    const examples = sftExamples(runs);
    expect(examples).toHaveLength(runs.reduce((n, s) => n + s.turns.length, 0));
    let k = 0;
    for (const session of runs) {
      session.turns.forEach((entry, i) => {
        const prompt = renderPrompt({
          context: session.context,
          history: session.turns
            .slice(0, i)
            .map(({ role, turn, elapsedHours }) => ({ role, turn, elapsedHours })),
          role: entry.role,
        });
        const example = examples[k++];
        if (!example) throw new Error('missing example');
        expect(renderQwen3NoThinkTraining(example)).toBe(
          `${prompt.text}${example.conversations[1].value}<|im_end|>\n`,
        );
        expect(JSON.parse(example.conversations[1].value)).toEqual(entry.turn);
      });
    }
  });

  it('matches the golden training string byte for byte', async () => {
    const [first] = sftExamples((await sessions()).slice(0, 1), { roles: ['seller'] });
    if (!first) throw new Error('no seller turn');
    expect(renderQwen3NoThinkTraining(first)).toBe(golden('sft-qwen3-nothink.txt'));
    expect(first.conversations[1].value).toMatch(/^\{"action":"[a-z_]+","price":/);
  });

  it('keeps only the asked roles and leaves out rule-breaking turns', async () => {
    const runs = await sessions();
    const buyers = sftExamples(runs, { roles: ['buyer'] });
    expect(buyers.length).toBe(
      runs.reduce((n, s) => n + s.turns.filter((t) => t.role === 'buyer').length, 0),
    );
    const broken = { ...(runs[0] as SessionResult) };
    broken.turns = broken.turns.map((t, i) => (i === 0 ? { ...t, violation: 'test' } : t));
    expect(sftExamples([broken])).toHaveLength(broken.turns.length - 1);
    expect(sftExamples([broken], { skipViolations: false })).toHaveLength(broken.turns.length);
  });
});
