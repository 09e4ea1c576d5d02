/**
 * The WebAssembly module of the sampler's vocabulary pass (see block-max-kernel.ts), written out in
 * the WebAssembly binary format: small enough to assemble by hand, one helper per instruction, so the
 * repository carries no binary and no build step.
 *
 * One function, `scan(logits, words, mask, masked, out) -> allowed` (byte offsets into its memory):
 * for each block of 32 float32 logits, the largest one the mask allows (-Infinity if none) as a
 * float32 in `out`, and the number of allowed ids. NaN ranks like -Infinity, as in the JavaScript
 * pass: `pmax` (`acc < x ? x : acc`) never takes a NaN `x` into an accumulator that starts at
 * -Infinity.
 */

// ---- a few instructions of the binary format ----------------------------------------------------
const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40;

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const get = (local: number) => [0x20, ...uleb(local)];
const set = (local: number) => [0x21, ...uleb(local)];
const i32 = (value: number) => [0x41, ...sleb(value)];
const simd = (op: number, ...rest: number[]) => [0xfd, ...uleb(op), ...rest];
const v128Load = (offset: number) => simd(0x00, 4, ...uleb(offset));
const v128Const = (lanes: Float32Array | Uint32Array) => simd(0x0c, ...new Uint8Array(lanes.buffer));
const pmax = simd(0xeb);
const I32_ADD = 0x6a;
const I32_SHL = 0x74;

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

// ---- scan(logits, words, mask, masked, out) -> allowed -------------------------------------------
// Parameters (byte offsets into memory): 0 logits, 1 words, 2 mask, 3 masked (0/1), 4 out.
// Locals: 5 w, 6 word, 7 p (block address), 8 count, 9 acc, 10 acc2.
const [LOGITS, WORDS, MASK, MASKED, OUT, W, WORD, P, COUNT, ACC, ACC2] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const NEGATIVE = v128Const(new Float32Array(4).fill(Number.NEGATIVE_INFINITY));
const LANE_BITS = v128Const(Uint32Array.of(1, 2, 4, 8));

/** acc = pmax(acc, load(p + offset)). */
const foldInto = (acc: number, offset: number) => [
  ...get(acc),
  ...get(P),
  ...v128Load(offset),
  ...pmax,
  ...set(acc),
];

/** Every id of the block allowed: two accumulators of four loads each. */
const fullBlock = [
  ...NEGATIVE,
  ...set(ACC),
  ...NEGATIVE,
  ...set(ACC2),
  ...[0, 2, 4, 6].flatMap((g) => [...foldInto(ACC, g * 16), ...foldInto(ACC2, g * 16 + 16)]),
  ...get(ACC),
  ...get(ACC2),
  ...pmax,
  ...set(ACC),
];

/** Some ids allowed: lanes whose mask bit is clear read as -Infinity. */
const partialBlock = [
  ...NEGATIVE,
  ...set(ACC),
  ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((g) => [
    ...get(ACC),
    ...get(P),
    ...v128Load(g * 16),
    ...NEGATIVE,
    // lanes = splat(word >>> 4g) & (1, 2, 4, 8) != 0
    ...get(WORD),
    ...i32(4 * g),
    0x76, // i32.shr_u
    ...simd(0x11), // i32x4.splat
    ...LANE_BITS,
    ...simd(0x4e), // v128.and
    ...simd(0x0c, ...new Uint8Array(16)), // zero
    ...simd(0x38), // i32x4.ne
    ...simd(0x52), // v128.bitselect
    ...pmax,
    ...set(ACC),
  ]),
  ...get(COUNT),
  ...get(WORD),
  0x69, // i32.popcnt
  I32_ADD,
  ...set(COUNT),
];

/** out[w] = the largest lane of acc. */
const storeBlockTop = [
  ...get(OUT),
  ...get(W),
  ...i32(2),
  I32_SHL,
  I32_ADD,
  ...[0, 1, 2, 3].flatMap((lane) => [...get(ACC), ...simd(0x1f, lane), ...(lane > 0 ? [0x97] : [])]), // f32.max
  0x38,
  2,
  0, // f32.store
];

const body = [
  // for (w = 0; w < words; w++)
  0x02,
  EMPTY,
  0x03,
  EMPTY,
  ...get(W),
  ...get(WORDS),
  0x4f, // i32.ge_u
  0x0d,
  1, // br_if out of the block
  // p = logits + w * 128
  ...get(LOGITS),
  ...get(W),
  ...i32(7),
  I32_SHL,
  I32_ADD,
  ...set(P),
  // word = masked ? mask[w] : -1
  ...get(MASKED),
  0x04,
  I32,
  ...get(MASK),
  ...get(W),
  ...i32(2),
  I32_SHL,
  I32_ADD,
  0x28,
  2,
  0, // i32.load
  0x05,
  ...i32(-1),
  0x0b,
  ...set(WORD),
  ...get(WORD),
  ...i32(-1),
  0x46, // i32.eq
  0x04,
  EMPTY,
  ...fullBlock,
  ...get(COUNT),
  ...i32(32),
  I32_ADD,
  ...set(COUNT),
  0x05,
  ...get(WORD),
  0x45, // i32.eqz
  0x04,
  EMPTY,
  ...NEGATIVE,
  ...set(ACC),
  0x05,
  ...partialBlock,
  0x0b,
  0x0b,
  ...storeBlockTop,
  ...get(W),
  ...i32(1),
  I32_ADD,
  ...set(W),
  0x0c,
  0, // br to the loop
  0x0b,
  0x0b,
  ...get(COUNT),
  0x0b,
];

const locals = vector([
  [4, I32],
  [2, V128],
]);
const code = [...locals, ...body];

export const BLOCK_MAX_MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), ...vector([[I32]])]])),
  ...section(3, vector([[0]])),
  ...section(5, vector([[0x00, 1]])),
  ...section(
    7,
    vector([
      [...name('scan'), 0x00, 0],
      [...name('memory'), 0x02, 0],
    ]),
  ),
  ...section(10, vector([[...uleb(code.length), ...code]])),
]);
