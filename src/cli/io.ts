import { readFileSync } from 'node:fs';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  stderr: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  readStdin(): string;
}

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: () => readFileSync(0, 'utf8'),
};
