import { parseShard, type Shard } from '../simulation/shard.js';
import { CliUsageError } from './errors.js';

/** Parses `--shard K/N` (1 <= K <= N); whether N fits the run is checked once the run's size is known. */
export function parseShardOption(raw: string): Shard {
  const shard = parseShard(raw);
  if (!shard || shard.count < 1 || shard.index < 1 || shard.index > shard.count) {
    throw new CliUsageError(
      `--shard must be K/N with 1 <= K <= N (e.g. 2/3 for the second of three), got "${raw}"`,
    );
  }
  return shard;
}
