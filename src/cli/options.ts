import type { Command } from 'commander';
import { CliUsageError } from './errors.js';

/** Parses an integer option, with the option's name in the error. */
export function parseIntegerOption(name: string, min: number, max: number) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new CliUsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
}

export function parseChoice<T extends string>(name: string, choices: readonly T[]) {
  return (raw: string): T => {
    if (!(choices as readonly string[]).includes(raw)) {
      throw new CliUsageError(`--${name} must be one of ${choices.join(', ')}; got "${raw}"`);
    }
    return raw as T;
  };
}

/** A comma-separated option value as its non-empty parts, trimmed (`a, b,,c` → a, b, c). */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Parses `--margin` in percentage points (`2.5` is ±2.5 pp) into a share (0.025): the equivalence
 * margin of the verdicts, a positive number below 100.
 */
export function parseMarginOption(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value <= 0 || value >= 100)
    throw new CliUsageError(
      `--margin must be percentage points above 0 and below 100 (2.5 is ±2.5 pp), got "${raw}"`,
    );
  return value / 100;
}

/**
 * `--port` and `--host` of a command that listens (`haggle serve`, `haggle env serve`): one definition,
 * so both servers take the same flags with the same defaults (8000 on loopback: haggle's choice, a
 * server reachable from other machines is asked for by name with `--host 0.0.0.0`).
 */
export function withListenOptions<T extends Command>(command: T): T {
  command
    .option(
      '-p, --port <port>',
      'port to listen on (0: any free port)',
      parseIntegerOption('port', 0, 65_535),
      8000,
    )
    .option('--host <address>', 'address to listen on (0.0.0.0 for other machines)', '127.0.0.1');
  return command;
}
