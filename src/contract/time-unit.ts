import * as z from 'zod';

/** Validates a time unit: `seconds`, `minutes`, `hours` or `days`. */
export const TimeUnitSchema = z.enum(['seconds', 'minutes', 'hours', 'days']);
/** The unit a model's `response_time` is written in (a model profile says which). */
export type TimeUnit = z.infer<typeof TimeUnitSchema>;

const HOURS_PER_UNIT: Readonly<Record<TimeUnit, number>> = {
  seconds: 1 / 3600,
  minutes: 1 / 60,
  hours: 1,
  days: 24,
};

/** Converts an amount of `unit` into hours, the unit of the session clock. */
export function toHours(amount: number, unit: TimeUnit): number {
  return amount * HOURS_PER_UNIT[unit];
}

/** Converts hours into `unit`. */
export function fromHours(hours: number, unit: TimeUnit): number {
  return hours / HOURS_PER_UNIT[unit];
}
