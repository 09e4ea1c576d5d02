import { countErrorMessages, type ErrorMessageCount, finishedOnly } from '../simulation/failures.js';
import type { BootstrapOptions } from '../simulation/metrics/bootstrap.js';
import { type Comparison, compare } from '../simulation/metrics/compare.js';
import { type LabelEffect, labelEffects } from '../simulation/metrics/label-metrics.js';
import { computeMetrics, type MetricEstimate } from '../simulation/metrics/measure.js';
import { type HistogramBin, priceRatioHistogram } from '../simulation/metrics/price-ratios.js';
import { byPriceTier, type SegmentRow } from '../simulation/metrics/segments.js';
import {
  type SessionLengthDistribution,
  sessionLengthDistribution,
} from '../simulation/metrics/session-length.js';
import { END_REASONS, type EndReason } from '../simulation/outcome.js';
import type { RunHeader } from '../simulation/run-file.js';
import type { SessionResult } from '../simulation/session-result.js';
import type { PriceTier } from '../simulation/synthetic-contexts.js';

/** One run for the report: its sessions, a name to show, and its run-file header if it has one. */
export interface ReportRun {
  name: string;
  sessions: readonly SessionResult[];
  header?: RunHeader;
}

export interface ReportInput {
  run: ReportRun;
  /** What to compare against: the source population, or another run. */
  reference?: ReportRun;
  title?: string;
  /** Bootstrap settings of the intervals. Default: 1000 resamples, seed 0, 95%. */
  bootstrap?: BootstrapOptions;
}

/** Everything one run contributes to the charts. */
export interface RunFigures {
  name: string;
  /** Sessions in the file, finished or not. */
  sessions: number;
  /** Sessions that ended by the rules: what every rate and chart stands on. */
  finished: number;
  deals: number;
  /** Sessions by end reason, failed ones included. */
  outcomes: Record<EndReason, number>;
  /** Distinct errors of the sessions that did not finish, most frequent first. */
  errorMessages: ErrorMessageCount[];
  priceRatio: { values: number; bins: HistogramBin[] };
  sessionLength: SessionLengthDistribution;
  byTier: SegmentRow<PriceTier>[];
  labels: LabelEffect[];
  /** Plain-data descriptions of the negotiators, from the header or the first session. */
  negotiators: { buyer: unknown; seller: unknown } | undefined;
}

/** What the page shows, computed once; `renderReport` only formats it. */
export interface ReportData {
  title: string;
  run: RunFigures;
  reference: RunFigures | undefined;
  /** With a reference: each metric side by side with delta and interval. */
  comparison: Comparison | undefined;
  /** Without one: each metric of the run with its interval. */
  estimates: MetricEstimate[] | undefined;
}

function figures(run: ReportRun): RunFigures {
  const config = run.header?.config as { buyer?: unknown; seller?: unknown } | undefined;
  const first = run.sessions[0];
  const outcomes = Object.fromEntries(END_REASONS.map((r) => [r, 0])) as Record<EndReason, number>;
  for (const s of run.sessions) outcomes[s.outcome.reason]++;
  const finished = finishedOnly(run.sessions);
  return {
    name: run.name,
    sessions: run.sessions.length,
    finished: finished.length,
    deals: finished.filter((s) => s.outcome.status === 'deal').length,
    outcomes,
    errorMessages: countErrorMessages(run.sessions),
    priceRatio: priceRatioHistogram(run.sessions),
    sessionLength: sessionLengthDistribution(run.sessions),
    byTier: byPriceTier(run.sessions),
    labels: labelEffects(run.sessions),
    negotiators:
      config?.buyer !== undefined
        ? { buyer: config.buyer, seller: config.seller }
        : first
          ? { buyer: first.negotiators.buyer, seller: first.negotiators.seller }
          : undefined,
  };
}

export function buildReportData(input: ReportInput): ReportData {
  const { run, reference } = input;
  const bootstrap = input.bootstrap ?? {};
  return {
    title: input.title ?? (reference ? `${run.name} against ${reference.name}` : run.name),
    run: figures(run),
    reference: reference ? figures(reference) : undefined,
    comparison: reference
      ? compare(run.sessions, reference.sessions, {
          ...bootstrap,
          labels: { run: run.name, reference: reference.name },
        })
      : undefined,
    estimates: reference ? undefined : computeMetrics(run.sessions, bootstrap),
  };
}
