import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** SHA-256 of a file, streamed (a 4 GB shard is never in memory), abortable between chunks. */
export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, { highWaterMark: 8 * 1024 * 1024, ...(signal ? { signal } : {}) });
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** One hash over several files' hashes (name and digest, in the order given). */
export function combinedHash(files: { name: string; sha256: string }[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file.name}\0${file.sha256}\n`);
  return hash.digest('hex');
}
