import type { TokenTrie } from '../vocabulary/token-trie.js';
import { type InsideWalker, walkInsideString } from './json-string-machine.js';
import type { KeyExtras } from './key-extras.js';
import type { NameTrie } from './name-trie.js';

/**
 * What the inside pass asks of a key leaf (KeyLeaf implements it): its names, what undeclared keys may be,
 * and whether a valid key is still ahead. An interface here, not KeyLeaf's type, so that the two modules
 * do not import each other.
 */
export interface KeyLiveness {
  readonly trie: NameTrie;
  readonly extras: KeyExtras | null;
  live(node: number, autos: ArrayLike<number>, base: number, codePoints: number): boolean;
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
  readonly bytes: number;
  readonly codePoints: number;
  readonly node: number;
  readonly autos: readonly number[];
}

/**
 * Sets the bits of the tokens that stay inside the quotes of a key from `s`, exactly as `KeyLeaf.step`
 * would take them byte by byte: the shared inside-string walk (json-string-machine.ts), running the name
 * trie and the automata that decide liveness alongside the bytes. A key bound by patterns
 * (`patternProperties` or `propertyNames` with no other keys) refuses bytes, so the table of plain
 * string lengths does not apply, and the generic walk would step every token through the parser.
 */
export function keyInsideMask(
  leaf: KeyLiveness,
  s: KeyInsideState,
  trie: TokenTrie,
  mask: Uint32Array,
): number {
  return walkInsideString(s.bytes, new KeyInsideWalker(leaf, s, trie.maxTokenBytes + 1), trie, mask);
}

/** A key's rows of the inside walk: code points, name-trie node and automata states per trie depth. */
class KeyInsideWalker implements InsideWalker {
  readonly refusesSurrogateEscapes = true;
  private readonly codePoints: Float64Array;
  private readonly names: Int32Array;
  /** `width` automata states per depth; only the tracked ones (`extras.alternatives`) are advanced. */
  private readonly autos: Int32Array;
  private readonly width: number;
  private readonly tracked: readonly number[];

  constructor(
    private readonly leaf: KeyLiveness,
    start: KeyInsideState,
    depths: number,
  ) {
    this.width = leaf.extras?.automata.length ?? 0;
    this.tracked = leaf.extras?.alternatives ?? [];
    this.codePoints = new Float64Array(depths);
    this.names = new Int32Array(depths);
    this.autos = new Int32Array(depths * this.width);
    this.codePoints[0] = start.codePoints;
    this.names[0] = start.node;
    for (let k = 0; k < this.width; k++) this.autos[k] = start.autos[k] as number;
  }

  canReadRange(at: number, lo: number, hi: number): boolean {
    const { codePoints, names, autos, width } = this;
    return this.leaf.someLive(names[at] as number, autos, at * width, codePoints[at] as number, lo, hi);
  }

  read(from: number, to: number, cp: number): boolean {
    const { autos, width, leaf } = this;
    const automata = leaf.extras?.automata ?? [];
    const next = leaf.trie.child(this.names[from] as number, cp);
    for (const k of this.tracked) {
      autos[to * width + k] = (automata[k] as (typeof automata)[number]).next(
        autos[from * width + k] as number,
        cp,
      );
    }
    const count = (this.codePoints[from] as number) + 1;
    if (!leaf.live(next, autos, to * width, count)) return false;
    this.codePoints[to] = count;
    this.names[to] = next;
    return true;
  }

  carry(from: number, to: number): void {
    const { autos, width } = this;
    for (const k of this.tracked) autos[to * width + k] = autos[from * width + k] as number;
    this.codePoints[to] = this.codePoints[from] as number;
    this.names[to] = this.names[from] as number;
  }
}
