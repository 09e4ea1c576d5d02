/**
 * The decimals of a currency's prices: ISO 4217's minor units. Best Offer prices are whole minor units
 * (cents for USD), so an offer in yen has no decimals and one in Kuwaiti dinars has three.
 */

/** ISO 4217 currencies whose minor unit is not a hundredth; every other code has two decimals. */
const MINOR_UNIT_DECIMALS: Readonly<Record<string, number>> = {
  // No minor unit in use.
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
  // Thousandths.
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // Ten-thousandths (units of account).
  CLF: 4,
  UYW: 4,
};

/** Decimals of a price in `code` (an ISO 4217 code such as `USD`): 2 unless ISO 4217 says otherwise. */
export function currencyDecimals(code: string): number {
  return MINOR_UNIT_DECIMALS[code.toUpperCase()] ?? 2;
}

/** `price` rounded to the nearest whole minor unit of `code` (cents for USD, yen for JPY). */
export function roundToCurrency(price: number, code: string): number {
  const scale = 10 ** currencyDecimals(code);
  return Math.round(price * scale) / scale;
}
