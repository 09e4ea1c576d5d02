import { runCli } from './main.js';

// Ctrl-C (SIGINT) or SIGTERM (a scheduler, `kill`, a container stopping) stops the run cleanly: every
// finished session is already on file and the resume command is printed. A second signal exits at once.
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    controller.abort(new Error(signal === 'SIGINT' ? 'interrupted' : 'terminated (SIGTERM)'));
    for (const again of ['SIGINT', 'SIGTERM'] as const) process.once(again, () => process.exit(130));
  });
}

runCli(process.argv.slice(2), undefined, controller.signal).then((code) => {
  process.exitCode = code;
});
