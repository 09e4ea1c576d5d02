import type { Command } from 'commander';
import { HaggleError } from '../contract/errors.js';
import { RunFileError } from '../simulation/errors.js';
import { redactSecrets } from './redact-arguments.js';

/** The arguments as typed (commander keeps them on the program as `rawArgs`, untyped). */
export function rawArguments(command: Command): string[] {
  const raw = (command.parent as { rawArgs?: unknown } | null)?.rawArgs;
  const args = Array.isArray(raw) ? raw.map(String) : [];
  // Parsed from `process.argv` the list starts with node and the script; from the user, with the command.
  const at = args.indexOf(command.name());
  return at >= 0 ? args.slice(at) : [command.name()];
}

/**
 * The command that continues a run: the same arguments, secrets redacted, `--overwrite` dropped (it
 * would throw the kept work away) and `--resume` added.
 */
export function resumeCommand(argv: readonly string[]): string {
  const args = redactSecrets(argv.filter((arg) => arg !== '--overwrite' && arg !== '--resume'));
  return ['haggle', ...args, '--resume'].map(shellQuote).join(' ');
}

/**
 * A run-file failure that left resumable work on file (a full disk mid-run, a final rewrite that could
 * not be made) gets the command that continues the run, in the same one line.
 */
export function withResumeHint(error: unknown, argv: readonly string[]): unknown {
  if (!(HaggleError.isInstance(error) && error instanceof RunFileError && error.resumable)) return error;
  const detail = error.message.startsWith(`${error.path}: `)
    ? error.message.slice(error.path.length + 2)
    : error.message;
  return new RunFileError({
    path: error.path,
    message: `${detail}; once fixed, resume with: ${resumeCommand(argv)}`,
    cause: error,
    ...(error.systemCode ? { systemCode: error.systemCode } : {}),
    resumable: true,
  });
}

export function shellQuote(arg: string): string {
  if (arg.includes('"$HAGGLE_API_KEY"')) return arg; // left for the shell to expand
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
