import { closeSync, openSync, readSync } from 'node:fs';
import { currentProvenance, provenanceChanges, type RunProvenance } from '../simulation/provenance.js';

/** The first line of a file, read in small pieces: a run file's header, without reading its sessions. */
function firstLine(path: string, limit = 1 << 20): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(64 * 1024);
    while (total < limit) {
      const read = readSync(fd, chunk, 0, chunk.length, total);
      if (read === 0) break;
      const newline = chunk.subarray(0, read).indexOf(0x0a);
      if (newline >= 0) {
        chunks.push(Buffer.from(chunk.subarray(0, newline)));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(Buffer.from(chunk.subarray(0, read)));
      total += read;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A note for `--resume` when the file was started elsewhere: another haggle, Node or platform, or
 * other servers. A resume does not refuse these (see simulation/provenance.ts); it says so, once,
 * because sessions played by two versions of haggle in one file is something a researcher must know.
 */
export function resumeProvenanceNote(path: string): string | undefined {
  const line = firstLine(path);
  if (!line) return undefined;
  let onFile: RunProvenance | undefined;
  try {
    onFile = (JSON.parse(line) as { provenance?: RunProvenance }).provenance;
  } catch {
    return undefined; // not a header: the run itself reports what is wrong with the file
  }
  const changes = provenanceChanges(onFile, currentProvenance());
  // Locations are compared per negotiator by the caller's run; here only what the process itself knows.
  const mine = changes.filter((change) => !change.startsWith('backend locations'));
  if (mine.length === 0) return undefined;
  return `haggle: note: ${path} was started elsewhere (${mine.join(', ')}); its header keeps the original provenance, and the sessions played now are added to it\n`;
}
