import type { MetricFamilyBuilder } from './metric.js';

export const responseTimeMetrics: MetricFamilyBuilder = () => [
  {
    id: 'response-time/mean',
    family: 'response-time',
    name: 'mean response time per turn (h)',
    unit: 'hours',
    contribution: (f) => [f.responseHours.reduce((a, b) => a + b, 0), f.responseHours.length],
  },
  {
    id: 'response-time/first-reply',
    family: 'response-time',
    name: "seller's first reply time (h)",
    unit: 'hours',
    // The second turn is the seller's answer to the opening offer: the number a buyer waits for.
    contribution: (f) => (f.responseHours.length >= 2 ? [f.responseHours[1] as number, 1] : [0, 0]),
  },
  {
    id: 'response-time/duration',
    family: 'response-time',
    name: 'mean session duration (h)',
    unit: 'hours',
    contribution: (f) => [f.durationHours, 1],
  },
];
