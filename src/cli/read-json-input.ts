import { readFileSync } from 'node:fs';
import { CliUsageError } from './cli-error.js';

/** Reads and parses a JSON file, or standard input when the path is `-`. */
export function readJsonInput(path: string, what: string, stdin: () => string): unknown {
  let text: string;
  try {
    text = path === '-' ? stdin() : readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(error);
    throw new CliUsageError(`cannot read ${what} ${path}: ${why}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}
