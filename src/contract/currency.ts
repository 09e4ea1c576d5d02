/**
 * Minor units of currencies, from ISO 4217's published table (the number of decimals a price in that
 * currency is written with). Codes not listed here have two decimals, as most currencies do.
 */
const DECIMALS_OTHER_THAN_TWO: Readonly<Record<string, number>> = {
  // ISO 4217 minor unit 0.
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // ISO 4217 minor unit 3.
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // ISO 4217 minor unit 4.
  CLF: 4,
  UYW: 4,
};

/** Decimals a price in `currency` is written with: 2 for USD or EUR, 0 for JPY, 3 for KWD. */
export function currencyDecimals(currency: string): number {
  return DECIMALS_OTHER_THAN_TWO[currency] ?? 2;
}

/** The smallest price step of `currency`: 0.01 for USD, 1 for JPY, 0.001 for KWD. */
export function currencyStep(currency: string): number {
  return 10 ** -currencyDecimals(currency);
}

/** `price` rounded to the currency's smallest unit (half away from zero, as cash registers do). */
export function roundToCurrency(price: number, currency: string): number {
  const scale = 10 ** currencyDecimals(currency);
  return Math.round(price * scale) / scale;
}

/**
 * Whether `price` is written with at most the currency's decimals. Compared through the decimal
 * spelling, not `price % step` (which says 0.07 is not a multiple of 0.01 in binary floating point).
 */
export function fitsCurrency(price: number, currency: string): boolean {
  if (!Number.isFinite(price)) return false;
  return roundToCurrency(price, currency) === price;
}
