import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ExperimentFileError } from './experiment-file.js';

/**
 * The absolute path of an experiment's `out`, which is relative to the experiment file. haggle's
 * choice: it must lie inside the experiment file's folder (symbolic links followed), unless the caller
 * allows anywhere (`--allow-out-anywhere`). An experiment file is a thing people share; one from
 * someone else must not be able to write over `../../.ssh/config` or any other file of the reader's.
 * A path given on the command line (`--out`) is the user's own and is not confined.
 */
export function experimentOut(
  out: string,
  baseDir: string,
  file: string | undefined,
  allowAnywhere: boolean,
): string {
  const path = resolve(baseDir, out);
  if (allowAnywhere) return path;
  const inside = relative(realPath(baseDir), realPath(path));
  if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) return path;
  throw new ExperimentFileError({
    file,
    issues: [
      {
        path: 'out',
        message:
          `${JSON.stringify(out)} lies outside the experiment file's folder (${baseDir}), where an experiment ` +
          'writes its results unless told otherwise: name a file in that folder, pass --out FILE, or allow it ' +
          'with --allow-out-anywhere (allowOutAnywhere: true)',
      },
    ],
  });
}

/** `path` with symbolic links resolved as far as it exists (the rest appended as written). */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : join(realPath(parent), basename(path));
}
