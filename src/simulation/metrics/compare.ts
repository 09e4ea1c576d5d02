import { deriveSeed } from '../../internal/random.js';
import { countErrorMessages, type ErrorMessageCount, finishedOnly } from '../failures.js';
import { type BootstrapOptions, percentileInterval, resolveBootstrapOptions } from './bootstrap.js';
import { contributionMatrix, metricDefinitions, type SessionSource } from './measure.js';
import { isProportion, type MetricFamily, type MetricUnit } from './metric.js';
import { fisherExactTest, proportionDifferenceInterval } from './proportion-tests.js';
import { sessionFacts } from './session-facts.js';

/** Options of `compare`: bootstrap settings and the two columns' names. */
export interface CompareOptions extends BootstrapOptions {
  /** Column names, as the card's table has them. Default `{ run: 'model', reference: 'source' }`. */
  labels?: { run?: string; reference?: string };
}

/** How the interval of a delta was drawn (see `ComparisonRow.ci`). */
export type DeltaIntervalMethod = 'newcombe-clopper-pearson' | 'bootstrap';

/** One metric side by side: the reference (source), the run (model), their difference and its interval. */
export interface ComparisonRow {
  id: string;
  family: MetricFamily;
  name: string;
  unit: MetricUnit;
  reference: number | null;
  run: number | null;
  /** run − reference; null when either is. */
  delta: number | null;
  /**
   * Interval of the delta at `level`. For a proportion (`interval: 'newcombe-clopper-pearson'`), the
   * square-and-add combination of each side's exact interval; for a mean (`'bootstrap'`), both runs
   * resampled independently, session by session, and the percentile interval of the replicated
   * differences. An interval that excludes 0 is a difference the sample sizes support.
   */
  ci: [number, number] | null;
  /** Which construction gave `ci`. */
  interval: DeltaIntervalMethod;
  /**
   * For a proportion, the two-sided p-value of Fisher's exact test that both runs share one rate; null
   * for a mean or when either side has no session for the row.
   */
  pValue: number | null;
  /** What each value stands on (sessions, turns or label uses). */
  n: { run: number; reference: number };
}

/** Two runs compared metric by metric, with confidence intervals. */
export interface Comparison {
  labels: { run: string; reference: string };
  /** Finished sessions of each side: what the metrics stand on. */
  sessions: { run: number; reference: number };
  /**
   * Sessions of each side that did not finish (reason `error` or `aborted`): left out of every metric,
   * neither deals nor no-deals.
   */
  unfinished: { run: number; reference: number };
  /** The distinct errors of those sessions, most frequent first. */
  errorMessages: { run: ErrorMessageCount[]; reference: ErrorMessageCount[] };
  resamples: number;
  seed: number;
  level: number;
  rows: ComparisonRow[];
}

/**
 * Compares a run with a reference (the source population, or another run), metric by metric, like
 * the card's table (source, model, delta), adding a confidence interval for each delta: exact pieces
 * and Fisher's exact test for proportions of sessions, a seeded bootstrap for means.
 * Only finished sessions are measured; failed ones are counted in `unfinished` with their messages.
 */
export function compare(
  run: SessionSource,
  reference: SessionSource,
  options: CompareOptions = {},
): Comparison {
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const runFacts = finishedOnly(run).map(sessionFacts);
  const referenceFacts = finishedOnly(reference).map(sessionFacts);
  const definitions = metricDefinitions([runFacts, referenceFacts]);
  const runMatrix = contributionMatrix(definitions, runFacts);
  const referenceMatrix = contributionMatrix(definitions, referenceFacts);
  const empty = runFacts.length === 0 || referenceFacts.length === 0;
  const runReplicates = empty ? [] : runMatrix.replicates(resamples, deriveSeed(seed, 0));
  const referenceReplicates = empty ? [] : referenceMatrix.replicates(resamples, deriveSeed(seed, 1));
  const rows = definitions.map((d, c): ComparisonRow => {
    const runValue = runMatrix.value(c);
    const referenceValue = referenceMatrix.value(c);
    const delta = runValue === null || referenceValue === null ? null : runValue - referenceValue;
    let ci: [number, number] | null = null;
    let pValue: number | null = null;
    const exact = isProportion(d);
    const a = runReplicates[c];
    const b = referenceReplicates[c];
    if (delta !== null && exact) {
      // Each session adds 0 or 1 of 1: the sums are integer counts (rounded only against float sums).
      const counts = [
        Math.round(runMatrix.total(c)),
        Math.round(runMatrix.weight(c)),
        Math.round(referenceMatrix.total(c)),
        Math.round(referenceMatrix.weight(c)),
      ] as const;
      ci = proportionDifferenceInterval(...counts, level);
      pValue = fisherExactTest(...counts);
    } else if (delta !== null && a && b) {
      const differences = new Float64Array(resamples);
      for (let i = 0; i < resamples; i++) differences[i] = (a[i] as number) - (b[i] as number);
      ci = percentileInterval(differences, level);
    }
    return {
      id: d.id,
      family: d.family,
      name: d.name,
      unit: d.unit,
      reference: referenceValue,
      run: runValue,
      delta,
      ci,
      interval: exact ? 'newcombe-clopper-pearson' : 'bootstrap',
      pValue,
      n: { run: runMatrix.weight(c), reference: referenceMatrix.weight(c) },
    };
  });
  return {
    labels: { run: options.labels?.run ?? 'model', reference: options.labels?.reference ?? 'source' },
    sessions: { run: runFacts.length, reference: referenceFacts.length },
    unfinished: { run: run.length - runFacts.length, reference: reference.length - referenceFacts.length },
    errorMessages: { run: countErrorMessages(run), reference: countErrorMessages(reference) },
    resamples,
    seed,
    level,
    rows,
  };
}
