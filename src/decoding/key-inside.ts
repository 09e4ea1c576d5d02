import {
  hexValue,
  SIMPLE_ESCAPES,
  UTF8_CONTINUATIONS,
  UTF8_SECOND_HIGH,
  UTF8_SECOND_LOW,
  utf8LeadBits,
} from './json-string-bytes.js';
import type { KeyExtras } from './key-extras.js';
import type { NameTrie } from './name-trie.js';
import type { TokenTrie } from './token-trie.js';

/**
 * What the inside pass asks of a key leaf (KeyLeaf implements it): its names, what undeclared keys may be,
 * and whether a valid key is still ahead. An interface here, not KeyLeaf's type, so that the two modules
 * do not import each other.
 */
export interface KeyLiveness {
  readonly trie: NameTrie;
  readonly extras: KeyExtras | null;
  live(node: number, autos: ArrayLike<number>, base: number, codePoints: number): boolean;
  prefixLive(
    node: number,
    autos: ArrayLike<number>,
    base: number,
    codePoints: number,
    partial: number,
    remaining: number,
    width: number,
  ): boolean;
  someLive(
    node: number,
    autos: ArrayLike<number>,
    base: number,
    codePoints: number,
    lo: number,
    hi: number,
  ): boolean;
}

/** What the inside pass reads of a key leaf's state (see KeyLeaf). */
export interface KeyInsideState {
  readonly escape: number;
  readonly pending: number;
  readonly low: number;
  readonly high: number;
  readonly partial: number;
  readonly width: number;
  readonly codePoints: number;
  readonly node: number;
  readonly autos: readonly number[];
}

/**
 * Sets the bits of the tokens that stay inside the quotes of a key from `s`, exactly as `KeyLeaf.step`
 * would take them byte by byte: a typed-array pass over the trie like `StringLeaf.insideMask`, running
 * the name trie and the automata that decide liveness alongside the bytes. A key bound by patterns
 * (`patternProperties` or `propertyNames` with no other keys) refuses bytes, so the string's own pass
 * does not apply, and the generic walk would step every token through the parser one by one.
 */
export function keyInsideMask(
  leaf: KeyLiveness,
  s: KeyInsideState,
  trie: TokenTrie,
  mask: Uint32Array,
): number {
  const automata = leaf.extras?.automata ?? [];
  // Only these automata's states are read by the liveness checks; the others are left unadvanced.
  const tracked = leaf.extras?.alternatives ?? [];
  const width = automata.length;
  const depthMax = trie.maxTokenBytes + 1;
  const esc = new Int8Array(depthMax);
  const pend = new Int8Array(depthMax);
  const lo = new Uint8Array(depthMax);
  const hi = new Uint8Array(depthMax);
  const part = new Int32Array(depthMax);
  const wide = new Int8Array(depthMax);
  const cps = new Float64Array(depthMax);
  const names = new Int32Array(depthMax);
  const autos = new Int32Array(depthMax * width);
  esc[0] = s.escape;
  pend[0] = s.pending;
  lo[0] = s.low;
  hi[0] = s.high;
  part[0] = s.partial;
  wide[0] = s.width;
  cps[0] = s.codePoints;
  names[0] = s.node;
  for (let k = 0; k < width; k++) autos[k] = s.autos[k] as number;
  const { byte: bytes, depth, end, nodeCount } = trie;
  let visited = 0;
  let i = 1;
  while (i < nodeCount) {
    visited++;
    const d = depth[i] as number;
    const p = d - 1;
    const base = p * width;
    const b = bytes[i] as number;
    let e = esc[p] as number;
    let n = pend[p] as number;
    let l = 0x80;
    let h = 0xbf;
    let pa = part[p] as number;
    let w = wide[p] as number;
    const c = cps[p] as number;
    const node = names[p] as number;
    let cp = -1;
    let ok = true;
    if (e === 1) {
      if (b === 0x75) {
        ok = leaf.someLive(node, autos, base, c, 0, 0xffff);
        e = 5;
        pa = 0;
      } else {
        const ch = SIMPLE_ESCAPES[b];
        if (ch === undefined) ok = false;
        else {
          e = 0;
          cp = ch;
        }
      }
    } else if (e > 1) {
      const digit = hexValue(b);
      if (digit < 0) ok = false;
      else {
        pa = (pa << 4) | digit;
        if (e > 2) {
          const shift = 4 * (e - 2);
          const from = pa * 2 ** shift;
          ok = leaf.someLive(node, autos, base, c, from, from + 2 ** shift - 1);
          e--;
        } else if (pa >= 0xd800 && pa <= 0xdfff) ok = false;
        else {
          e = 0;
          cp = pa;
          pa = 0;
        }
      }
    } else if (n > 0) {
      if (b < (lo[p] as number) || b > (hi[p] as number)) ok = false;
      else {
        pa = (pa << 6) | (b & 0x3f);
        if (n > 1) {
          ok = leaf.prefixLive(node, autos, base, c, pa, n - 1, w);
          n--;
        } else {
          cp = pa;
          n = 0;
          pa = 0;
          w = 0;
        }
      }
    } else if (b === 0x22 || b < 0x20)
      ok = false; // a closing quote: left to the walk of quoted tokens
    else if (b === 0x5c) {
      ok = leaf.someLive(node, autos, base, c, 0, 0xffff);
      e = 1;
    } else if (b < 0x80) cp = b;
    else {
      n = UTF8_CONTINUATIONS[b] as number;
      l = UTF8_SECOND_LOW[b] as number;
      h = UTF8_SECOND_HIGH[b] as number;
      if (n === 0) ok = false;
      else {
        pa = utf8LeadBits(b, n);
        w = n + 1;
        ok = leaf.prefixLive(node, autos, base, c, pa, n, w);
      }
    }
    const row = d * width;
    let next = node;
    let count = c;
    if (ok && cp >= 0) {
      next = leaf.trie.child(node, cp);
      for (const k of tracked) {
        autos[row + k] = (automata[k] as (typeof automata)[number]).next(autos[base + k] as number, cp);
      }
      count = c + 1;
      ok = leaf.live(next, autos, row, count);
    } else if (ok) for (const k of tracked) autos[row + k] = autos[base + k] as number;
    if (!ok) {
      i = end[i] as number;
      continue;
    }
    esc[d] = e;
    pend[d] = n;
    lo[d] = l;
    hi[d] = h;
    part[d] = pa;
    wide[d] = w;
    cps[d] = count;
    names[d] = next;
    trie.markTokens(mask, i);
    i++;
  }
  return visited;
}
