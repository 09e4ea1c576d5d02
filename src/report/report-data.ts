import { countErrorMessages, type ErrorMessageCount, finishedOnly } from '../simulation/failures.js';
import type { BootstrapOptions } from '../simulation/metrics/bootstrap.js';
import { type Comparison, compare } from '../simulation/metrics/compare.js';
import { type LabelEffect, labelEffects } from '../simulation/metrics/label-metrics.js';
import { computeMetrics, type MetricEstimate } from '../simulation/metrics/measure.js';
import { type HistogramBin, priceRatioHistogram } from '../simulation/metrics/price-ratios.js';
import type { ReferenceSet } from '../simulation/metrics/published-references.js';
import { compareToReferences, type ReferenceComparison } from '../simulation/metrics/references.js';
import { byPriceTier, type SegmentRow } from '../simulation/metrics/segments.js';
import {
  type SessionLengthDistribution,
  sessionLengthDistribution,
} from '../simulation/metrics/session-length.js';
import type { RunProvenance } from '../simulation/provenance.js';
import type { RunHeader } from '../simulation/run-file.js';
import type { SessionResult } from '../simulation/session-result.js';
import type { PriceTier } from '../simulation/synthetic-contexts.js';
import { sessionTranscript, stratifiedSample, type Transcript } from '../simulation/transcript.js';
import { type ChartIntervals, chartIntervals } from './chart-intervals.js';
import { type OutcomeRow, outcomeBreakdown } from './outcome-breakdown.js';

/** One run for the report: its sessions, a name to show, and its run-file header if it has one. */
export interface ReportRun {
  name: string;
  sessions: readonly SessionResult[];
  header?: RunHeader;
}

/** What `buildReportData` reports on: a run, optionally a reference, and the bootstrap settings. */
export interface ReportInput {
  run: ReportRun;
  /** What to compare against: the source population, or another run. */
  reference?: ReportRun;
  title?: string;
  /** Bootstrap settings of the intervals. Default: 1000 resamples, seed 0, 95%. */
  bootstrap?: BootstrapOptions;
  /** Published numbers to set the run beside: a set or its id, e.g. `card:qwen3-4b-negotiation-50k-ep3`. */
  published?: ReferenceSet | string;
  /** Sessions shown as transcripts, sampled by outcome with the bootstrap seed. Default 6; 0 for none. */
  transcripts?: number;
  /** The equivalence margin for shares (and price ratios), e.g. 0.025 for ±2.5 pp (haggle's default). */
  margin?: number;
}

/** Default number of sessions the report shows as dialogues (haggle's choice: a screenful of endings). */
export const DEFAULT_TRANSCRIPTS = 6;

/** Everything one run contributes to the charts. */
export interface RunFigures {
  name: string;
  /** Sessions in the file, finished or not. */
  sessions: number;
  /** Sessions that ended by the rules: what every rate and chart stands on. */
  finished: number;
  deals: number;
  /** Distinct errors of the sessions that did not finish, most frequent first. */
  errorMessages: ErrorMessageCount[];
  priceRatio: { values: number; bins: HistogramBin[] };
  sessionLength: SessionLengthDistribution;
  byTier: SegmentRow<PriceTier>[];
  labels: LabelEffect[];
  /** Plain-data descriptions of the negotiators, from the header or the first session. */
  negotiators: { buyer: unknown; seller: unknown } | undefined;
  /** What produced the run (haggle, Node, platform, servers), from its header. */
  provenance: RunProvenance | undefined;
  /** Sessions by how they ended, with the kind of ending (deal, no deal, failed) and shares. */
  breakdown: OutcomeRow[];
  /** The 95% interval of each chart bar. */
  intervals: ChartIntervals;
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
  /** The run beside a published reference set, when one was asked for. */
  published: ReferenceComparison | undefined;
  /** A sample of the run's sessions as dialogues. */
  transcripts: Transcript[];
  /** The seed the sample was drawn with. */
  transcriptSeed: number;
}

function figures(run: ReportRun, bootstrap: BootstrapOptions): RunFigures {
  const config = run.header?.config as { buyer?: unknown; seller?: unknown } | undefined;
  const first = run.sessions[0];
  const finished = finishedOnly(run.sessions);
  const priceRatio = priceRatioHistogram(run.sessions);
  const sessionLength = sessionLengthDistribution(run.sessions);
  const byTier = byPriceTier(run.sessions);
  const labels = labelEffects(run.sessions);
  return {
    name: run.name,
    sessions: run.sessions.length,
    finished: finished.length,
    deals: finished.filter((s) => s.outcome.status === 'deal').length,
    errorMessages: countErrorMessages(run.sessions),
    priceRatio,
    sessionLength,
    byTier,
    labels,
    provenance: run.header?.provenance,
    breakdown: outcomeBreakdown(run.sessions),
    intervals: chartIntervals(
      run.sessions,
      {
        bins: priceRatio.bins,
        lengths: sessionLength.counts.map((row) => row.turns),
        tiers: byTier.map((row) => row.segment),
        labels: labels.map(({ role, label }) => ({ role, label })),
      },
      bootstrap,
    ),
    negotiators:
      config?.buyer !== undefined
        ? { buyer: config.buyer, seller: config.seller }
        : first
          ? { buyer: first.negotiators.buyer, seller: first.negotiators.seller }
          : undefined,
  };
}

/** Computes everything the report shows (figures, intervals, comparisons, sampled transcripts) from sessions. */
export function buildReportData(input: ReportInput): ReportData {
  const { run, reference } = input;
  const bootstrap = input.bootstrap ?? {};
  const transcriptSeed = bootstrap.seed ?? 0;
  const sample = stratifiedSample(run.sessions, {
    count: input.transcripts ?? DEFAULT_TRANSCRIPTS,
    seed: transcriptSeed,
  });
  return {
    title: input.title ?? (reference ? `${run.name} against ${reference.name}` : run.name),
    run: figures(run, bootstrap),
    reference: reference ? figures(reference, bootstrap) : undefined,
    published: input.published
      ? compareToReferences(run.sessions, input.published, {
          level: bootstrap.level ?? 0.95,
          ...(input.margin !== undefined ? { margin: input.margin } : {}),
        })
      : undefined,
    transcripts: sample.map((session) => sessionTranscript(session)),
    transcriptSeed,
    comparison: reference
      ? compare(run.sessions, reference.sessions, {
          ...bootstrap,
          labels: { run: run.name, reference: reference.name },
          ...(input.margin !== undefined
            ? { margins: { share: input.margin, 'list-ratio': input.margin } }
            : {}),
        })
      : undefined,
    estimates: reference ? undefined : computeMetrics(run.sessions, bootstrap),
  };
}
