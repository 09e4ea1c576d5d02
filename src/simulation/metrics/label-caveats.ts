/**
 * What goes beside haggle's M6 and M7 wherever they are shown. They are haggle's definitions
 * (docs/metrics.md#m6-and-m7), named after the card's label metrics, for which the card gives no formula;
 * and for the 50k model the card itself calls its label metrics unreliable and rates its label
 * calibration weak. A run of that model shows the card's words, verbatim from the facts table.
 */
import { CARD_MODELS, cardFact } from '../../contract/model-card.js';
import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';

/** The part of the card's note that rates the 50k model's label metrics (a part of a `CARD_FACTS` quote). */
export const UNRELIABLE_LABEL_METRICS =
  'Label-conditioned deal propensity and opponent concession metrics are unreliable for this model.';

/** The card's rating of the 50k model's M6 label calibration (a part of a `CARD_FACTS` quote). */
export const WEAK_LABEL_CALIBRATION = 'weak (~1,500 msg sessions)';

/** The line that names M6 and M7 as haggle's own definitions. */
export const HAGGLE_LABEL_METRICS =
  'M6 and M7 are haggle\'s definitions (docs/metrics.md#m6-and-m7): the deal rate of sessions in which a side used a label, and the opponent\'s next concession after it. The card gives no formula for its M6/M7, and the "M6 label calibration" it rates is a score haggle does not compute.';

// Checked once at load: the words above are the card's, so they must stand in its facts table.
for (const [id, words] of [
  ['label-metrics-unreliable', UNRELIABLE_LABEL_METRICS],
  ['label-calibration', WEAK_LABEL_CALIBRATION],
] as const)
  if (!cardFact(id).quote.includes(words)) throw new Error(`card fact ${id} does not hold "${words}"`);

/** The line with the card's caveat for the 50k model. */
export const CARD_LABEL_CAVEAT = `The card, of ${CARD_MODELS['50k-ep3']}: “${UNRELIABLE_LABEL_METRICS}” Its M6 label calibration: “${WEAK_LABEL_CALIBRATION}”.`;

/** The built-in profiles the negotiators of these sessions use. */
export function profilesOfSessions(sessions: readonly SessionResult[]): Set<string> {
  const profiles = new Set<string>();
  for (const session of sessions.slice(0, 1))
    for (const side of [session.negotiators.buyer, session.negotiators.seller])
      if (typeof side?.profile === 'string') profiles.add(side.profile);
  return profiles;
}

/**
 * The lines to print beside M6 and M7 for runs of these profiles: always that they are haggle's
 * definitions; and, where a run is of the 50k model, the card's caveat.
 */
export function labelMetricCaveats(profiles: Iterable<string>): string[] {
  const of50k = [...profiles].includes(CARD_MODELS['50k-ep3']);
  return [HAGGLE_LABEL_METRICS, ...(of50k ? [CARD_LABEL_CAVEAT] : [])];
}

/** `labelMetricCaveats` for the profiles of one or more runs (their finished sessions). */
export function labelMetricCaveatsOf(...runs: readonly (readonly SessionResult[])[]): string[] {
  const profiles = new Set<string>();
  for (const run of runs) for (const p of profilesOfSessions(finishedOnly(run))) profiles.add(p);
  return labelMetricCaveats(profiles);
}
