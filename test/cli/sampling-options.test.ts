import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { GenerateOptions } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

// `--temperature` and `--top-p` reach the model over real HTTP (haggle's own server in front of a mock
// backend) and the run header records them, so a run says how it was sampled.
describe('--temperature and --top-p', () => {
  let server: OpenAIServer;
  let url: string;
  let local: MockLanguageBackend;
  beforeAll(async () => {
    local = new MockLanguageBackend({
      modelId: 'negotiator-lora',
      responses: Array.from(
        { length: 200 },
        () => (options: GenerateOptions) =>
          turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
      ),
    });
    server = new OpenAIServer({ backend: local });
    url = await server.listen();
  });
  afterAll(async () => {
    await server.close();
  });

  const backend = () => ['--backend', 'openai', '--base-url', url, '--model', 'negotiator-lora'];

  it('haggle simulate --temperature T --top-p P: every request samples so, and the header says so', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-sampling-')), 'run.jsonl');
    const io = captureIo();
    const args = ['simulate', '-n', '2', ...backend(), '--temperature', '0.7', '--top-p', '0.9'];
    expect(await runCli([...args, '--json', '--out', out], io)).toBe(0);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] ?? '{}');
    for (const side of ['buyer', 'seller']) {
      expect(header.config[side].sampling).toMatchObject({ temperature: 0.7, topP: 0.9 });
    }
    expect(local.calls.length).toBeGreaterThan(0);
    for (const call of local.calls) expect(call).toMatchObject({ temperature: 0.7, topP: 0.9 });
  });

  it("without them the header records the profile's temperature, the card's 1.0", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-sampling-')), 'run.jsonl');
    expect(await runCli(['simulate', '-n', '1', ...backend(), '--json', '--out', out], captureIo())).toBe(0);
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] ?? '{}');
    expect(header.config.buyer.sampling.temperature).toBe(1);
  });

  it('haggle predict --temperature reaches the model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-sampling-'));
    const context = join(dir, 'context.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(context, JSON.stringify({ item: { title: 'Lamp' }, listPrice: 80 }));
    const before = local.calls.length;
    const io = captureIo();
    expect(await runCli(['predict', '--context', context, ...backend(), '--temperature', '0.3'], io)).toBe(0);
    expect(local.calls.slice(before)[0]).toMatchObject({ temperature: 0.3 });
  });

  it.each([
    [['simulate', '-n', '1', '--temperature', '0.5'], /--temperature needs --backend/],
    [['simulate', '-n', '1', '--top-p', '0.5'], /--top-p needs --backend/],
    [['simulate', '-n', '1', '--temperature', '3'], /--temperature must be a number from 0 to 2, got "3"/],
    [['simulate', '-n', '1', '--top-p', '0'], /--top-p must be a number above 0 and at most 1, got "0"/],
    [['simulate', '-n', '1', '--temperature', 'hot'], /--temperature must be a number/],
    [
      ['evaluate', '--experiment', 'x.json', '--temperature', '0.5'],
      /--temperature cannot be combined with --experiment/,
    ],
  ])('refuses %j with one line and exit code 2', async (args, message) => {
    const io = captureIo();
    expect(await runCli(args as string[], io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('haggle evaluate --temperature with baselines only is refused: nothing would sample', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-sampling-'));
    const suite = join(dir, 'suite.json');
    expect(
      await runCli(['suite', '--out', suite, '--scenarios', '2', '--seeds-per-pair', '1'], captureIo()),
    ).toBe(0);
    const io = captureIo();
    const code = await runCli(
      ['evaluate', '--suite', suite, '--arm', 'utility-linear', '--temperature', '0.5'],
      io,
    );
    expect(code).toBe(2);
    expect(io.err()).toMatch(/--temperature applies to LLM arms and opponents/);
  });
});
