/**
 * haggle's choice, assumed until this decoder has timed steps of different sizes: a step of `p`
 * positions (rows x width) costs about p^0.4 times a one-position step. Measured on the
 * 0.6B-shaped model on two CPU cores at batch 8 over a 100-token past (bench/onnx-step-width.ts):
 * width 2, 4 and 8 cost 1.31x, 1.66x and 2.11x a width-1 step, exponents 0.36 to 0.39. On a GPU or
 * a tiny model a wider step costs almost nothing more (an exponent near 0); timing corrects it.
 */
const PRIOR_EXPONENT = 0.4;

/**
 * The fitted exponent's ceiling: below 1, a lone row always feeds its whole take in one step (at a = 1
 * every width would score the same, and ties go to the narrower).
 */
const MAX_EXPONENT = 0.9;

/** Sizes (in positions) kept apart for the fit; more are not needed for a slope. */
const MAX_SIZES = 64;

/**
 * How a decoding step's time grows with its size, learnt from the steps this decoder ran, and the
 * width of the next step that feeds the most tokens per unit of that cost.
 *
 * A batched step is rectangular: every row computes as many positions as the widest take, so a row
 * with a jump-forward's forced tokens widens the step for all. Whether that pays depends on how much
 * a wider step costs: on a CPU at real size a step is part arithmetic (grows with positions) and part
 * reading the weights (does not); on a GPU it is almost all reading. The step cost is modelled as
 * c(p) = k p^a, a power law fitted by least squares on log(ms) against log(positions) of the timed
 * steps (the prior above until two sizes at least 2x apart have been timed).
 */
export class StepCost {
  /**
   * Per step size in positions: summed milliseconds and the number of steps, leaving out the first
   * step of that size once there is another (onnxruntime's first run at a new shape plans and
   * allocates, several times a later run's time; kept, it would make a width tried once look dear).
   */
  private readonly sizes = new Map<number, { ms: number; n: number; first: number }>();

  /** Records that a step of `positions` positions took `ms`. */
  record(positions: number, ms: number): void {
    if (!(positions > 0 && ms > 0)) return;
    const seen = this.sizes.get(positions);
    if (seen) {
      if (seen.first > 0) {
        seen.ms -= seen.first;
        seen.n--;
        seen.first = 0;
      }
      seen.ms += ms;
      seen.n++;
      return;
    }
    if (this.sizes.size >= MAX_SIZES) return;
    this.sizes.set(positions, { ms, n: 1, first: ms });
  }

  /** The fitted exponent a of c(p) = k p^a, in [0, MAX_EXPONENT]. */
  exponent(): number {
    let smallest = Number.POSITIVE_INFINITY;
    let largest = 0;
    for (const p of this.sizes.keys()) {
      smallest = Math.min(smallest, p);
      largest = Math.max(largest, p);
    }
    if (largest < 2 * smallest) return PRIOR_EXPONENT;
    // Weighted least squares of log(mean ms) on log(positions), each size weighted by its count.
    let w = 0;
    let sx = 0;
    let sy = 0;
    for (const [p, { ms, n }] of this.sizes) {
      w += n;
      sx += n * Math.log(p);
      sy += n * Math.log(ms / n);
    }
    const mx = sx / w;
    const my = sy / w;
    let sxx = 0;
    let sxy = 0;
    for (const [p, { ms, n }] of this.sizes) {
      const dx = Math.log(p) - mx;
      sxx += n * dx * dx;
      sxy += n * dx * (Math.log(ms / n) - my);
    }
    return Math.min(MAX_EXPONENT, Math.max(0, sxy / sxx));
  }

  /**
   * The width of the next step: of the widths the rows' takes allow, the one that feeds the most
   * tokens per unit of cost (tokens fed / width^a; the rows, feeding or not, are the same for every
   * width). Ties go to the narrower. A lone row always feeds its whole take (a < 1), as at batch 1
   * before: jump-forward's forced text in one step.
   */
  width(lengths: readonly number[]): number {
    return widestWorthIt(lengths, this.exponent());
  }
}

/** `StepCost.width` for a given exponent (exported for tests). */
export function widestWorthIt(lengths: readonly number[], exponent: number): number {
  const candidates = [...new Set(lengths.filter((n) => n > 0))].sort((a, b) => a - b);
  let best = 0;
  let bestScore = 0;
  for (const width of candidates) {
    let fed = 0;
    for (const n of lengths) fed += Math.min(n, width);
    const score = fed / width ** exponent;
    // Relative margin: float noise between equal scores must not pick the wider.
    if (score > bestScore * (1 + 1e-9)) {
      best = width;
      bestScore = score;
    }
  }
  return best;
}
