import type { PatternAutomaton } from '../regex/regex.js';
import type { TokenTrie } from '../vocabulary/token-trie.js';
import type { InsideKeys } from './inside-keys.js';
import { BETWEEN_CHARACTERS, midCharacter } from './json-string-machine.js';
import type { KeyExtras } from './key-extras.js';
import { keyInsideMask } from './key-inside.js';
import type { NameTrie } from './name-trie.js';
import { DEAD } from './nodes.js';
import { characterText, STRING_START, StringLeaf } from './string-leaf.js';

/** Trie tag of a name that may not be written here (used already, or forbidden by the schema). */
export const BLOCKED = -2;

/** Field names shared with StringLeaf's state, so that its fast inside-the-string mask applies. */
interface KeyState {
  /** 0: before the opening quote, 1: inside, 2: closed. */
  readonly phase: number;
  readonly units: number;
  readonly codePoints: number;
  readonly bytes: number;
  readonly pattern: number;
  /** The key read so far, kept only when the object remembers its undeclared keys. */
  readonly value: string;
  /** Node of the name trie, -1 once the key is none of its names. */
  readonly node: number;
  /** States of `extras.automata`. */
  readonly autos: readonly number[];
  /** Once closed: `n<index>` for a named key, `x<class>` for an undeclared one. */
  readonly result: string;
}

const encoder = new TextEncoder();
const NO_CHILDREN = { codePoints: [] as readonly number[], nodes: [] as readonly number[] };

/** Code points of [lo, hi] that can be characters (surrogates excluded). */
function characterCount(lo: number, hi: number): number {
  if (hi < lo) return 0;
  const overlap = Math.max(0, Math.min(hi, 0xdfff) - Math.max(lo, 0xd800) + 1);
  return hi - lo + 1 - overlap;
}

/**
 * The key of an object member, decoded to code points (escapes and UTF-8 alike, so `"\u0061"` is the
 * key `a`). It reads either a name of the trie tagged available (a declared or otherwise named key not
 * used yet) or, when `extras` is given, an undeclared key: one that is no name of the trie at all. A byte
 * is refused when no key can follow it, so every state it returns still has a valid completion. It
 * reports which key it read through `valueKey`, for the object to pick the value's schema.
 */
export class KeyLeaf extends StringLeaf {
  /** Per trie node: whether an available name lies at or below it. */
  private readonly namedLive: Uint8Array;
  private readonly liveMemo = new Map<string, boolean>();
  /** Whether every key is live whatever the names (see `insideKey`). */
  private readonly freeInside: boolean;
  /**
   * What the inside masks depend on besides the state, as a number of the `InsideKeys` that gave it
   * (computed when first needed, again for another compiler's keys).
   */
  private shapeId = -1;
  private shapeKeys: InsideKeys | null = null;

  constructor(
    id: number,
    readonly trie: NameTrie,
    readonly extras: KeyExtras | null,
    /** Keep the text of undeclared keys (the object refuses a repeated one). */
    readonly keepText: boolean,
  ) {
    super(id, { minLength: 0, maxLength: Number.POSITIVE_INFINITY, pattern: null, collect: false });
    this.namedLive = trie.reaching((tag) => tag >= 0);
    this.freeInside =
      extras !== null && extras.alternatives === null && extras.maxLength === Number.POSITIVE_INFINITY;
  }

  /** Whether some key can be read at all. */
  get readable(): boolean {
    return this.live(0, this.startAutos(), 0, 0);
  }

  /**
   * Inside the quotes the tokens that stay inside come from the shared inside cache (`keyInsideMask`),
   * and only tokens that close the key are walked one by one with the full parser.
   */
  override isInside(state: unknown): boolean {
    return (state as KeyState).phase === 1;
  }

  override insideMask(raw: unknown, trie: TokenTrie, mask: Uint32Array): number {
    return keyInsideMask(this, raw as KeyState, trie, mask);
  }

  /**
   * The key of what `keyInsideMask` depends on: the leaf's shape (names, automata, bounds) and the
   * key's state, never the text read so far. Keys of any undeclared string refuse no character whatever
   * the names, so they share one mask per escape or UTF-8 state.
   */
  override insideKey(raw: unknown, horizon: number, keys: InsideKeys): string {
    const s = raw as KeyState;
    const utf = s.bytes;
    if (this.freeInside) return `free:${utf}`;
    const extras = this.extras;
    let length = '';
    if (extras !== null && (extras.minLength > 0 || extras.maxLength !== Number.POSITIVE_INFINITY)) {
      const toMax = extras.maxLength - s.codePoints;
      length = `${s.codePoints < extras.minLength ? s.codePoints : '+'}/${toMax > horizon ? 'H' : toMax}`;
    }
    const autos = (extras?.alternatives ?? []).map((i) => s.autos[i]).join('.');
    return `${this.shape(keys)}:${utf},${s.node},${autos},${length}`;
  }

  override initial(): unknown {
    const state: KeyState = {
      ...STRING_START,
      node: 0,
      autos: this.startAutos(),
      result: '',
    };
    return state;
  }

  // Bytes are read by StringLeaf's step (the shared machine of json-string-machine.ts): a key differs
  // only in what a character may be (`canReadRange`, `addCodePoint`) and when it may close (`close`).

  /** Keys are matched by whole characters: a surrogate escape is half of one. */
  override get refusesSurrogateEscapes(): boolean {
    return true;
  }

  override canReadRange(s: KeyState, lo: number, hi: number): boolean {
    return this.someLive(s.node, s.autos, 0, s.codePoints, lo, hi);
  }

  override canEnd(): boolean {
    return false;
  }

  override mustEnd(state: unknown): boolean {
    return (state as KeyState).phase === 2;
  }

  override key(raw: unknown, horizon: number): string {
    const s = raw as KeyState;
    if (s.phase !== 1) return String(s.phase);
    const extras = this.extras;
    let length = '';
    if (extras !== null && (extras.minLength > 0 || extras.maxLength !== Number.POSITIVE_INFINITY)) {
      const toMax = extras.maxLength - s.codePoints;
      length = `${s.codePoints < extras.minLength ? s.codePoints : '+'}/${toMax > horizon ? 'H' : toMax}`;
    }
    // The text matters only when it is reported (a repeated undeclared key is refused later).
    const text = this.keepText ? s.value : '';
    return `${s.bytes},${s.node},${s.autos.join('.')},${length},${text}`;
  }

  /** See `shapeId`: equal leaves of different grammars (shared automata, equal names) get equal ids. */
  private shape(keys: InsideKeys): number {
    if (this.shapeKeys !== keys) {
      const extras = this.extras;
      const rule =
        extras === null
          ? 'names'
          : `${extras.alternatives?.map((i) => keys.objectId(extras.automata[i] as PatternAutomaton)).join('.') ?? 'any'}/${extras.minLength}/${extras.maxLength}`;
      this.shapeId = keys.shapeId(`${rule}|${this.trie.shape()}`);
      this.shapeKeys = keys;
    }
    return this.shapeId;
  }

  /** A shortest-ish key from `state`, by breadth-first search over likely characters; null if not found. */
  override completion(raw: unknown): number[] | null {
    const s = raw as KeyState;
    if (s.phase === 2) return [];
    if (midCharacter(s.bytes)) return null;
    const start = s.phase === 0 ? ({ ...s, phase: 1 } as KeyState) : s;
    const prefix = s.phase === 0 ? [0x22] : [];
    interface Step {
      state: KeyState;
      cps: number[];
    }
    const seen = new Set<string>();
    let level: Step[] = [{ state: start, cps: [] }];
    for (let depth = 0; depth < 64 && level.length > 0 && seen.size < 4000; depth++) {
      const next: Step[] = [];
      for (const step of level) {
        if (this.close(step.state) !== DEAD) {
          const text = JSON.stringify(String.fromCodePoint(...step.cps)).slice(1);
          return [...prefix, ...encoder.encode(text)];
        }
        for (const cp of this.candidates(step.state)) {
          const after = this.addCodePoint(step.state, cp);
          if (after === DEAD) continue;
          const key = this.key(after, Number.POSITIVE_INFINITY);
          if (seen.has(key)) continue;
          seen.add(key);
          next.push({ state: after as KeyState, cps: [...step.cps, cp] });
        }
      }
      level = next;
    }
    return null;
  }

  override valueKey(state: unknown): string | undefined {
    const s = state as KeyState;
    return s.phase === 2 ? s.result : undefined;
  }

  private startAutos(): number[] {
    return this.extras ? this.extras.automata.map((a) => a.start) : [];
  }

  private candidates(s: KeyState): number[] {
    const out = new Set<number>();
    if (s.node >= 0) for (const cp of this.trie.children(s.node).codePoints) out.add(cp);
    for (let cp = 0x61; cp <= 0x7a; cp++) out.add(cp);
    for (let cp = 0x30; cp <= 0x39; cp++) out.add(cp);
    out.add(0x5f);
    this.extras?.automata.forEach((automaton, i) => {
      const path = automaton.shortestAccepted(s.autos[i] as number);
      if (path && path.length > 0) out.add(path[0] as number);
    });
    return [...out];
  }

  // The hottest step of a mask inside keys (every token holding a quote is read through it): no array
  // is made when there are no automata, and the state is written out field by field (a spread of a
  // fifteen-field object cost about as much as the rest of the step).
  protected override addCodePoint(s: KeyState, cp: number): unknown {
    const node = this.trie.child(s.node, cp);
    const automata = this.extras?.automata;
    const autos =
      automata !== undefined && automata.length > 0
        ? automata.map((a, i) => a.next(s.autos[i] as number, cp))
        : s.autos;
    const codePoints = s.codePoints + 1;
    if (!this.live(node, autos, 0, codePoints)) return DEAD;
    const state: KeyState = {
      phase: s.phase,
      units: s.units + (cp > 0xffff ? 2 : 1),
      codePoints,
      bytes: BETWEEN_CHARACTERS,
      pattern: s.pattern,
      value: this.keepText ? s.value + characterText(cp) : s.value,
      node,
      autos,
      result: s.result,
    };
    return state;
  }

  protected override close(s: KeyState): unknown {
    if (midCharacter(s.bytes)) return DEAD;
    const tag = this.trie.tag(s.node);
    if (tag >= 0) return { ...s, phase: 2, result: `n${tag}` };
    const extras = this.extras;
    if (tag !== -1 || extras === null) return DEAD;
    if (s.codePoints < extras.minLength || s.codePoints > extras.maxLength) return DEAD;
    const accepted = extras.automata.map((a, i) => a.isAccepting(s.autos[i] as number));
    if (extras.alternatives !== null && !extras.alternatives.some((i) => accepted[i])) return DEAD;
    const cls = extras.classify(accepted);
    if (cls === null) return DEAD;
    return { ...s, phase: 2, result: this.keepText ? `x${cls}:${s.value}` : `x${cls}` };
  }

  /** A key's closing depends on the name it spells: see `closesByName`. */
  override closesAnywhere(): boolean {
    return false;
  }

  /**
   * Whether, from `raw`, every character is live and the key closes by its name alone: any undeclared key is allowed
   * (no automata, no length bounds) and its text is not kept. Then what a key's closing quote leads to
   * depends only on the name trie node its text reaches (`closeAfter`), and which bytes it reads inside
   * only on its escape or UTF-8 state, as for the shared inside masks (`insideKey`'s `free:`).
   */
  closesByName(raw: unknown): boolean {
    const s = raw as KeyState;
    const extras = this.extras;
    return (
      s.phase === 1 &&
      s.bytes === BETWEEN_CHARACTERS &&
      this.freeInside &&
      !this.keepText &&
      extras !== null &&
      extras.automata.length === 0 &&
      extras.minLength === 0
    );
  }

  /**
   * For a leaf that `closesByName(raw)`: the value its closing quote
   * reports (`valueKey`) after it reads the characters `codePoints`, or undefined when the quote is
   * refused there (the text is a name the object blocks). What `close` decides, without stepping the
   * characters one by one: for such a leaf they are all live, so only the name trie node matters.
   */
  closeAfter(raw: unknown, codePoints: readonly number[]): string | undefined {
    let node = (raw as KeyState).node;
    for (let k = 0; k < codePoints.length && node >= 0; k++)
      node = this.trie.child(node, codePoints[k] as number);
    const tag = this.trie.tag(node);
    if (tag >= 0) {
      this.namedResults ??= [];
      let result = this.namedResults[tag];
      if (result === undefined) {
        result = `n${tag}`;
        this.namedResults[tag] = result;
      }
      return result;
    }
    if (tag !== -1) return undefined;
    if (this.extraResult === undefined) {
      const cls = (this.extras as KeyExtras).classify([]);
      this.extraResult = cls === null ? null : `x${cls}`;
    }
    return this.extraResult ?? undefined;
  }
  private namedResults: string[] | undefined;
  private extraResult: string | null | undefined;

  /**
   * `raw` (where the leaf `closesByName`) with the key off the name trie: a state that reads
   * the same bytes, used to learn once per vocabulary which texts before a quote close the key.
   */
  offNames(raw: unknown): unknown {
    return { ...(raw as KeyState), node: -1 };
  }

  /** Whether a key that has read the code points leading to this trie node and automata states can end validly. */
  live(node: number, autos: ArrayLike<number>, base: number, codePoints: number): boolean {
    if (node >= 0 && this.namedLive[node] === 1) return true;
    return this.extras !== null && this.extrasLive(node, autos, base, codePoints);
  }

  /** Automata states are read from `autos[base + i]` (a row of the inside pass's typed array). */
  private extrasLive(node: number, autos: ArrayLike<number>, base: number, codePoints: number): boolean {
    const extras = this.extras as KeyExtras;
    if (codePoints > extras.maxLength) return false;
    if (extras.alternatives === null) {
      if (node < 0) return true;
      if (codePoints >= extras.minLength && this.trie.tag(node) === -1) return true;
      // One more character outside the trie leaves every name behind.
      return Math.max(codePoints + 1, extras.minLength) <= extras.maxLength;
    }
    for (const i of extras.alternatives)
      if (this.automatonLive(i, autos[base + i] as number, node)) return true;
    return false;
  }

  /** Whether automaton `i` in state `q` accepts some continuation that is not a name of the trie. */
  private automatonLive(i: number, q: number, node: number): boolean {
    if (q < 0) return false;
    if (node < 0) return true;
    const memoKey = `${i},${q},${node}`;
    const known = this.liveMemo.get(memoKey);
    if (known !== undefined) return known;
    const automaton = (this.extras as KeyExtras).automata[i] as PatternAutomaton;
    let live = automaton.isAccepting(q) && this.trie.tag(node) === -1;
    const { codePoints, nodes } = this.trie.children(node);
    let from = 0;
    for (let k = 0; k <= codePoints.length && !live; k++) {
      const to = k < codePoints.length ? (codePoints[k] as number) - 1 : 0x10ffff;
      if (from <= to && automaton.allowsSome(q, from, to)) live = true;
      from = to + 2;
    }
    for (let k = 0; k < codePoints.length && !live; k++) {
      const cp = codePoints[k] as number;
      if (this.automatonLive(i, automaton.next(q, cp), nodes[k] as number)) live = true;
    }
    this.liveMemo.set(memoKey, live);
    return live;
  }

  /** Whether some character in [lo, hi] can come next with a valid key still ahead. */
  someLive(
    node: number,
    autos: ArrayLike<number>,
    base: number,
    codePoints: number,
    lo: number,
    hi: number,
  ): boolean {
    const children = node >= 0 ? this.trie.children(node) : NO_CHILDREN;
    const inRange: number[] = [];
    for (let k = 0; k < children.codePoints.length; k++) {
      const cp = children.codePoints[k] as number;
      if (cp >= lo && cp <= hi && (cp < 0xd800 || cp > 0xdfff)) inRange.push(k);
    }
    for (const k of inRange) if (this.namedLive[children.nodes[k] as number] === 1) return true;
    const extras = this.extras;
    if (extras === null || codePoints + 1 > extras.maxLength) return false;
    const length = codePoints + 1;
    if (extras.alternatives === null) {
      // A character outside the trie: the key is then no name, and any longer key will do.
      if (characterCount(lo, hi) > inRange.length) return true;
      return inRange.some((k) => this.extrasLive(children.nodes[k] as number, autos, base, length));
    }
    for (const i of extras.alternatives) {
      const automaton = extras.automata[i] as PatternAutomaton;
      const q = autos[base + i] as number;
      if (q < 0) continue;
      let from = lo;
      for (const k of inRange) {
        const cp = children.codePoints[k] as number;
        if (from <= cp - 1 && automaton.allowsSome(q, from, cp - 1)) return true;
        from = cp + 1;
      }
      if (from <= hi && automaton.allowsSome(q, from, hi)) return true;
      for (const k of inRange) {
        const cp = children.codePoints[k] as number;
        if (this.automatonLive(i, automaton.next(q, cp), children.nodes[k] as number)) return true;
      }
    }
    return false;
  }
}
