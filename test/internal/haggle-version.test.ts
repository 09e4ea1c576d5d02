import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { HAGGLE_VERSION } from '../../src/internal/haggle-version.js';

const root = new URL('../..', import.meta.url).pathname;
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

it("HAGGLE_VERSION is package.json's version, and the CLI run from the sources says it too", () => {
  expect(HAGGLE_VERSION).toBe(version);
  const cli = execFileSync(process.execPath, ['--import', 'tsx', `${root}src/cli/bin.ts`, '--version'], {
    encoding: 'utf8',
  });
  expect(cli.trim()).toBe(version);
});
