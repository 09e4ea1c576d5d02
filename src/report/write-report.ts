import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { InvalidInputError } from '../contract/errors.js';
import type { BootstrapOptions } from '../simulation/metrics/bootstrap.js';
import {
  isReferenceSetId,
  type ReferenceComparison,
  resolveReferenceSet,
} from '../simulation/metrics/references.js';
import { readRunFile } from '../simulation/run-file.js';
import { renderReport } from './render-report.js';
import { buildReportData, type ReportRun } from './report-data.js';

/** Options of `writeReport`: the run file, what to compare it with, and where to write the page. */
export interface WriteReportOptions {
  /** The run file (JSONL) to report on. */
  run: string;
  /**
   * What to compare against: a run file (the source population's real sessions, or another run), or
   * a published reference set by id, e.g. `card:qwen3-4b-negotiation-50k-ep3`.
   */
  reference?: string;
  /** The HTML file to write. */
  out: string;
  title?: string;
  /** Names shown for the two runs. Default: the files' names. */
  runName?: string;
  referenceName?: string;
  bootstrap?: BootstrapOptions;
  /** Sessions shown as transcripts (default 6; 0 for none). */
  transcripts?: number;
  /** The equivalence margin of the verdicts, as a share (default 0.025, ±2.5 pp). */
  margin?: number;
}

/** What `writeReport` wrote: the page's path, the sessions read, and the published comparison. */
export interface WriteReportResult {
  out: string;
  sessions: { run: number; reference: number | undefined };
  /** With a published reference set: the run beside its numbers (also on the page). */
  published?: ReferenceComparison;
}

function loadRun(path: string, name: string | undefined, option: string): ReportRun {
  const { header, sessions } = readRunFile(path);
  if (sessions.length === 0) {
    throw new InvalidInputError({
      subject: 'WriteReportOptions',
      issues: [{ path: option, message: `${path} holds no sessions` }],
    });
  }
  return { name: name ?? basename(path), sessions, ...(header ? { header } : {}) };
}

/**
 * Reads a run (and a reference), computes the metrics and charts, and writes one self-contained HTML
 * file. Written to a temporary name and renamed, so a reader never sees half a report.
 *
 * @example
 * ```ts
 * import { writeReport } from 'haggle/report';
 *
 * const { out } = writeReport({ run: 'runs/model.jsonl', reference: 'runs/population.jsonl', out: 'report.html' });
 * console.log(`open ${out}`);
 * ```
 * @see The guide: [HTML report](../../docs/report.md).
 */
export function writeReport(options: WriteReportOptions): WriteReportResult {
  const run = loadRun(options.run, options.runName, 'run');
  const published =
    options.reference && isReferenceSetId(options.reference)
      ? resolveReferenceSet(options.reference)
      : undefined;
  const reference =
    options.reference && !published
      ? loadRun(options.reference, options.referenceName, 'reference')
      : undefined;
  const data = buildReportData({
    run,
    ...(reference ? { reference } : {}),
    ...(published ? { published } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}),
    ...(options.transcripts !== undefined ? { transcripts: options.transcripts } : {}),
    ...(options.margin !== undefined ? { margin: options.margin } : {}),
  });
  const html = renderReport(data);
  mkdirSync(dirname(options.out), { recursive: true });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, options.out);
  return {
    out: options.out,
    sessions: { run: run.sessions.length, reference: reference?.sessions.length },
    ...(data.published ? { published: data.published } : {}),
  };
}
