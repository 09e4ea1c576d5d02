/**
 * The few special functions the exact tests of proportions need (proportion-tests.ts): the log of the
 * gamma function, the regularized incomplete beta function and the standard normal quantile. Written
 * from their textbook definitions (Stirling's series, the beta function's continued fraction, the
 * error function's power series), accurate to about 1e-12, which is far below any rate a run reports.
 */

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** ln Γ(x) for x > 0. */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  // Stirling's series is accurate to double precision from x = 10 on; smaller x is shifted up there
  // through Γ(x + 1) = x Γ(x).
  let shift = 0;
  let y = x;
  while (y < 10) {
    shift += Math.log(y);
    y += 1;
  }
  const inv = 1 / y;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 / 1188))));
  return (y - 0.5) * Math.log(y) - y + HALF_LOG_TWO_PI + series - shift;
}

/** ln B(a, b). */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** ln C(n, k), the log of the binomial coefficient. */
export function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  if (k === 0 || k === n) return 0;
  return logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);
}

/**
 * The continued fraction of I_x(a, b) (Abramowitz and Stegun 26.5.8), evaluated by the modified
 * Lentz method; converges quickly for x < (a + 1) / (a + b + 2), which the caller ensures.
 */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    // The even step, then the odd step, of the fraction's terms d_{2m} and d_{2m+1}.
    for (const term of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + term * d;
      if (Math.abs(d) < tiny) d = tiny;
      c = 1 + term / c;
      if (Math.abs(c) < tiny) c = tiny;
      d = 1 / d;
      result *= d * c;
      if (term !== 0 && Math.abs(d * c - 1) < 1e-15) return result;
    }
  }
  return result;
}

/** The regularized incomplete beta function I_x(a, b) = P(Beta(a, b) ≤ x), for a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  // I_x(a, b) = 1 − I_{1−x}(b, a): the fraction is used on the side where it converges fast.
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaFraction(1 - x, b, a)) / b;
}

/** The x with I_x(a, b) = probability, by bisection (I_x is increasing in x). */
export function inverseRegularizedBeta(probability: number, a: number, b: number): number {
  let low = 0;
  let high = 1;
  for (let i = 0; i < 200 && high - low > 1e-14; i++) {
    const mid = (low + high) / 2;
    if (regularizedBeta(mid, a, b) < probability) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Φ(z), the standard normal distribution function, from the error function's power series. */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  if (x > 6) return z > 0 ? 1 : 0;
  // erf(x) = 2/√π · e^(−x²) · Σ (2x²)^n x / (1·3·…·(2n+1)): every term positive, no cancellation.
  let term = x;
  let sum = x;
  for (let n = 1; n < 500 && term > sum * 1e-17; n++) {
    term *= (2 * x * x) / (2 * n + 1);
    sum += term;
  }
  const erf = (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  return z >= 0 ? 0.5 + erf / 2 : 0.5 - erf / 2;
}

/** The z with Φ(z) = probability, 0 < probability < 1, by bisection. */
export function normalQuantile(probability: number): number {
  if (!(probability > 0 && probability < 1))
    throw new RangeError(`normalQuantile needs 0 < p < 1, got ${probability}`);
  let low = -9;
  let high = 9;
  for (let i = 0; i < 100; i++) {
    const mid = (low + high) / 2;
    if (normalCdf(mid) < probability) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}
