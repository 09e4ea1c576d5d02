/**
 * The main entry's Node build: everything in the core (src/core.ts, the build for browsers, Deno and edge
 * runtimes), with the Node-only pieces of its layers (src/node) in place of their fetch-only or file-less
 * counterparts. The other layers are reached through their subpaths only (`haggle/server`, ...).
 */
export * from './core.js';
export * from './node/index.js';
// Explicit names win over `export *`: these two replace the core's builds of the same names.
export { OpenAICompatibleBackend, simulate } from './node/index.js';
