import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { loadSessions, TurnSchema } from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';
import { CONTEXT, offer } from '../helpers/fixtures.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-cli-'));

describe('haggle', () => {
  it('alone prints the help with every command on stdout and exits 0', async () => {
    const io = captureIo();
    expect(await runCli([], io)).toBe(0);
    expect(io.out()).toMatch(/^Usage: haggle/);
    for (const verb of ['simulate', 'predict', 'report', 'show', 'compare', 'evaluate', 'serve', 'merge']) {
      expect(io.out()).toMatch(new RegExp(`\\n  ${verb} `));
    }
    expect(io.err()).toBe('');
  });
});

describe('haggle simulate', () => {
  it('--json prints one summary object with sessions, dealRate and meanTurns', async () => {
    const io = captureIo();
    const code = await runCli(['simulate', '--sessions', '60', '--seed', '4', '--json'], io);
    expect(code).toBe(0);
    const summary = JSON.parse(io.out());
    expect(summary.sessions).toBe(60);
    expect(summary.dealRate).toBeGreaterThanOrEqual(0);
    expect(summary.dealRate).toBeLessThanOrEqual(1);
    expect(summary.meanTurns).toBeGreaterThan(0);
    expect(io.err()).toBe(''); // no progress bar off a terminal
  });

  it('--json prints messageSessionRate beside dealRate, over the sessions written', async () => {
    const out = join(tmp(), 'run.jsonl');
    const io = captureIo();
    expect(await runCli(['simulate', '-n', '400', '-s', '5', '--out', out, '--json'], io)).toBe(0);
    const summary = JSON.parse(io.out());
    const keys = Object.keys(summary);
    expect(keys[keys.indexOf('dealRate') + 1]).toBe('messageSessionRate');
    const sessions = loadSessions(out);
    const withMessage = sessions.filter((s) =>
      s.turns.some((t) => t.turn.action === 'offer_with_message' || t.turn.action === 'message_only'),
    ).length;
    expect(summary.messageSessionRate).toBe(withMessage / sessions.length);
    // The population baseline is calibrated to the card's 3% of sessions with a message.
    expect(withMessage).toBeGreaterThan(0);
    expect(summary.messageSessionRate).toBeLessThan(0.08);
  });

  it('prints a summary table, and the same seed writes the same JSONL', async () => {
    const dir = tmp();
    const io = captureIo();
    for (const name of ['a', 'b']) {
      expect(await runCli(['simulate', '-n', '30', '-s', '8', '--out', join(dir, `${name}.jsonl`)], io)).toBe(
        0,
      );
    }
    expect(io.out()).toMatch(/deal rate\s+\d+\.\d%/);
    expect(io.out()).toMatch(/message sessions\s+\d+\.\d% of finished sessions carry a message/);
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'b.jsonl'), 'utf8'));
  });

  it('takes other agents, rules and a contexts file', async () => {
    const dir = tmp();
    const contexts = join(dir, 'contexts.json');
    writeFileSync(contexts, JSON.stringify([CONTEXT]));
    const io = captureIo();
    const args = [
      'simulate',
      '-n',
      '20',
      '--buyer',
      'tit-for-tat',
      '--seller',
      'boulware',
      '--rules',
      'alternating-offers',
    ];
    expect(
      await runCli([...args, '--contexts', contexts, '--cycle-contexts', '--max-turns', '10', '--json'], io),
    ).toBe(0);
    expect(JSON.parse(io.out()).turns.max).toBeLessThanOrEqual(10);
  });

  it.each([
    [['simulate', '--sessions', 'many'], /--sessions must be an integer/],
    [['simulate', '--sessions', '0'], /--sessions must be an integer from 1/],
    [['simulate', '--buyer', 'gpt'], /--buyer must be one of population/],
    [['simulate', '--contexts', '/nonexistent.json'], /cannot read contexts file .*no such file/],
    [['simulate', '--resume'], /resume: needs `out`/],
    [['simulate', '--frobnicate'], /unknown option/],
    [['negotiate'], /unknown command/],
  ])('bad arguments %j: one line on stderr and exit code 2', async (args, message) => {
    const io = captureIo();
    expect(await runCli(args as string[], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
  });

  it('a contexts file with an invalid context exits 2 with the path of the problem', async () => {
    const dir = tmp();
    const contexts = join(dir, 'contexts.json');
    writeFileSync(contexts, JSON.stringify([{ item: { title: 'Lamp' }, listPrice: -3 }]));
    const io = captureIo();
    expect(await runCli(['simulate', '--contexts', contexts], io)).toBe(2);
    expect(io.err()).toMatch(/listPrice/);
  });
});

describe('haggle predict', () => {
  it('prints the next turn for a context file, as the seller after a buyer offer', async () => {
    const dir = tmp();
    const file = join(dir, 'input.json');
    writeFileSync(
      file,
      JSON.stringify({ context: CONTEXT, history: [{ role: 'buyer', turn: offer(200), elapsedHours: 1 }] }),
    );
    const io = captureIo();
    expect(await runCli(['predict', '--context', file, '--seed', '3'], io)).toBe(0);
    const turn = TurnSchema.parse(JSON.parse(io.out()));
    // The seller answers the standing offer: never above the list price, never a second opening.
    if (turn.price !== null) expect(turn.price).toBeLessThanOrEqual(CONTEXT.listPrice);
    const again = captureIo();
    await runCli(['predict', '--context', file, '--seed', '3'], again);
    expect(again.out()).toBe(io.out());
  });

  it('reads a bare context from stdin and opens as the buyer', async () => {
    const io = captureIo(JSON.stringify(CONTEXT));
    expect(await runCli(['predict', '--context', '-', '--role', 'buyer'], io)).toBe(0);
    const turn = TurnSchema.parse(JSON.parse(io.out()));
    expect(['offer', 'offer_with_message', 'message_only']).toContain(turn.action);
  });

  it.each([
    [['predict'], /required option '--context/],
    [['predict', '--context', '-'], /is not valid JSON/, 'not json'],
    [['predict', '--context', '-', '--role', 'broker'], /--role must be one of buyer, seller/, '{}'],
    [['predict', '--context', '-'], /Invalid ListingContext: item/, '{"listPrice": 3}'],
    // A list price no marketplace has: refused, never a turn with a null or absurd price.
    [
      ['predict', '--context', '-'],
      /listPrice.*at most 1000000000/,
      JSON.stringify({ ...CONTEXT, listPrice: 1e308 }),
    ],
    [
      ['predict', '--context', '-'],
      /listPrice.*at most 2 decimal/,
      JSON.stringify({ ...CONTEXT, listPrice: 19.999 }),
    ],
  ])('bad input %j exits 2', async (args, message, stdin = '') => {
    const io = captureIo(stdin);
    expect(await runCli(args as string[], io)).toBe(2);
    expect(io.err()).toMatch(message);
    // One line on stderr, nothing on stdout.
    expect(io.err().trim().split('\n')).toHaveLength(1);
    expect(io.out()).toBe('');
  });
});

describe('haggle predict on a finished or broken history', () => {
  it.each([
    [
      [
        { role: 'buyer', turn: offer(200), elapsedHours: 1 },
        {
          role: 'seller',
          turn: { action: 'accept', price: null, message_labels: [], message: '', response_time: 1 },
          elapsedHours: 2,
        },
      ],
      /history\[1\].*already ended here \(accepted\)/,
    ],
    [
      [
        {
          role: 'buyer',
          turn: { action: 'accept', price: null, message_labels: [], message: '', response_time: 1 },
          elapsedHours: 1,
        },
      ],
      /history\[0\].*breaks the best-offer rules/,
    ],
  ])('exits 2 with the reason', async (history, message) => {
    const io = captureIo(JSON.stringify({ context: CONTEXT, history }));
    expect(await runCli(['predict', '--context', '-'], io)).toBe(2);
    expect(io.err()).toMatch(message);
  });
});
