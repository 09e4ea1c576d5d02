import { defineConfig } from 'tsup';

// Two formats with a declaration file each, so that both `import` and `require` users get types
// that match the module they load (checked by @arethetypeswrong/cli in `npm test`).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' } },
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
});
