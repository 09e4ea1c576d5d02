import { defineConfig } from 'tsup';

// haggle's version is a literal in src/internal/haggle-version.ts (kept equal to package.json by the
// `version` script and a test), so no build-time replacement is needed.

export default defineConfig([
  {
    // The library: ESM and CommonJS with a declaration file each, so both `import` and `require` users
    // get types that match the module they load (checked by @arethetypeswrong/cli in `npm test`).
    entry: {
      index: 'src/index.ts',
      testing: 'src/testing/index.ts',
      onnx: 'src/onnx/index.ts',
      // The decode loop's worker thread, found next to the onnx entry at run time.
      'onnx-worker': 'src/onnx/onnx-worker.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    target: 'node20',
    platform: 'node',
    sourcemap: true,
    clean: false, // `npm run build` empties dist first; two configs cleaning in parallel would race
    treeshake: true,
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
