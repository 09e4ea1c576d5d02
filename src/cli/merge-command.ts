import type { Command } from 'commander';
import { mergeRuns } from '../simulation/merge-runs.js';
import type { CliIo } from './io.js';

interface MergeCliOptions {
  out: string;
  overwrite?: boolean;
}

/**
 * `haggle merge SHARD... --out FILE`: joins the shards of one run (`simulate --shard K/N`) or one
 * tournament (`evaluate --shard K/N`) into the file the whole run would have written on one machine.
 */
export function registerMergeCommand(program: Command, io: CliIo): void {
  program
    .command('merge')
    .description('join the shard files of one run or tournament (--shard K/N) into the file of the whole run')
    .argument('<files...>', 'every shard file of the run, in any order')
    .requiredOption('-o, --out <file>', 'the merged file (parent folders are created)')
    .option('--overwrite', 'replace an existing --out')
    .action((files: string[], options: MergeCliOptions) => {
      const merged = mergeRuns(files, options.out, {
        ...(options.overwrite ? { overwrite: true } : {}),
        onNote: (message) => io.stderr.write(`haggle: note: ${message}\n`),
      });
      const noun = merged.kind === 'run' ? 'sessions' : 'matches';
      io.stdout.write(`merged ${merged.shards} shards into ${merged.out} (${merged.records} ${noun})\n`);
    });
}
