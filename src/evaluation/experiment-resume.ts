import { RunFileError } from '../simulation/errors.js';
import { firstLineValue } from '../simulation/indexed-jsonl.js';
import { holdsData } from '../simulation/run-output.js';
import type { ExperimentRecord } from './experiment-record.js';

const short = (hash: string) => hash.slice(0, 12);

/** Paths (`arms.grpo.llm.sampling.temperature`) where two experiment definitions differ, the first few. */
function changedPaths(before: unknown, after: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= 3) return found;
  const isObject = (value: unknown): value is Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value);
  if (isObject(before) && isObject(after)) {
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])])
      changedPaths(before[key], after[key], path === '' ? key : `${path}.${key}`, found);
  } else if (JSON.stringify(before) !== JSON.stringify(after)) {
    found.push(path || '(root)');
  }
  return found;
}

/**
 * Before a tournament resumes `path`: the experiment on file must be the one being run. A resume
 * compares whole headers, but "its header differs" would not say that the experiment file was edited,
 * nor what changed; this says both, with both hashes, and what to do.
 */
export function checkExperimentResume(path: string, experiment: ExperimentRecord | undefined): void {
  if (!holdsData(path)) return;
  const header = firstLineValue(path) as { type?: unknown; experiment?: ExperimentRecord } | undefined;
  if (header?.type !== 'tournament') return; // not a tournament: the run output refuses it, saying so
  const onFile = header.experiment;
  if (onFile === undefined && experiment === undefined) return;
  if (onFile === undefined) {
    throw new RunFileError({
      path,
      message:
        'was not started from an experiment file: resume it with the options it was started with, or start a new file (another out, or --overwrite)',
    });
  }
  if (experiment === undefined) {
    throw new RunFileError({
      path,
      message: `was started from an experiment (hash ${short(onFile.hash)}): resume it with --experiment and that same file`,
    });
  }
  if (onFile.hash === experiment.hash) return;
  const parts = changedPaths(onFile.definition ?? {}, experiment.definition);
  throw new RunFileError({
    path,
    message:
      `was started from another experiment (hash ${short(onFile.hash)}; this one hashes to ${short(experiment.hash)}, ` +
      `changed: ${parts.join(', ') || 'its content'}): its matches would mix two setups. Resume with the experiment as it was, ` +
      'or write this one to a new file (another "out", or --overwrite)',
  });
}
