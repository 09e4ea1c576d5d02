#!/usr/bin/env node
// The `haggle` command: the built CLI lives in dist/ (npm ci builds it through the `prepare` script).
import('../dist/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('haggle: the package is not built yet; run `npm run build` (npm ci does it for you).');
    process.exit(1);
  }
  throw error;
});
