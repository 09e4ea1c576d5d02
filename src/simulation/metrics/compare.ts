import { InvalidInputError, type ValidationIssue } from '../../contract/errors.js';
import { deriveSeed } from '../../internal/random.js';
import { countErrorMessages, type ErrorMessageCount, finishedOnly } from '../failures.js';
import { type BootstrapOptions, percentileInterval, resolveBootstrapOptions } from './bootstrap.js';
import { DEFAULT_SHARE_MARGIN, equivalenceVerdict, sessionsNeeded, type Verdict } from './equivalence.js';
import { labelMetricCaveatsOf } from './label-caveats.js';
import { contributionMatrix, metricDefinitions, type SessionSource } from './measure.js';
import { isProportion, type MetricFamily, type MetricUnit } from './metric.js';
import { clopperPearson, fisherExactTest, proportionDifferenceInterval } from './proportion-tests.js';
import { sessionFacts } from './session-facts.js';

/** Options of `compare`: bootstrap settings and the two columns' names. */
export interface CompareOptions extends BootstrapOptions {
  /** Column names, as the card's table has them. Default `{ run: 'model', reference: 'source' }`. */
  labels?: { run?: string; reference?: string };
  /**
   * Equivalence margins by unit: `consistent` needs the delta's interval inside ±margin. Defaults
   * (haggle's choice, `DEFAULT_MARGINS`): 2.5 pp for shares and price ratios, half a turn, one hour.
   */
  margins?: Partial<Record<MetricUnit, number>>;
}

/**
 * The default equivalence margins (haggle's choice). Shares and price ratios: 2.5 pp, the margin of the
 * card comparison (`DEFAULT_SHARE_MARGIN`). Turns: half a turn, since a session's length is a whole
 * number of turns and a mean that moved by less than half of one changes no typical session. Hours: one
 * hour, the unit response times are reported in.
 */
export const DEFAULT_MARGINS: Readonly<Record<MetricUnit, number>> = Object.freeze({
  share: DEFAULT_SHARE_MARGIN,
  'list-ratio': DEFAULT_SHARE_MARGIN,
  turns: 0.5,
  hours: 1,
});

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
  /**
   * The equivalence verdict on `ci` against ±`margin` (see `equivalenceVerdict`): `inconsistent` when it
   * excludes 0, `consistent` when it lies inside ±margin, else `too-few` or, for a share whose reference
   * run alone is too wide for the margin, `cannot-tell`. Null without an interval.
   */
  verdict: Verdict | null;
  /** The margin of this row's unit. */
  margin: number;
  /**
   * For a share: sessions the run would need, at the reference's rate, for the interval to lie inside
   * ±margin (null where none can, or for a mean, whose spread the bootstrap gives only at this size).
   */
  needed: number | null;
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
  /** The equivalence margin of each unit. */
  margins: Record<MetricUnit, number>;
  rows: ComparisonRow[];
  /**
   * Beside label rows (M6, M7): that they are haggle's definitions and, for a run of the 50k model, the
   * card's caveat that its label metrics are unreliable. Empty without label rows.
   */
  labelCaveats: string[];
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
  const margins = resolveMargins(options.margins);
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
    let referenceWidth = 0;
    let needed: number | null = null;
    const margin = margins[d.unit];
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
      const [, , b, m] = counts;
      const [low, high] = clopperPearson(b, m, level);
      referenceWidth = high - low;
      if (referenceWidth < 2 * margin)
        needed = sessionsNeeded(
          (size) => proportionDifferenceInterval(Math.round((b / m) * size), size, b, m, level),
          margin,
        );
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
      verdict: ci === null ? null : equivalenceVerdict(ci, margin, referenceWidth),
      margin,
      needed,
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
    margins,
    rows,
    labelCaveats: rows.some((row) => row.family === 'label') ? labelMetricCaveatsOf(run, reference) : [],
  };
}

function resolveMargins(given: CompareOptions['margins']): Record<MetricUnit, number> {
  const margins = { ...DEFAULT_MARGINS, ...given };
  const issues: ValidationIssue[] = [];
  for (const [unit, margin] of Object.entries(margins))
    if (!(Number.isFinite(margin) && margin > 0))
      issues.push({ path: `margins.${unit}`, message: `must be a positive number, got ${margin}` });
  if (issues.length > 0) throw new InvalidInputError({ subject: 'CompareOptions', issues });
  return margins;
}
