import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidInputError } from '../contract/errors.js';
import { fileStep, RunFileError } from './errors.js';
import { firstLineType, type IndexedJsonlContents, readIndexedJsonl } from './indexed-jsonl.js';
import { readRunFile } from './run-file.js';
import { lockRunFile } from './run-file-lock.js';
import { holdsData } from './run-output.js';
import { readSegments, type Segment, writeAtomically } from './run-writer.js';
import { inShard, type Shard, shardSize } from './shard.js';

/**
 * Joins the shard files of one run (`simulate({ shard })`, `haggle simulate --shard K/N`) or of one
 * tournament (`runTournament({ shard })`, `haggle evaluate --shard K/N`) into the file the whole run
 * would have written on one machine: byte for byte, header and order included. Every shard must be
 * there and complete, and all of them must come from the same settings.
 */

export interface MergeRunsOptions {
  /** Replace an existing `out`. Without it an existing file is never overwritten. */
  overwrite?: boolean;
  /** Told when a stale lock (of a writer of `out` that no longer runs) was taken over. */
  onNote?: (message: string) => void;
}

/** What `mergeRuns` wrote: the file, its kind, and how many records it holds. */
export interface MergeRunsResult {
  out: string;
  /** `run` (sessions) or `tournament` (matches). */
  kind: 'run' | 'tournament';
  /** Sessions or matches in the merged file. */
  records: number;
  shards: number;
}

interface ShardFile {
  path: string;
  header: { shard?: Shard; [key: string]: unknown };
  contents: IndexedJsonlContents<unknown, { index: number }>;
}

const KINDS = {
  run: { record: 'session', total: 'sessions' },
  tournament: { record: 'match', total: 'matches' },
} as const;

/** Joins the files of a run's shards into the file of the whole run, refusing shards that do not fit together. */
export function mergeRuns(
  inputs: readonly string[],
  out: string,
  options: MergeRunsOptions = {},
): MergeRunsResult {
  const problems: { path: string; message: string }[] = [];
  if (inputs.length === 0) problems.push({ path: 'inputs', message: 'name the shard files to merge' });
  if (inputs.some((input) => resolve(input) === resolve(out)))
    problems.push({ path: 'out', message: `${out} is one of the inputs; write the merged file elsewhere` });
  if (!options.overwrite && holdsData(out))
    problems.push({
      path: 'out',
      message: `${out} already holds data; pass overwrite: true (--overwrite) to replace it`,
    });
  if (problems.length > 0) throw new InvalidInputError({ subject: 'mergeRuns', issues: problems });
  // One writer per file (run-file-lock.ts): held from before `out` is checked again until it is written.
  const lock = lockRunFile(out, options.onNote ? { onNote: options.onNote } : {});
  try {
    if (!options.overwrite && holdsData(out))
      throw new RunFileError({
        path: out,
        message: 'already holds data; pass overwrite: true (--overwrite) to replace it',
      });
    return mergeLocked(inputs, out);
  } finally {
    lock.release();
  }
}

function mergeLocked(inputs: readonly string[], out: string): MergeRunsResult {
  const kind = headerType(inputs[0] as string);
  const files = inputs.map((path) => readShard(path, kind));
  const { record, total: totalKey } = KINDS[kind];
  const first = files[0] as ShardFile;
  const count = first.header.shard?.count as number;
  const total = first.header[totalKey] as number;
  const settings = settingsOf(first.header);
  const byIndex = new Map<number, ShardFile>();
  for (const file of files) {
    const shard = file.header.shard as Shard;
    if (settingsOf(file.header) !== settings) {
      throw new RunFileError({
        path: file.path,
        message:
          `comes from another ${kind} than ${first.path} (${differingField(file.header, first.header)} differs); ` +
          'merge only the shards of one run, made with the same settings',
      });
    }
    if (shard.count !== count)
      throw new RunFileError({
        path: file.path,
        message: `is shard ${shard.index}/${shard.count}, but ${first.path} is one of ${count}`,
      });
    const twin = byIndex.get(shard.index);
    if (twin)
      throw new RunFileError({
        path: file.path,
        message: `is shard ${shard.index}/${count}, as is ${twin.path}`,
      });
    byIndex.set(shard.index, file);
    const expected = shardSize(total, shard);
    const held = file.contents.spans.length;
    if (
      held !== expected ||
      file.contents.spans.some((span) => span.index >= total || !inShard(span.index, shard))
    ) {
      throw new RunFileError({
        path: file.path,
        message: `holds ${held} of the ${expected} ${record}s of shard ${shard.index}/${count}: finish it with --resume (resume: true) first`,
      });
    }
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) {
    throw new InvalidInputError({
      subject: 'mergeRuns',
      issues: [
        {
          path: 'inputs',
          message: `shard ${missing.map((k) => `${k}/${count}`).join(', ')} missing: a merge needs all ${count}`,
        },
      ],
    });
  }

  // Record i of the run is the (i div count)-th record of shard (i mod count) + 1, in index order.
  const fds = new Map<ShardFile, number>();
  try {
    for (const file of files)
      fds.set(
        file,
        fileStep(file.path, 'opening', () => openSync(file.path, 'r')),
      );
    const segments: Segment[] = [];
    for (let index = 0; index < total; index++) {
      const file = byIndex.get((index % count) + 1) as ShardFile;
      const span = file.contents.spans[Math.floor(index / count)] as { start: number; end: number };
      segments.push({ fd: fds.get(file) as number, start: span.start, end: span.end });
    }
    // The header of shard 1, as the unsharded run on its machine would have written it (provenance
    // included: shards may run on machines with other Node versions, and one of them has to speak).
    const whole = withoutShard((byIndex.get(1) as ShardFile).header);
    writeAtomically(out, concat([Buffer.from(`${whole}\n`)], readSegments(segments)));
  } finally {
    for (const fd of fds.values()) closeSync(fd);
  }
  return { out, kind, records: total, shards: count };
}

function* concat(...parts: Iterable<Buffer>[]): Generator<Buffer> {
  for (const part of parts) yield* part;
}

/** The `type` of a file's first line: what kind of run wrote it. */
function headerType(path: string): 'run' | 'tournament' {
  const type = firstLineType(path);
  if (type === 'run' || type === 'tournament') return type;
  throw new RunFileError({
    path,
    message: 'has no run or tournament header (its first line): it is not a shard file',
  });
}

function readShard(path: string, kind: 'run' | 'tournament'): ShardFile {
  const contents =
    kind === 'run'
      ? (() => {
          const { sessions, ...rest } = readRunFile(path);
          return { ...rest, records: sessions };
        })()
      : readIndexedJsonl<unknown, { index: number }>(path, { headerType: 'tournament', recordType: 'match' });
  const header = contents.header as ShardFile['header'] | undefined;
  if (header?.type !== kind)
    throw new RunFileError({
      path,
      message: `is not a ${kind} file like the first input; merge files of one kind`,
    });
  if (header.shard === undefined)
    throw new RunFileError({
      path,
      message: `holds a whole ${kind}, not a shard (its header has no "shard")`,
    });
  return { path, header, contents };
}

/** The header of the whole run: the shard's, without `shard`, as one line of JSON. */
function withoutShard(header: ShardFile['header']): string {
  const { shard: _shard, ...rest } = header;
  return JSON.stringify(rest);
}

/** What must match across shards: the header without `shard` and without `provenance` (machine facts). */
function settingsOf(header: ShardFile['header']): string {
  const { shard: _shard, provenance: _provenance, ...rest } = header;
  return JSON.stringify(rest);
}

/** The first field (`seed`, `config.buyer`, ...) where two headers differ, for the message. */
function differingField(a: Record<string, unknown>, b: Record<string, unknown>, prefix = ''): string {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if ((key === 'shard' || key === 'provenance') && prefix === '') continue;
    const [x, y] = [a[key], b[key]];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isObject(x) && isObject(y))
      return differingField(x as Record<string, unknown>, y as Record<string, unknown>, `${prefix}${key}.`);
    return `${prefix}${key}`;
  }
  return 'the key order';
}
