/**
 * This machine's memory bandwidth, measured: copying a buffer far larger than any cache reads and
 * writes each byte once, so bytes x 2 / seconds is the bandwidth a decode step can use at best (the
 * best of a few copies; a shared machine's neighbours only make it lower). On a GPU machine the
 * GPU's own bandwidth comes from its spec sheet instead (system-probe.ts).
 */
export function measureCopyBandwidthGBs(bytes = 256 * 2 ** 20, repeats = 5): number {
  const from = Buffer.alloc(bytes, 1);
  const to = Buffer.alloc(bytes);
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeats; i++) {
    const started = process.hrtime.bigint();
    from.copy(to);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
  }
  return (2 * bytes) / best / 1e9;
}
