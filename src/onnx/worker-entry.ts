import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { onnxModelFolderError } from './errors.js';

/** What to hand to `new Worker()`: a script file, or (from the sources) a bootstrap to evaluate. */
export type WorkerEntry = { kind: 'file'; url: URL } | { kind: 'eval'; code: string; target: URL };

/**
 * The URL of this module: `import.meta.url` in ESM (sources, dist/*.js); in the CommonJS build,
 * where esbuild empties `import.meta`, `__filename`.
 */
export function moduleUrl(): string {
  const meta = import.meta as { url?: string };
  if (typeof meta.url === 'string') return meta.url;
  return pathToFileURL(__filename).href;
}

/** The worker scripts of haggle/onnx: the decode loop's, and the one that vets clients' schemas. */
export type WorkerScript = 'onnx-worker' | 'schema-vetting-worker';

/**
 * Finds a worker script next to this module. Built: tsup emits `onnx-worker.js` (and `.cjs`) beside
 * `onnx.js` in dist/, ready to run. From the sources (vitest, `tsx examples/...`): only
 * `onnx-worker.ts` exists, and a worker thread inherits neither the parent's loader hooks nor (on
 * Node 20) honours `--import` in its `execArgv`, so a one-line bootstrap loads the file through tsx's
 * `tsImport` API (a dev dependency: only the sources need it). Resolved to absolute URLs, so the
 * caller's cwd does not matter.
 */
export function workerEntry(from: string = moduleUrl(), script: WorkerScript = 'onnx-worker'): WorkerEntry {
  for (const extension of ['js', 'mjs', 'cjs']) {
    const url = new URL(`./${script}.${extension}`, from);
    if (existsSync(url)) return { kind: 'file', url };
  }
  const source = new URL(`./${script}.ts`, from);
  if (existsSync(source)) {
    const api = tsxImportApi(from);
    const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(source.href)}))`;
    return { kind: 'eval', code, target: source };
  }
  throw onnxModelFolderError(
    fileURLToPath(new URL('.', from)),
    `the worker script ${script}.js is missing next to the haggle/onnx module (a broken install?)`,
  );
}

/** The ESM entry of `tsx/esm/api`, read from tsx's package.json (require.resolve would pick the CJS one). */
function tsxImportApi(from: string): string {
  const require = createRequire(from);
  let manifest: string;
  try {
    manifest = require.resolve('tsx/package.json');
  } catch (error) {
    throw onnxModelFolderError(
      fileURLToPath(new URL('.', from)),
      'running haggle/onnx from its TypeScript sources needs the tsx package (npm install -D tsx)',
      error,
    );
  }
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> })
    .exports;
  const api = exports?.['./esm/api'] as { import?: { default?: string } } | undefined;
  const relative = api?.import?.default ?? './dist/esm/api/index.mjs';
  return pathToFileURL(join(dirname(manifest), relative)).href;
}
