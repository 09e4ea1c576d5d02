import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HaggleError } from '../../src/index.js';
import { OptionalDependencyMissingError } from '../../src/onnx/index.js';
import { assertOnnxRuntimeInstalled } from '../../src/onnx/runtime-package.js';
import { fixtureModel, repoRoot } from './fixture-model.js';

const run = promisify(execFile);
/** What `npm install haggle` installs beside it: its dependencies (onnxruntime-node is a peer). */
const dependencies = Object.keys(
  (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
);

/** A folder outside the repository, so no node_modules above it holds onnxruntime-node. */
function folderWithoutPackages(): string {
  return mkdtempSync(join(tmpdir(), 'haggle-no-ort-'));
}

describe('onnxruntime-node missing', () => {
  it('resolved from a folder without it: OptionalDependencyMissingError with the install command', () => {
    const dir = folderWithoutPackages();
    try {
      let caught: unknown;
      try {
        assertOnnxRuntimeInstalled(pathToFileURL(join(dir, 'onnx.js')).href);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(OptionalDependencyMissingError);
      expect(HaggleError.isInstance(caught) && caught.code).toBe('optional-dependency-missing');
      const missing = caught as OptionalDependencyMissingError;
      expect(missing.packageName).toBe('onnxruntime-node');
      expect(missing.installCommand).toBe('npm install onnxruntime-node');
      expect(missing.message).toContain('`npm install onnxruntime-node`');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolved from the sources, where the dev dependency is installed: no error', () => {
    expect(() =>
      assertOnnxRuntimeInstalled(pathToFileURL(join(repoRoot, 'src/onnx/onnx.ts')).href),
    ).not.toThrow();
  });

  // The shipped code end to end: haggle/onnx, its worker and the CLI bundled as dist/ is (dependencies
  // left as imports), in a folder outside the repository whose node_modules holds the package's
  // dependencies, as `npm install haggle` leaves them, and not its optional peer onnxruntime-node; run
  // by a plain `node` with no NODE_PATH.
  describe('built, installed without it', () => {
    let dir: string;
    beforeAll(async () => {
      dir = folderWithoutPackages();
      await build({
        entry: {
          onnx: 'src/onnx/index.ts',
          'onnx-worker': 'src/onnx/onnx-worker.ts',
          cli: 'src/cli/bin.ts',
        },
        format: ['esm'],
        outDir: dir,
        target: 'node20',
        platform: 'node',
        external: ['onnxruntime-node', ...dependencies],
        dts: false,
        silent: true,
        config: false,
      });
      // The bundles are ES modules, like dist/*.js under the package's "type": "module".
      writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
      for (const name of dependencies) {
        mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
        symlinkSync(join(repoRoot, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
      }
    }, 120_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const env = () => {
      const { NODE_PATH: _path, NODE_OPTIONS: _options, ...rest } = process.env;
      return rest;
    };

    it('OnnxBackend.load rejects with OptionalDependencyMissingError', async () => {
      const script = `import(${JSON.stringify(pathToFileURL(join(dir, 'onnx.js')).href)}).then(async (onnx) => {
        try {
          await onnx.OnnxBackend.load(${JSON.stringify(fixtureModel(1))});
          console.log('loaded');
        } catch (error) {
          console.log(JSON.stringify({ typed: error instanceof onnx.OptionalDependencyMissingError,
            name: error.name, code: error.code, message: error.message }));
        }
      })`;
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
        cwd: dir,
        env: env(),
        timeout: 60_000,
      });
      const result = JSON.parse(stdout) as { typed: boolean; name: string; code: string; message: string };
      expect(result).toMatchObject({
        typed: true,
        name: 'OptionalDependencyMissingError',
        code: 'optional-dependency-missing',
      });
      expect(result.message).toContain('npm install onnxruntime-node');
    });

    it('haggle serve --backend onnx fails at once, exit 1, one line naming the install command', async () => {
      const failure = await run(
        process.execPath,
        [join(dir, 'cli.js'), 'serve', '--backend', 'onnx', '--model', fixtureModel(1), '--port', '0'],
        { cwd: dir, env: env(), timeout: 60_000 },
      ).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('');
      const lines = failure?.stderr.trim().split('\n') ?? [];
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^haggle: .*needs the optional package onnxruntime-node.*`npm install onnxruntime-node`/,
      );
    });
  });
});
