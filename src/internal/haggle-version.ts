/**
 * haggle's version, exactly as package.json says. tsup replaces `__HAGGLE_VERSION__` with the string
 * when it builds (ESM, CommonJS and the CLI alike; see tsup.config.ts), so the built package needs no
 * file read at run time; vitest.config.ts defines it the same way for tests that run the sources.
 * Anything else that runs the sources directly (tsx) gets `0.0.0-dev`, which no release carries.
 */
declare const __HAGGLE_VERSION__: string | undefined;

export const HAGGLE_VERSION: string =
  typeof __HAGGLE_VERSION__ === 'string' ? __HAGGLE_VERSION__ : '0.0.0-dev';
