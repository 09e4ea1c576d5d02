import { Command, CommanderError } from 'commander';
import { HaggleError } from '../contract/errors.js';
import { HAGGLE_VERSION } from '../internal/haggle-version.js';
import { registerAnalyseCommand } from './analyse-command.js';
import { registerCompareCommand } from './compare-command.js';
import { registerEnvCommand } from './env-command.js';
import { CliUsageError } from './errors.js';
import { registerEvaluateCommand } from './evaluate-command.js';
import { EXIT_FAILURES } from './failure-limit.js';
import { type CliIo, processIo, terminalSafeIo } from './io.js';
import { registerMergeCommand } from './merge-command.js';
import { registerModelCommand } from './model-build-command.js';
import { registerPredictCommand } from './predict-command.js';
import { registerReportCommand } from './report-command.js';
import { registerServeCommand } from './serve-command.js';
import { registerShowCommand } from './show-command.js';
import { registerSimulateCommand } from './simulate-command.js';
import { registerSuiteCommand } from './suite-command.js';

/**
 * Exit codes: 0 done; 1 failed while running (haggle itself, or a fatal error); 2 bad arguments or
 * input; 3 sessions or matches failed: more than `--max-error-rate` allows, none finished, or the run
 * stopped early because its first ones all failed alike; 130 interrupted.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo,
  signal?: AbortSignal,
): Promise<number> {
  io = terminalSafeIo(io);
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });

  const program = new Command('haggle')
    .description('LLM negotiation agents for online marketplaces')
    .version(HAGGLE_VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Commander's own errors become our one-line message below.
      outputError: () => {},
    })
    .showHelpAfterError(false);
  registerSimulateCommand(program, io, controller.signal);
  registerPredictCommand(program, io, controller.signal);
  registerReportCommand(program, io);
  registerShowCommand(program, io);
  registerCompareCommand(program, io);
  registerSuiteCommand(program, io);
  registerEvaluateCommand(program, io, controller.signal);
  registerAnalyseCommand(program, io);
  registerServeCommand(program, io, controller.signal);
  registerMergeCommand(program, io);
  registerEnvCommand(program, io, controller.signal);
  registerModelCommand(program, io, controller.signal);
  for (const command of program.commands) command.exitOverride().configureOutput({ outputError: () => {} });

  try {
    // `haggle` alone asks what there is: the help, on stdout, and success.
    if (argv.length === 0) {
      io.stdout.write(program.helpInformation());
      return 0;
    }
    await program.parseAsync(argv as string[], { from: 'user' });
    return 0;
  } catch (error) {
    return reportError(error, io);
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0; // --help, --version
    const cause = (error as { cause?: unknown }).cause;
    const message = cause instanceof CliUsageError ? cause.message : error.message.replace(/^error: /, '');
    io.stderr.write(`haggle: ${message}\n`);
    return 2;
  }
  // Before the HaggleError branch: a usage error is a HaggleError too (code `cli-usage`), and exits 2.
  if (error instanceof CliUsageError) {
    io.stderr.write(`haggle: ${error.message}\n`);
    return 2;
  }
  if (HaggleError.isInstance(error)) {
    io.stderr.write(`haggle: ${error.message}\n`);
    if (error.code === 'aborted') return 130;
    if (error.code === 'too-many-failures' || error.code === 'run-failed-early') return EXIT_FAILURES;
    return [
      'invalid-input',
      'run-file',
      'suite-file',
      'checkpoint-format',
      'unsupported-adapter',
      'build-output-exists',
    ].includes(error.code)
      ? 2
      : 1;
  }
  io.stderr.write(
    `haggle: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
}
