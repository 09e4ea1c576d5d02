/**
 * haggle's version, exactly as package.json says. A literal rather than a build-time replacement or a
 * file read, so that every way haggle runs (the ESM and CommonJS builds, the CLI, sources under tsx or
 * vitest, a browser bundle) records the same string. `npm version` rewrites it (the `version` script
 * runs scripts/sync-version.mjs), and test/internal/haggle-version.test.ts fails if it drifts from
 * package.json.
 */
export const HAGGLE_VERSION = '0.1.0';
