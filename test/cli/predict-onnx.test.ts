import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { TurnSchema } from '../../src/contract/turn.js';
import { captureIo } from '../helpers/capture-io.js';
import { fixtureModel } from '../onnx/fixture-model.js';

const dir = mkdtempSync(join(tmpdir(), 'haggle-predict-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const context = {
  id: 'l1',
  item: { title: 'Nikon F3 camera body', category: 'Cameras & Photo', condition: 'Used', description: '' },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 100 },
  buyer: { feedbackScore: 5 },
};

describe('haggle predict --backend onnx', () => {
  it('prints a valid turn from the local model, the same for the same seed', async () => {
    const file = join(dir, 'context.json');
    writeFileSync(file, JSON.stringify(context));
    const args = [
      'predict',
      '--backend',
      'onnx',
      '--model',
      fixtureModel(1),
      '--context',
      file,
      '--seed',
      '3',
    ];
    const io = captureIo();
    expect(await runCli(args, io)).toBe(0);
    const turn = JSON.parse(io.out()) as unknown;
    expect(TurnSchema.safeParse(turn).success).toBe(true);
    const again = captureIo();
    expect(await runCli(args, again)).toBe(0);
    expect(again.out()).toBe(io.out());
  });

  it('accepts --device cuda and runs on the CPU where CUDA is missing', async () => {
    const file = join(dir, 'context2.json');
    writeFileSync(file, JSON.stringify(context));
    const io = captureIo();
    const code = await runCli(
      ['predict', '--backend', 'onnx', '--model', fixtureModel(1), '--device', 'cuda', '--context', file],
      io,
    );
    expect(code).toBe(0);
    expect(TurnSchema.safeParse(JSON.parse(io.out())).success).toBe(true);
    // The fallback is said once, in haggle's words, with the install command; no native log line.
    expect(io.err()).toMatch(
      /^haggle: warning: The cuda execution provider is not available \(onnxruntime-node was installed without its CUDA provider.*running on the CPU\. Install the CUDA provider with `npm explore onnxruntime-node -- node script\/install --onnxruntime-node-install=cuda12`/,
    );
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('fails with one line for a folder that is not a model', async () => {
    const file = join(dir, 'context3.json');
    writeFileSync(file, JSON.stringify(context));
    const io = captureIo();
    expect(await runCli(['predict', '--backend', 'onnx', '--model', dir, '--context', file], io)).toBe(1);
    expect(io.err()).toMatch(/onnx backend is not available: .*onnx\/model\.onnx/);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('refuses --device without --backend onnx', async () => {
    const file = join(dir, 'context4.json');
    writeFileSync(file, JSON.stringify(context));
    const io = captureIo();
    expect(await runCli(['predict', '--device', 'cuda', '--context', file], io)).toBe(2);
    expect(io.err()).toMatch(/--device needs --backend/);
  });
});
