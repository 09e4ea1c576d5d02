import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';
import { workerEntry } from '../../src/onnx/worker-entry.js';
import { fixtureModel, repoRoot } from './fixture-model.js';

const run = promisify(execFile);

describe('the ONNX worker entry', () => {
  it('from the sources: a bootstrap that loads onnx-worker.ts through tsx', () => {
    const entry = workerEntry(pathToFileURL(join(repoRoot, 'src/onnx/worker-entry.ts')).href);
    expect(entry.kind).toBe('eval');
    if (entry.kind !== 'eval') return;
    expect(entry.target.pathname).toMatch(/src\/onnx\/onnx-worker\.ts$/);
    expect(entry.code).toMatch(/tsx\/dist\/esm\/api\/index\.mjs/);
  });

  it('built: the onnx-worker.js file next to the module', () => {
    const dir = mkdtempSync(join(repoRoot, '.cache', 'worker-entry-'));
    try {
      writeFileSync(join(dir, 'onnx-worker.js'), '');
      const entry = workerEntry(pathToFileURL(join(dir, 'onnx.cjs')).href);
      expect(entry).toEqual({ kind: 'file', url: pathToFileURL(join(dir, 'onnx-worker.js')) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The built setting end to end: bundle haggle/onnx and its worker as tsup does for dist/, then load
  // the tiny model from the ESM and the CommonJS bundle in a plain `node` process (no tsx anywhere).
  it('built: ESM and CommonJS bundles start the worker and generate', { timeout: 120_000 }, async () => {
    const out = join(repoRoot, '.cache', 'onnx-dist-test');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    await build({
      entry: { onnx: 'src/onnx/index.ts', 'onnx-worker': 'src/onnx/onnx-worker.ts' },
      format: ['esm', 'cjs'],
      outDir: out,
      target: 'node20',
      platform: 'node',
      external: ['onnxruntime-node'],
      dts: false,
      silent: true,
      config: false,
    });
    const model = fixtureModel(1);
    const script = (load: string) =>
      `${load}.then(async ({ OnnxBackend }) => {
        const b = await OnnxBackend.load(${JSON.stringify(model)});
        const r = await b.doGenerate({ prompt: { messages: [], text: 'Hi' }, seed: 1, maxTokens: 5 });
        await b.dispose();
        console.log(JSON.stringify({ device: b.device, tokens: r.usage.completionTokens }));
      })`;
    const esm = await run(process.execPath, [
      '--input-type=module',
      '-e',
      script(`import(${JSON.stringify(pathToFileURL(join(out, 'onnx.js')).href)})`),
    ]);
    expect(JSON.parse(esm.stdout)).toEqual({ device: 'cpu', tokens: 5 });
    // With a process-wide V8 flag a worker refuses: the worker starts without it.
    const cjs = await run(process.execPath, [
      '--expose-gc',
      '-e',
      script(`Promise.resolve(require(${JSON.stringify(join(out, 'onnx.cjs'))}))`),
    ]);
    expect(JSON.parse(cjs.stdout)).toEqual({ device: 'cpu', tokens: 5 });
  });
});
