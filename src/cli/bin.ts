import { runCli } from './main.js';

// Ctrl-C stops the run cleanly (what is written stays resumable); a second Ctrl-C exits at once.
const controller = new AbortController();
process.once('SIGINT', () => {
  controller.abort(new Error('interrupted'));
  process.once('SIGINT', () => process.exit(130));
});

runCli(process.argv.slice(2), undefined, controller.signal).then((code) => {
  process.exitCode = code;
});
