import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { captureIo } from '../helpers/capture-io.js';

// docs/cli.md's `haggle serve` table against the flags the command takes (`haggle serve --help`): a flag
// added to the command and not to the table (as --cors was) fails here.
const repoRoot = new URL('../..', import.meta.url).pathname;

/** The text of a `### heading` section of a Markdown file, up to the next heading of any level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const next = markdown.slice(start + heading.length + 2).search(/\n#{1,6} /);
  return markdown.slice(start, next < 0 ? undefined : start + heading.length + 2 + next);
}

it("every flag of `haggle serve --help` has a row in docs/cli.md's haggle serve table", async () => {
  const io = captureIo();
  await runCli(['serve', '--help'], io);
  const flags = [...new Set(io.out().match(/--[a-z][a-z-]+/g) ?? [])].filter((flag) => flag !== '--help');
  expect(flags).toContain('--cors');
  expect(flags.length).toBeGreaterThan(15);
  const table = section(readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8'), '### haggle serve')
    .split('\n')
    .filter((line) => line.startsWith('| `-'))
    .join('\n');
  const documented = new Set(table.match(/--[a-z][a-z-]+/g));
  expect(flags.filter((flag) => !documented.has(flag))).toEqual([]);
});
