import type { ValidationIssue } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import { MAX_RESPONSE_TIME } from '../contract/turn-rules.js';
import type { ThreadView } from './thread-view.js';

/** Where a deterministic baseline opens and where it stops, shared by time-based and tit-for-tat agents. */
export interface PriceLimitOptions {
  /**
   * The worst price this side will ever offer or accept, in the listing's currency: a buyer's budget,
   * a seller's floor. Give this or `reservationRatio`, not both.
   */
  reservationPrice?: number;
  /** The reservation as a fraction of the list price, in (0, 1]. Default: buyer 0.85, seller 0.75. */
  reservationRatio?: number;
  /** The opening position as a fraction of the list price, in (0, 1]. Default: buyer 0.5, seller 1. */
  aspirationRatio?: number;
  /** Hours this side takes to answer, written into every turn. Default 2. */
  responseTimeHours?: number;
}

/** Defaults that leave room for a deal between a default buyer and a default seller (assumed values). */
export const DEFAULT_RESERVATION_RATIO: Readonly<Record<Role, number>> = { buyer: 0.85, seller: 0.75 };
/** Default opening position of each side as a fraction of the list price: a buyer opens at half, a seller at the list price. */
export const DEFAULT_ASPIRATION_RATIO: Readonly<Record<Role, number>> = { buyer: 0.5, seller: 1 };
/** Hours a deterministic baseline takes to answer, written into every turn, when its options set none. */
export const DEFAULT_RESPONSE_TIME_HOURS = 2;

export interface PriceLimits {
  /** The opening price (the best for this side). */
  aspiration: number;
  /** The worst price this side offers or accepts. */
  reservation: number;
  /** False when no price at or below the list price respects the reservation (a seller's floor above list). */
  feasible: boolean;
}

/** Resolves the limits for one listing and role; the aspiration never lies beyond the reservation. */
export function priceLimits(view: ThreadView, options: PriceLimitOptions): PriceLimits {
  const list = view.listPrice;
  const role = view.role;
  const reservation =
    options.reservationPrice ?? (options.reservationRatio ?? DEFAULT_RESERVATION_RATIO[role]) * list;
  const wanted = (options.aspirationRatio ?? DEFAULT_ASPIRATION_RATIO[role]) * list;
  if (role === 'buyer') {
    return { aspiration: Math.min(wanted, reservation, list), reservation, feasible: true };
  }
  return {
    aspiration: Math.min(list, Math.max(wanted, reservation)),
    reservation,
    feasible: reservation <= list,
  };
}

/** True when `price` is no worse for this side than its reservation. */
export function withinReservation(price: number, limits: PriceLimits, role: Role): boolean {
  return role === 'buyer' ? price <= limits.reservation : price >= limits.reservation;
}

/** Validates the shared options, appending problems to `issues` with their option paths. */
export function checkPriceLimitOptions(options: PriceLimitOptions, issues: ValidationIssue[]): void {
  const { reservationPrice, reservationRatio, aspirationRatio, responseTimeHours } = options;
  if (reservationPrice !== undefined && reservationRatio !== undefined) {
    issues.push({ path: 'reservationPrice', message: 'give reservationPrice or reservationRatio, not both' });
  }
  if (reservationPrice !== undefined && !(isFiniteNumber(reservationPrice) && reservationPrice > 0)) {
    issues.push({
      path: 'reservationPrice',
      message: `must be a finite number above 0, got ${String(reservationPrice)}`,
    });
  }
  for (const [path, value] of [
    ['reservationRatio', reservationRatio],
    ['aspirationRatio', aspirationRatio],
  ] as const) {
    if (value !== undefined && !(isFiniteNumber(value) && value > 0 && value <= 1)) {
      issues.push({ path, message: `must be a fraction of the list price in (0, 1], got ${String(value)}` });
    }
  }
  if (
    responseTimeHours !== undefined &&
    !(isFiniteNumber(responseTimeHours) && responseTimeHours >= 0 && responseTimeHours <= MAX_RESPONSE_TIME)
  ) {
    issues.push({
      path: 'responseTimeHours',
      message: `must be a number of hours from 0 to ${MAX_RESPONSE_TIME}, got ${String(responseTimeHours)}`,
    });
  }
}

/** Rejects option names the agent does not know, so a typo never silently falls back to a default. */
export function checkKnownKeys(options: object, known: readonly string[], issues: ValidationIssue[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key))
      issues.push({ path: key, message: `unknown option; known options are ${known.join(', ')}` });
  }
}

export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The plain-data part of the options for `describe()`, without undefined entries. */
export function describeLimits(options: PriceLimitOptions): Record<string, number> {
  const out: Record<string, number> = {};
  if (options.reservationPrice !== undefined) out.reservationPrice = options.reservationPrice;
  if (options.reservationRatio !== undefined) out.reservationRatio = options.reservationRatio;
  if (options.aspirationRatio !== undefined) out.aspirationRatio = options.aspirationRatio;
  out.responseTimeHours = options.responseTimeHours ?? DEFAULT_RESPONSE_TIME_HOURS;
  return out;
}
