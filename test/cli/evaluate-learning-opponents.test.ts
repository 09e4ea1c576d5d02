import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';

// The learning strategies of issue 46 by name, through every path of the CLI that builds a multi-issue
// opponent from the registry: haggle suite --opponents, evaluate --arm/--opponent, experiment files.
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-learning-cli-'));

async function suiteWith(dir: string, opponents: string): Promise<string> {
  const path = join(dir, 'suite.json');
  const io = captureIo();
  const args = [
    'suite',
    '--out',
    path,
    '--scenarios',
    '3',
    '--seeds-per-pair',
    '1',
    '--opponents',
    opponents,
  ];
  expect(await runCli(args, io), io.err()).toBe(0);
  return path;
}

describe('the learning strategies by name in the CLI', () => {
  it('haggle suite --opponents and haggle evaluate --arm NAME --opponent NAME accept them', async () => {
    const dir = tmp();
    const suite = await suiteWith(dir, 'utility-hard-headed,utility-adaptive-concession,utility-conceder');
    const out = join(dir, 'run.jsonl');
    const io = captureIo();
    const code = await runCli(
      [
        'evaluate',
        '--suite',
        suite,
        '--arm',
        'utility-nash-seeker',
        '--opponent',
        'utility-hard-headed',
        '--opponent',
        'utility-adaptive-concession',
        '--roles',
        'both',
        '--out',
        out,
        '--json',
      ],
      io,
    );
    expect(code, io.err()).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].config.arms['utility-nash-seeker']).toMatchObject({ kind: 'utility-nash-seeker' });
    expect(lines[0].config.opponents['utility-hard-headed']).toMatchObject({ kind: 'utility-hard-headed' });
    expect(lines[0].config.opponents['utility-adaptive-concession']).toMatchObject({
      kind: 'utility-adaptive-concession',
    });
    const matches = lines.filter((l) => l.type === 'match');
    expect(matches).toHaveLength(3 * 2 * 2);
    expect(matches.every((m) => m.result.reason !== 'error' && m.result.reason !== 'invalid-turn')).toBe(
      true,
    );
  });

  it('a suite opponent may be played by a learning strategy under another name, and an experiment file names them', async () => {
    const dir = tmp();
    const suite = await suiteWith(dir, 'tough-buyer');
    const io = captureIo();
    expect(
      await runCli(
        [
          'evaluate',
          '--suite',
          suite,
          '--arm',
          'adaptive=utility-adaptive-concession',
          '--opponent',
          'tough-buyer=utility-hard-headed',
        ],
        io,
      ),
      io.err(),
    ).toBe(0);
    expect(io.out()).toMatch(/adaptive\s+all\s+3\s/);
    const file = join(dir, 'experiment.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'learning',
        suite: { generate: { seed: 3, scenarios: 2, seedsPerPair: 1 } },
        arms: { hard: { baseline: 'utility-hard-headed' } },
        opponents: { nash: { baseline: 'utility-nash-seeker' } },
      }),
    );
    const exp = captureIo();
    expect(await runCli(['evaluate', '--experiment', file, '--json'], exp), exp.err()).toBe(0);
    expect(exp.out()).toContain('"hard"');
  });

  it('an unknown name is refused with the list, which names the learning strategies', async () => {
    const dir = tmp();
    const suite = await suiteWith(dir, 'utility-conceder');
    const io = captureIo();
    expect(await runCli(['evaluate', '--suite', suite, '--arm', 'utility-nash-seker'], io)).not.toBe(0);
    expect(io.err()).toMatch(/utility-hard-headed, utility-nash-seeker, utility-adaptive-concession/);
  });

  it('haggle simulate --buyer reservation-learner --seller reservation-learner plays, the same seed twice alike', async () => {
    const outputs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const io = captureIo();
      const args = [
        'simulate',
        '-n',
        '20',
        '-s',
        '9',
        '--buyer',
        'reservation-learner',
        '--seller',
        'reservation-learner',
        '--json',
      ];
      expect(await runCli(args, io), io.err()).toBe(0);
      outputs.push(io.out());
    }
    expect(JSON.parse(outputs[0] as string).sessions).toBe(20);
    expect(outputs[1]).toBe(outputs[0]);
  });
});
