/**
 * For strings without a pattern, read from a character boundary: every token that keeps such a string
 * open, with the UTF-16 code units and the characters it adds (a character it leaves unfinished, an
 * escape or a UTF-8 sequence cut by the token's end, counted whole, as the string's own pass counts it
 * when it checks the bounds). With these, the inside mask of a bounded string at any distance from its
 * bounds is a table lookup and a copy instead of a pass over the vocabulary: a `maxLength: 50` string
 * has a different mask at each of its last 128 units, and each pass cost about 6 ms for Qwen3.
 *
 * A token is allowed from a string that has read `u` units and `c` characters exactly when
 * `u + U + max(0, minLength - c - C) <= maxLength`: the pass checks that sum at every character, and it
 * never decreases along a token (each character adds a unit or two and removes at most one needed), so
 * the last check decides. That is `U <= room` and `U - C <= room - (minLength - c)`, with
 * `room = maxLength - u`; `U - C` is above 0 only for tokens holding characters outside the BMP.
 */
export class PlainStringLengths {
  /** Per token id: units added (255: the token does not stay inside). */
  private readonly units: Uint8Array;
  /** Token ids that stay inside, by units added, most first. */
  private readonly byUnits: Int32Array;
  /** Token ids whose units exceed their characters (surrogate pairs), with that excess. */
  private readonly astral: Int32Array;
  private readonly excess: Uint8Array;
  private readonly maxUnits: number;
  /** `upTo(room)` masks made so far, by room (at most `maxUnits` of them). */
  private readonly masks = new Map<number, Uint32Array>();

  constructor(
    /** The tokens that keep a free-form string open from a character boundary. */
    private readonly free: Uint32Array,
    tokens: readonly Uint8Array[],
  ) {
    this.units = new Uint8Array(tokens.length).fill(UNSET);
    const inside: number[] = [];
    const astral: number[] = [];
    const excess: number[] = [];
    let maxUnits = 0;
    for (let id = 0; id < tokens.length; id++) {
      if ((((free[id >>> 5] as number) >>> (id & 31)) & 1) === 0) continue;
      const { units, characters } = count(tokens[id] as Uint8Array);
      const clamped = Math.min(units, UNSET - 1);
      this.units[id] = clamped;
      maxUnits = Math.max(maxUnits, clamped);
      inside.push(id);
      if (units > characters) {
        astral.push(id);
        excess.push(units - characters);
      }
    }
    // Ordered by units, most first, by counting (units are under 255): a comparison sort of the 150k
    // tokens was half of this table's set-up time.
    const units = this.units;
    const starts = new Int32Array(UNSET + 1);
    for (const id of inside)
      starts[UNSET - (units[id] as number)] = (starts[UNSET - (units[id] as number)] as number) + 1;
    for (let k = 0, at = 0; k <= UNSET; k++) {
      const n = starts[k] as number;
      starts[k] = at;
      at += n;
    }
    const byUnits = new Int32Array(inside.length);
    for (const id of inside) {
      const slot = UNSET - (units[id] as number);
      byUnits[starts[slot] as number] = id;
      starts[slot] = (starts[slot] as number) + 1;
    }
    this.byUnits = byUnits;
    this.astral = Int32Array.from(astral);
    this.excess = Uint8Array.from(excess);
    this.maxUnits = maxUnits;
  }

  /**
   * Sets in `mask` the tokens that keep open a string without a pattern that has read `units` code
   * units and `characters` characters and is at a character boundary.
   */
  fill(units: number, characters: number, minLength: number, maxLength: number, mask: Uint32Array): void {
    const room = maxLength - units;
    if (room < 1) return;
    const base = this.upTo(room);
    const limit = room - (minLength - characters);
    let clear = false;
    for (let k = 0; k < this.astral.length && !clear; k++) clear = (this.excess[k] as number) > limit;
    if (!clear) {
      for (let w = 0; w < mask.length; w++) mask[w] = (mask[w] as number) | (base[w] as number);
      return;
    }
    const own = base.slice();
    for (let k = 0; k < this.astral.length; k++) {
      if ((this.excess[k] as number) <= limit) continue;
      const id = this.astral[k] as number;
      own[id >>> 5] = (own[id >>> 5] as number) & ~(1 << (id & 31));
    }
    for (let w = 0; w < mask.length; w++) mask[w] = (mask[w] as number) | (own[w] as number);
  }

  /** The tokens that stay inside and add at most `room` units (shared: read only). */
  private upTo(room: number): Uint32Array {
    if (room >= this.maxUnits) return this.free;
    let mask = this.masks.get(room);
    if (mask === undefined) {
      mask = this.free.slice();
      for (let k = 0; k < this.byUnits.length; k++) {
        const id = this.byUnits[k] as number;
        if ((this.units[id] as number) <= room) break;
        mask[id >>> 5] = (mask[id >>> 5] as number) & ~(1 << (id & 31));
      }
      this.masks.set(room, mask);
    }
    return mask;
  }
}

const UNSET = 255;

/**
 * Units and characters a token adds to a string it stays inside of: a character starts at an ASCII
 * byte, a backslash (its escape is one character of one unit: `\uXXXX` escapes are read one unit at a
 * time) or a UTF-8 lead byte (two units from a four-byte lead on: a surrogate pair).
 */
function count(bytes: Uint8Array): { units: number; characters: number } {
  let units = 0;
  let characters = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80 && b < 0xc0) continue; // a continuation byte
    characters++;
    units += b >= 0xf0 ? 2 : 1;
    if (b === 0x5c) i += bytes[i + 1] === 0x75 ? 5 : 1; // the escape's own bytes
  }
  return { units, characters };
}
