/**
 * What SIGINT (Ctrl-C) and SIGTERM (a scheduler, `kill`, a container stopping) do to the CLI.
 *
 * The verbs that hold work in flight (sessions, matches, a prediction, a server) stop cleanly: the first
 * signal aborts the run, every finished session is already on file and the resume command is printed; a
 * second signal exits at once with 130. The verbs that play no negotiations (show, report, compare,
 * analyse, merge, suite: they read files, print, and write one file at most) keep the operating
 * system's default, which ends the process at once, even in the middle of reading a file synchronously:
 * a JavaScript handler only runs when the event loop turns, and `haggle merge /dev/zero /dev/zero` with
 * a handler installed ignored SIGTERM while it read.
 */

/** The verbs that take the abort signal (see main.ts): each stops its own work when it fires. */
const STOPPABLE_VERBS: ReadonlySet<string> = new Set([
  'simulate',
  'predict',
  'evaluate',
  'serve',
  'model',
  // `env sessions` only converts a file: it keeps the default, as the other file verbs do.
  'env serve',
]);

/**
 * An abort signal for the verb of `argv`, fired by the first SIGINT or SIGTERM when the verb can stop
 * cleanly; for any other verb no handler is installed and the returned signal never fires.
 */
export function stopSignalFor(argv: readonly string[]): AbortSignal {
  const controller = new AbortController();
  const verb = argv[0] === 'env' ? `env ${argv[1] ?? ''}` : (argv[0] ?? '');
  if (!STOPPABLE_VERBS.has(verb)) return controller.signal;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      controller.abort(new Error(signal === 'SIGINT' ? 'interrupted' : 'terminated (SIGTERM)'));
      for (const again of ['SIGINT', 'SIGTERM'] as const) process.once(again, () => process.exit(130));
    });
  }
  return controller.signal;
}
