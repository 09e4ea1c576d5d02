import { statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunFileError } from './errors.js';

// Linux's magic numbers of the kernel's own file systems (statfs(2)): their files are not storage.
// /proc/self/mem, for one, stats as an empty regular file.
const KERNEL_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
]);

/**
 * Refuses an output path that is not a place for a file: an existing folder, device, pipe or socket
 * (`/dev/null` swallows a run and reports success), or anything on a kernel file system (`/proc`,
 * `/sys`). A missing file is fine: the writer creates it.
 */
export function checkRunFileTarget(path: string): void {
  let kind: string | undefined;
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) kind = 'a folder';
    else if (stats.isCharacterDevice() || stats.isBlockDevice()) kind = 'a device';
    else if (stats.isFIFO()) kind = 'a pipe';
    else if (stats.isSocket()) kind = 'a socket';
  } catch {
    // Missing (the writer creates it) or unreadable (opening it says why, with the path).
  }
  if (kind !== undefined)
    throw new RunFileError({
      path,
      message: `is ${kind}, not a regular file: name a file to write the run to`,
    });
  const system = kernelFileSystem(path);
  if (system !== undefined)
    throw new RunFileError({
      path,
      message: `lies on the kernel's ${system} file system, which holds no files to write a run to: choose a path on a disk`,
    });
}

/** The kernel file system of `path` (or of its nearest existing folder), if it is on one. */
function kernelFileSystem(path: string): string | undefined {
  for (let at = path; ; at = dirname(at)) {
    try {
      return KERNEL_FILE_SYSTEMS.get(Number(statfsSync(at).type));
    } catch {
      if (dirname(at) === at) return undefined;
    }
  }
}
