/**
 * Holm's step-down adjustment of p-values for multiple comparisons, controlling the family-wise error
 * rate (the chance of any false "detectable difference" among all the comparisons of one report) at
 * the level the adjusted values are compared with, under any dependence between the tests.
 *
 * With the m p-values sorted ascending p(1) <= ... <= p(m), the adjusted value of p(i) is
 * max over j <= i of min(1, (m - j + 1) · p(j)): the running maximum keeps the order of the raw values.
 * Returned in the input's order; NaN (a comparison with nothing to compare) stays NaN and does not
 * count in m.
 */
export function holm(pValues: readonly number[]): number[] {
  const order = pValues
    .map((p, index) => ({ p, index }))
    .filter(({ p }) => !Number.isNaN(p))
    .sort((a, b) => a.p - b.p || a.index - b.index);
  for (const { p } of order) {
    if (p < 0 || p > 1) throw new RangeError(`a p-value must lie in [0, 1], got ${p}`);
  }
  const m = order.length;
  const adjusted = pValues.map(() => Number.NaN);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
