import type { CliIo } from '../../src/cli/io.js';

/** Captures what the CLI writes, for assertions. */
export function captureIo(stdin = ''): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (text: string) => (out += text), isTTY: false },
    stderr: { write: (text: string) => (err += text), isTTY: false },
    readStdin: () => stdin,
    out: () => out,
    err: () => err,
  };
}
