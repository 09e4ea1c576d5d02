import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { ExperimentFileError } from '../../src/evaluation/experiment-file.js';
import { loadExperiment } from '../../src/evaluation/index.js';
import { captureIo } from '../helpers/capture-io.js';

// The mistakes a new user makes first (a file given to the wrong command, a mistyped path): each
// answer is one line that names what to do, not an internal word ("record type", ENOENT, Optimum).
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-first-'));

async function cli(args: string[]): Promise<{ code: number; err: string }> {
  const io = captureIo();
  const code = await runCli(args, io);
  expect(io.err().trim().split('\n'), io.err()).toHaveLength(1);
  return { code, err: io.err() };
}

describe('first mistakes get a message that says what to run instead', () => {
  it('haggle show and compare on a tournament file names haggle analyse', async () => {
    const dir = tmp();
    const suite = join(dir, 'suite.json');
    const tournament = join(dir, 'eval.jsonl');
    expect((await cli(['suite', '--out', suite, '--scenarios', '2', '--seeds-per-pair', '1'])).code).toBe(0);
    const io = captureIo();
    expect(
      await runCli(['evaluate', '--suite', suite, '--arm', 'utility-linear', '--out', tournament], io),
    ).toBe(0);
    for (const command of [['show'], ['compare', '--reference', tournament]]) {
      const { code, err } = await cli([...command, tournament]);
      expect(code).not.toBe(0);
      expect(err).toContain('tournament file');
      expect(err).toContain('haggle analyse');
      expect(err).not.toContain('unknown record type');
    }
  });

  it('haggle analyse on a run of sessions names report, show and compare', async () => {
    const run = join(tmp(), 'run.jsonl');
    expect((await cli(['simulate', '--sessions', '2', '--out', run])).code).toBe(0);
    const { code, err } = await cli(['analyse', run]);
    expect(code).not.toBe(0);
    expect(err).toContain('haggle report');
    expect(err).not.toContain('unknown record type');
  });

  it('haggle serve --model on a missing folder says "no such folder" and names haggle model build and pull', async () => {
    const missing = join(tmp(), 'no-model-here');
    const { code, err } = await cli(['serve', '--backend', 'onnx', '--model', missing, '--port', '0']);
    expect(code).toBe(1);
    expect(err).toContain(`${missing}: no such folder`);
    expect(err).toContain('haggle model build');
    expect(err).toContain('haggle model pull');
    expect(err).not.toContain('Optimum');
  });

  it('a folder without the graph names haggle model build, and a file is not a folder', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'empty'));
    const empty = await cli(['serve', '--backend', 'onnx', '--model', join(dir, 'empty'), '--port', '0']);
    expect(empty.err).toContain('no onnx/');
    expect(empty.err).toContain('haggle model build');
    writeFileSync(join(dir, 'model.onnx'), '');
    const file = await cli(['serve', '--backend', 'onnx', '--model', join(dir, 'model.onnx'), '--port', '0']);
    expect(file.err).toContain('is a file, not a folder');
  });

  it('haggle evaluate --experiment on a missing file: a typed error naming the file, no ENOENT', async () => {
    const missing = join(tmp(), 'missing.json');
    const { code, err } = await cli(['evaluate', '--experiment', missing]);
    expect(code).toBe(2);
    expect(err).toBe(
      `haggle: Cannot read the experiment file ${missing}: no such file (check the path; it is read from the current folder)\n`,
    );
    const error = (() => {
      try {
        return loadExperiment(missing);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ExperimentFileError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(ExperimentFileError);
    expect((error as ExperimentFileError).file).toBe(missing);
  });
});
