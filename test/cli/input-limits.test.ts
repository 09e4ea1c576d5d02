import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CliUsageError } from '../../src/cli/errors.js';
import { runCli } from '../../src/cli/main.js';
import { readJsonInput } from '../../src/cli/read-json-input.js';
import { generateSuite, loadSuite, saveSuite } from '../../src/evaluation/suite.js';
import { TurnSchema } from '../../src/index.js';
import { DEFAULT_MAX_INPUT_BYTES, maxInputBytes } from '../../src/internal/environment.js';
import { captureIo } from '../helpers/capture-io.js';
import { CONTEXT } from '../helpers/fixtures.js';

// Issue 17, item 5: every JSON input of the CLI is read with a ceiling, fails in one line with exit
// code 2 past it (an endless /dev/zero included), and a UTF-8 byte-order mark is accepted.

const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
const BOM = '\uFEFF';

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'haggle-input-'));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('CLI inputs: size limit and byte-order mark', () => {
  it('the default ceiling is 64 MiB, and HAGGLE_MAX_INPUT_MIB changes it', () => {
    expect(DEFAULT_MAX_INPUT_BYTES).toBe(64 * 1024 * 1024);
    expect(maxInputBytes({})).toBe(DEFAULT_MAX_INPUT_BYTES);
    expect(maxInputBytes({ HAGGLE_MAX_INPUT_MIB: '2' })).toBe(2 * 1024 * 1024);
    // Nonsense keeps the default rather than lifting the ceiling.
    expect(maxInputBytes({ HAGGLE_MAX_INPUT_MIB: 'lots' })).toBe(DEFAULT_MAX_INPUT_BYTES);
    expect(maxInputBytes({ HAGGLE_MAX_INPUT_MIB: '0' })).toBe(DEFAULT_MAX_INPUT_BYTES);
  });

  it('predict --context /dev/zero fails with the size error and exit code 2, in one line', async () => {
    const io = captureIo();
    expect(await runCli(['predict', '--context', '/dev/zero'], io)).toBe(2);
    expect(io.err()).toBe(
      'haggle: cannot read context file /dev/zero: it is larger than the 64 MiB limit for inputs; pass a smaller file, or raise the limit with HAGGLE_MAX_INPUT_MIB\n',
    );
  });

  it('simulate --contexts and evaluate --suite refuse /dev/zero the same way', async () => {
    const simulate = captureIo();
    expect(await runCli(['simulate', '--contexts', '/dev/zero', '-n', '1'], simulate)).toBe(2);
    expect(simulate.err()).toMatch(
      /^haggle: cannot read contexts file \/dev\/zero: it is larger than the 64 MiB limit/,
    );
    const evaluate = captureIo();
    expect(await runCli(['evaluate', '--suite', '/dev/zero', '--arm', 'any'], evaluate)).toBe(2);
    expect(evaluate.err()).toMatch(
      /larger than the 64 MiB limit for inputs; pass a smaller file, or raise the limit with HAGGLE_MAX_INPUT_MIB\n$/,
    );
    expect(evaluate.err().trim().split('\n')).toHaveLength(1);
  });

  it('a file one byte over the limit is refused, one at the limit is read', () => {
    const dir = tmp();
    const limit = 1024;
    const atLimit = join(dir, 'at.json');
    const over = join(dir, 'over.json');
    const body = (size: number) =>
      `${JSON.stringify({ pad: '' })}`.replace('""', `"${'a'.repeat(size - 10)}"`);
    writeFileSync(atLimit, body(limit));
    writeFileSync(over, body(limit + 1));
    expect(Buffer.byteLength(body(limit))).toBe(limit);
    const noStdin = () => '';
    expect(readJsonInput(atLimit, 'context file', noStdin, limit)).toEqual({ pad: 'a'.repeat(limit - 10) });
    expect(() => readJsonInput(over, 'context file', noStdin, limit)).toThrow(CliUsageError);
    expect(() => readJsonInput(over, 'context file', noStdin, limit)).toThrow(
      `cannot read context file ${over}: it is larger than the ${limit} bytes limit for inputs`,
    );
    // Standard input is held to the same ceiling, whatever reader the CliIo has.
    expect(() => readJsonInput('-', 'context file', () => body(limit + 1), limit)).toThrow(/larger than/);
  });

  it('HAGGLE_MAX_INPUT_MIB lowers the ceiling for a real run', async () => {
    const file = join(tmp(), 'context.json');
    writeFileSync(
      file,
      JSON.stringify({ ...CONTEXT, item: { ...CONTEXT.item, description: 'd'.repeat(2000) } }),
    );
    vi.stubEnv('HAGGLE_MAX_INPUT_MIB', String(1024 / (1024 * 1024))); // 1 KiB
    const io = captureIo();
    expect(await runCli(['predict', '--context', file], io)).toBe(2);
    expect(io.err()).toMatch(/larger than the 1024 bytes limit/);
  });

  it('accepts JSON files that start with a UTF-8 byte-order mark: context, history, contexts, suite', async () => {
    const dir = tmp();
    const context = join(dir, 'context.json');
    const history = join(dir, 'history.json');
    const contexts = join(dir, 'contexts.json');
    writeFileSync(context, BOM + JSON.stringify(CONTEXT));
    writeFileSync(history, `${BOM}[]`);
    writeFileSync(contexts, BOM + JSON.stringify([CONTEXT]));
    const predict = captureIo();
    expect(
      await runCli(['predict', '--context', context, '--history', history, '--seed', '1'], predict),
    ).toBe(0);
    expect(TurnSchema.safeParse(JSON.parse(predict.out())).success).toBe(true);
    const simulate = captureIo();
    expect(await runCli(['simulate', '--contexts', contexts, '--json'], simulate)).toBe(0);

    const suite = join(dir, 'suite.json');
    const generated = generateSuite({ scenarios: 2, seedsPerPair: 1 });
    saveSuite(suite, generated);
    const { readFileSync } = await import('node:fs');
    writeFileSync(suite, BOM + readFileSync(suite, 'utf8'));
    expect(loadSuite(suite).id).toBe(generated.id);
    // And from standard input.
    const stdin = captureIo(BOM + JSON.stringify(CONTEXT));
    expect(await runCli(['predict', '--context', '-', '--role', 'buyer'], stdin)).toBe(0);
  });

  it('the real CLI refuses an endless standard input (predict --context - < /dev/zero) with exit code 2', async () => {
    const ran = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'predict', '--context', '-'], {
        stdio: [openSync('/dev/zero', 'r'), 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'haggle: cannot read context file -: it is larger than the 64 MiB limit for inputs; pass a smaller file, or raise the limit with HAGGLE_MAX_INPUT_MIB\n',
    );
  }, 30_000);
});
