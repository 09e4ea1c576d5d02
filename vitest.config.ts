import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Examples import 'haggle' as users do; tests run them against the source, no build needed.
    alias: [
      { find: /^haggle\/onnx$/, replacement: fileURLToPath(new URL('./src/onnx/index.ts', import.meta.url)) },
      {
        find: /^haggle\/testing$/,
        replacement: fileURLToPath(new URL('./src/testing/index.ts', import.meta.url)),
      },
      { find: /^haggle$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
