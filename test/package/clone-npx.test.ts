// `npx haggle` inside the clone: npm 11 links the clone into npx's cache and runs its `prepare`
// script again. That second `prepare` must find dist/ up to date and build nothing (it took 38.7 s
// and 1.08 GB when it rebuilt), and the CLI must run.
//
// Needs dist/ built from the current sources (`npm test` builds before the unit tests).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../onnx/fixture-model.js';

const execFileAsync = promisify(execFile);
const npmCache = mkdtempSync(join(tmpdir(), 'haggle-npx-cache-'));

afterAll(() => rmSync(npmCache, { recursive: true, force: true }));

describe('npx haggle in a clone', () => {
  it('prepare --if-stale finds dist/ built from these sources', async () => {
    const { stderr } = await execFileAsync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
      cwd: repoRoot,
      env: { ...process.env, HAGGLE_REFUSE_BUILD: '1' },
    });
    expect(stderr).toContain('dist/ is up to date');
    expect(readFileSync(join(repoRoot, 'dist', '.build-fingerprint'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('runs the CLI with an empty npx cache and no rebuild', async () => {
    // HAGGLE_REFUSE_BUILD=1: a `prepare` that would build exits 1, and npx with it.
    const { stdout } = await execFileAsync('npx', ['haggle', '--version'], {
      cwd: repoRoot,
      env: { ...process.env, HAGGLE_REFUSE_BUILD: '1', npm_config_cache: npmCache, npm_config_yes: 'true' },
      timeout: 60_000,
    });
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(stdout.trim()).toBe(version);
  }, 90_000);
});
