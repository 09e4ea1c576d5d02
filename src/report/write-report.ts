import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { InvalidInputError } from '../contract/errors.js';
import type { BootstrapOptions } from '../simulation/metrics/bootstrap.js';
import { readRunFile } from '../simulation/run-file.js';
import { renderReport } from './render-report.js';
import { buildReportData, type ReportRun } from './report-data.js';

export interface WriteReportOptions {
  /** The run file (JSONL) to report on. */
  run: string;
  /** A run file to compare against: the source population (real sessions) or another run. */
  reference?: string;
  /** The HTML file to write. */
  out: string;
  title?: string;
  /** Names shown for the two runs. Default: the files' names. */
  runName?: string;
  referenceName?: string;
  bootstrap?: BootstrapOptions;
}

export interface WriteReportResult {
  out: string;
  sessions: { run: number; reference: number | undefined };
}

function loadRun(path: string, name: string | undefined, option: string): ReportRun {
  const { header, sessions } = readRunFile(path);
  if (sessions.length === 0) {
    throw new InvalidInputError('WriteReportOptions', [
      { path: option, message: `${path} holds no sessions` },
    ]);
  }
  return { name: name ?? basename(path), sessions, ...(header ? { header } : {}) };
}

/**
 * Reads a run (and a reference), computes the metrics and charts, and writes one self-contained HTML
 * file. Written to a temporary name and renamed, so a reader never sees half a report.
 */
export function writeReport(options: WriteReportOptions): WriteReportResult {
  const run = loadRun(options.run, options.runName, 'run');
  const reference = options.reference
    ? loadRun(options.reference, options.referenceName, 'reference')
    : undefined;
  const html = renderReport(
    buildReportData({
      run,
      ...(reference ? { reference } : {}),
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.bootstrap ? { bootstrap: options.bootstrap } : {}),
    }),
  );
  mkdirSync(dirname(options.out), { recursive: true });
  const temporary = `${options.out}.${process.pid}.tmp`;
  writeFileSync(temporary, html);
  renameSync(temporary, options.out);
  return { out: options.out, sessions: { run: run.sessions.length, reference: reference?.sessions.length } };
}
