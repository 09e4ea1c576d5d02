import type { Command } from 'commander';
import { writeBestOfferSessions } from '../env/best-offer-sessions.js';
import type { CliIo } from './io.js';

/**
 * `haggle env sessions RUN.jsonl --out SESSIONS.jsonl`: the Best Offer sessions of a best-offer
 * environment's run file, as the session lines `haggle report`, `haggle show` and `haggle compare` read (`haggle
 * analyse` reads multi-issue run files; a best-offer episode is a Session, not a match).
 */
export function registerEnvSessionsCommand(env: Command, io: CliIo): void {
  env
    .command('sessions')
    .description(
      "write a best-offer environment's episodes as session lines (what haggle report, show and compare read)",
    )
    .argument('<run>', 'run file written by haggle env serve --env best-offer-seller|best-offer-buyer --out')
    .requiredOption('-o, --out <file>', 'JSONL file of session lines to write')
    .action((run: string, options: { out: string }) => {
      const count = writeBestOfferSessions(run, options.out);
      io.stdout.write(
        `${count} sessions written to ${options.out} (haggle report, haggle show, haggle compare read it)\n`,
      );
    });
}
