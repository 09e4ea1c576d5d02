import { describe, expect, it } from 'vitest';
import { halfBitsToNumber, halfToFloat32 } from '../../src/onnx/float16.js';
import { fromHalfArray, toHalfBits } from '../../src/onnx/model-build/half-precision.js';

// The one half -> number conversion (it was written three times): every one of the 65,536 bit patterns.
describe('half precision', () => {
  it('reads known values: one, the largest, the smallest subnormal, infinities, NaN', () => {
    expect(halfBitsToNumber(0x3c00)).toBe(1);
    expect(halfBitsToNumber(0xc000)).toBe(-2);
    expect(halfBitsToNumber(0x7bff)).toBe(65504);
    expect(halfBitsToNumber(0x0001)).toBe(2 ** -24);
    expect(halfBitsToNumber(0x7c00)).toBe(Number.POSITIVE_INFINITY);
    expect(halfBitsToNumber(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
    expect(halfBitsToNumber(0x7e00)).toBeNaN();
  });

  it('round-trips every finite bit pattern through the float32 writer, by table and by arithmetic', () => {
    const bits = Uint16Array.from({ length: 65536 }, (_, h) => h);
    const tabled = halfToFloat32(bits);
    const slice = halfToFloat32(bits, 1000, 1010);
    expect(Array.from(slice)).toEqual(Array.from(tabled.subarray(1000, 1010)));
    expect(fromHalfArray(bits)).toEqual(tabled);
    let finite = 0;
    for (let h = 0; h < 65536; h++) {
      const value = halfBitsToNumber(h);
      expect(
        Object.is(tabled[h], Math.fround(value)) || (Number.isNaN(value) && Number.isNaN(tabled[h])),
      ).toBe(true);
      if (!Number.isFinite(value)) continue;
      finite++;
      expect(toHalfBits(value)).toBe(h);
    }
    expect(finite).toBe(65536 - 2 * 1024);
  });
});
