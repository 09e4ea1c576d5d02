import { defineConfig } from 'tsup';

// haggle's version is a literal in src/internal/haggle-version.ts (kept equal to package.json by the
// `version` script and a test), so no build-time replacement is needed.

export default defineConfig([
  {
    // The library: ESM and CommonJS with a declaration file each, so both `import` and `require` users
    // get types that match the module they load (checked by @arethetypeswrong/cli in `npm test`).
    // `index` is the main entry's Node build, `core` its build for every other runtime (package.json's
    // conditions choose); the rest are the layers' subpaths (src/entries: one file each, with the
    // subpath's documentation). Code splitting shares modules between them, so a class is one class
    // whichever entry it came through.
    entry: {
      index: 'src/index.ts',
      core: 'src/core.ts',
      node: 'src/node/index.ts',
      metrics: 'src/entries/metrics.ts',
      decoding: 'src/entries/decoding.ts',
      evaluation: 'src/entries/evaluation.ts',
      report: 'src/entries/report.ts',
      env: 'src/entries/env.ts',
      server: 'src/entries/server.ts',
      testing: 'src/entries/testing.ts',
      onnx: 'src/entries/onnx.ts',
      'ai-sdk': 'src/entries/ai-sdk.ts',
      // The decode loop's worker thread, found next to the onnx entry at run time.
      'onnx-worker': 'src/onnx/onnx-worker.ts',
      // Compiles clients' schemas apart from the model (OnnxLoadOptions.untrustedSchemas).
      'schema-vetting-worker': 'src/onnx/schema-vetting-worker.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    clean: false, // `npm run build` empties dist first; two configs cleaning in parallel would race
    treeshake: true,
    // For CommonJS too (tsup's experimental splitting): without it each `.cjs` entry held its own copy
    // of every class, and `instanceof` failed between `require('haggle')` and `require('haggle/node')`.
    splitting: true,
  },
  {
    // The CLI is only ever run by `bin/haggle.js`, an ES module: one format is enough.
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    clean: false,
  },
]);
