import { endQuietlyOnBrokenPipe } from './io.js';
import { runCli } from './main.js';
import { stopSignalFor } from './stop-signals.js';

const argv = process.argv.slice(2);
endQuietlyOnBrokenPipe(process.stdout);
endQuietlyOnBrokenPipe(process.stderr);
runCli(argv, undefined, stopSignalFor(argv)).then((code) => {
  process.exitCode = code;
});
