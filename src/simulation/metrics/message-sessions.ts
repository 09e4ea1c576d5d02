import { isFinished } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import { hasMessage } from './has-message.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';

// In a file of its own so that session-facts.ts reads it without importing the metric definitions;
// exported here too for the modules that have always imported it from here.
export { hasMessage };

/**
 * Message session rate: the share of sessions with at least one message, over sessions that did not
 * fail; null when none counts. The model card gives it for its training data (~3%: ~1,500 of 50,000
 * sessions, fact `population-message-share` of CARD_FACTS) and a "Message rate" per model.
 */
export function messageSessionRate(sessions: readonly SessionResult[]): number | null {
  const counted = sessions.filter(isFinished);
  if (counted.length === 0) return null;
  return counted.filter(hasMessage).length / counted.length;
}

/** The share of finished sessions in which some turn carried a message. */
export const MESSAGE_SESSION_RATE_METRIC: MetricDefinition = {
  id: 'message-session-rate',
  family: 'messages',
  name: 'message session rate',
  unit: 'share',
  contribution: (f) => (f.messageSession === null ? [0, 0] : [f.messageSession ? 1 : 0, 1]),
};

export const messageSessionMetrics: MetricFamilyBuilder = () => [MESSAGE_SESSION_RATE_METRIC];
