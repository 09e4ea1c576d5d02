import { forEachLine } from '../internal/bounded-read.js';
import { currentProvenance, provenanceChanges, type RunProvenance } from '../simulation/provenance.js';

/** The first line of a file (a run file's header) without reading its sessions; undefined past 1 MiB. */
function firstLine(path: string, limit = 1 << 20): string | undefined {
  let first: string | undefined;
  try {
    forEachLine(path, limit, (line) => {
      if (line.complete) first = line.bytes.toString('utf8');
      return false;
    });
  } catch {
    return undefined; // unreadable or too long: the run itself reports what is wrong with the file
  }
  return first;
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
