import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const repoRoot = new URL('../..', import.meta.url).pathname;

/** Runs an example as a user would (`npx tsx examples/x.ts`); 'haggle' resolves to the source. */
export async function runExample(name: string, ...args: string[]): Promise<string> {
  return (await runExampleOutput(name, ...args)).stdout;
}

/** `runExample`, with what the example wrote on stderr too. */
export async function runExampleOutput(
  name: string,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return await run(process.execPath, ['--import', 'tsx', join(repoRoot, 'examples', name), ...args], {
    cwd: repoRoot,
    timeout: 120_000,
  });
}
