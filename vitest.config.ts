import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Examples import 'haggle' as users do; tests run them against the source, no build needed.
    // Each subpath is its entry file, as tsup builds them; 'haggle' is the main entry's Node build, as in Node.
    alias: [
      { find: /^haggle\/node$/, replacement: fileURLToPath(new URL('./src/node/index.ts', import.meta.url)) },
      {
        find: /^haggle\/(decoding|evaluation|report|server|onnx|testing|ai-sdk)$/,
        replacement: `${fileURLToPath(new URL('./src/entries/', import.meta.url))}$1.ts`,
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
