import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Examples import 'haggle' as users do; tests run them against the source, no build needed.
    // Each subpath is its folder's index (haggle/node included); 'haggle' is the Node build, as in Node.
    alias: [
      {
        find: /^haggle\/(node|decoding|evaluation|report|server|onnx|testing)$/,
        replacement: `${fileURLToPath(new URL('./src/', import.meta.url))}$1/index.ts`,
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
