/**
 * The tokens of a mask, longest first, with their byte lengths and whether each is plain text (every
 * byte a printable ASCII character other than `"` and `\`, so inside a string it adds one character
 * and one code unit per byte). Built once per mask it indexes (a bounded pattern's mask with its length
 * bounds left out, `InsideCache`), it lets the masks of positions near maxLength be that mask with
 * only its longest tokens looked at: a token no longer than what is sure to fit is kept without a
 * look, a plain one longer than the room left is refused without stepping it (issue 45: a label's
 * last positions read each of the mask's 20,000 tokens, 0.2 ms warm and 1-2 ms cold, for the few
 * dozen that were ever in doubt).
 */
export class TokensByLength {
  /** Token ids, by byte length descending. */
  readonly ids: Int32Array;
  /** 1 where `ids[k]` is plain text (see the class). */
  readonly plain: Uint8Array;
  /** Per byte length n: how many of `ids` are longer than n (they come first). */
  private readonly longer: Int32Array;

  constructor(mask: Uint32Array, tokens: readonly Uint8Array[]) {
    // A counting sort by length over the vocabulary's flat tables, in plain loops: this runs a few
    // times a process, so mostly before the JIT has compiled it (reading each token's bytes, and a
    // comparison sort before that, took milliseconds).
    const { lengths, plain } = tokenTables(tokens);
    let count = 0;
    let longest = 0;
    for (let w = 0; w < mask.length; w++) {
      let bits = mask[w] as number;
      while (bits !== 0) {
        const n = lengths[w * 32 + (31 - Math.clz32(bits & -bits))] as number;
        if (n > longest) longest = n;
        bits &= bits - 1;
        count++;
      }
    }
    // longer[n]: how many are longer than n bytes; the ids of length n then go from longer[n] on.
    const longer = new Int32Array(longest + 1);
    for (let w = 0; w < mask.length; w++) {
      let bits = mask[w] as number;
      while (bits !== 0) {
        const n = lengths[w * 32 + (31 - Math.clz32(bits & -bits))] as number;
        if (n > 0) longer[n - 1] = (longer[n - 1] as number) + 1;
        bits &= bits - 1;
      }
    }
    for (let n = longest - 2; n >= 0; n--) longer[n] = (longer[n] as number) + (longer[n + 1] as number);
    const next = Int32Array.from(longer);
    this.ids = new Int32Array(count);
    this.plain = new Uint8Array(count);
    for (let w = 0; w < mask.length; w++) {
      let bits = mask[w] as number;
      while (bits !== 0) {
        const id = w * 32 + (31 - Math.clz32(bits & -bits));
        bits &= bits - 1;
        const n = lengths[id] as number;
        const at = next[n] as number;
        next[n] = at + 1;
        this.ids[at] = id;
        this.plain[at] = plain[id] as number;
      }
    }
    this.longer = longer;
    this.longest = longest;
  }

  /** Bytes of the longest token (0 when none). */
  readonly longest: number;

  /** How many of `ids` (the first ones) are longer than `bytes` bytes. */
  longerThan(bytes: number): number {
    if (bytes < 0) return this.ids.length;
    return bytes < this.longer.length ? (this.longer[bytes] as number) : 0;
  }

  /** Bytes held. */
  bytes(): number {
    return this.ids.byteLength + this.plain.byteLength + this.longer.byteLength;
  }
}

function isPlainText(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b < 0x20 || b > 0x7e || b === 0x22 || b === 0x5c) return false;
  }
  return true;
}

/** Per vocabulary (its tokens array, never copied): each token's byte length and plain-text flag. */
const tables = new WeakMap<readonly Uint8Array[], { lengths: Uint16Array; plain: Uint8Array }>();

/** Each token's byte length and whether it is plain text (see `TokensByLength`), made once per vocabulary. */
function tokenTables(tokens: readonly Uint8Array[]): { lengths: Uint16Array; plain: Uint8Array } {
  let table = tables.get(tokens);
  if (table === undefined) {
    const lengths = new Uint16Array(tokens.length);
    const plain = new Uint8Array(tokens.length);
    for (let id = 0; id < tokens.length; id++) {
      const bytes = tokens[id] as Uint8Array;
      lengths[id] = Math.min(bytes.length, 0xffff);
      plain[id] = isPlainText(bytes) ? 1 : 0;
    }
    table = { lengths, plain };
    tables.set(tokens, table);
  }
  return table;
}
