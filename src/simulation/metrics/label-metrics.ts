import type { Role } from '../../contract/history.js';
import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';
import { labelKey, type SessionFacts, sessionFacts } from './session-facts.js';

/**
 * haggle's label metrics M6 and M7 for one (role, label) pair: haggle's own definitions
 * (docs/metrics.md#m6-and-m7), named after the card's M6/M7, for which the card gives no formula.
 */
export interface LabelEffect {
  role: Role;
  label: string;
  /** Sessions in which `role` used the label at least once. */
  sessions: number;
  /** Turns of `role` that carried it. */
  uses: number;
  /** M6: deal rate of the sessions in which `role` used the label. */
  dealRate: number | null;
  /** M6 baseline: deal rate of the sessions in which `role` did not use it. */
  dealRateWithout: number | null;
  /** Label uses whose answer gave a concession value (see `opponentConcession`). */
  answered: number;
  /** M7: mean concession of the opponent's next turn, as a share of the list price. */
  meanOpponentConcession: number | null;
}

function pairsOf(runs: readonly (readonly SessionFacts[])[]): { role: Role; label: string }[] {
  const pairs = new Map<string, { role: Role; label: string }>();
  for (const facts of runs) {
    for (const f of facts)
      for (const [key, entry] of f.labels) pairs.set(key, { role: entry.role, label: entry.label });
  }
  return [...pairs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, pair]) => pair);
}

/**
 * haggle's M6 and M7 for every (role, label) pair present in the finished sessions, sorted by role
 * then label. For a run of the 50k model the card calls its label metrics unreliable: show
 * `labelMetricCaveats` beside them (as `compare` and the report do).
 */
export function labelEffects(sessions: readonly SessionResult[]): LabelEffect[] {
  const facts = finishedOnly(sessions).map(sessionFacts);
  return pairsOf([facts]).map(({ role, label }) => {
    const key = labelKey(role, label);
    const withLabel = facts.filter((f) => f.labels.has(key));
    const without = facts.filter((f) => !f.labels.has(key));
    const concessions = withLabel.flatMap((f) => f.labels.get(key)?.concessions ?? []);
    const rate = (group: SessionFacts[]) =>
      group.length === 0 ? null : group.filter((f) => f.deal).length / group.length;
    return {
      role,
      label,
      sessions: withLabel.length,
      uses: withLabel.reduce((sum, f) => sum + (f.labels.get(key)?.uses ?? 0), 0),
      dealRate: rate(withLabel),
      dealRateWithout: rate(without),
      answered: concessions.length,
      meanOpponentConcession:
        concessions.length === 0 ? null : concessions.reduce((a, b) => a + b, 0) / concessions.length,
    };
  });
}

export const labelMetrics: MetricFamilyBuilder = (runs) => {
  const metrics: MetricDefinition[] = [];
  for (const { role, label } of pairsOf(runs)) {
    const key = labelKey(role, label);
    metrics.push({
      id: `m6/${role}/${label}`,
      family: 'label',
      name: `M6 deal rate when ${role} uses ${label}`,
      unit: 'share',
      contribution: (f) => (f.labels.has(key) ? [f.deal ? 1 : 0, 1] : [0, 0]),
    });
    metrics.push({
      id: `m7/${role}/${label}`,
      family: 'label',
      name: `M7 opponent's next concession after ${role} ${label}`,
      unit: 'list-ratio',
      contribution: (f) => {
        const concessions = f.labels.get(key)?.concessions ?? [];
        return [concessions.reduce((a, b) => a + b, 0), concessions.length];
      },
    });
  }
  return metrics;
};
