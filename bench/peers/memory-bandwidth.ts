// The machine's memory bandwidth, as the ceiling for a decode step that reads every weight once.

/**
 * GB/s of one streaming read over buffers far larger than any cache: `Buffer.compare` of two equal
 * 512 MiB buffers, which is libc's `memcmp` over both (native code, vectorised), so the number is the
 * memory's and not a JavaScript loop's. One core reads, as numpy's sum over 1 GiB did for issue 44
 * (15.9 GB/s there). Best of `rounds`, after the pages were touched once.
 */
export function measureBandwidthGBs(rounds = 3, bytes = 512 * 2 ** 20): number {
  const a = Buffer.alloc(bytes, 7);
  const b = Buffer.alloc(bytes, 7);
  let best = 0;
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    if (Buffer.compare(a, b) !== 0) throw new Error('equal buffers compared unequal');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    best = Math.max(best, (2 * bytes) / seconds / 1e9);
  }
  return best;
}
