/**
 * The grammar a schema compiles to: a graph of nodes (cycles allowed, for recursive `$ref`). Leaves read
 * bytes; structural nodes only sequence their children. A parse position is a stack of frames (see
 * `stack-machine.ts`), so nodes hold no per-sequence state and one compiled grammar serves every matcher.
 */

import { SchemaLimitError } from '../errors.js';
import type { DynamicIds } from './dynamic-ids.js';

/** Returned by `Leaf.step` when the byte is refused. */
export const DEAD = Symbol('dead');
export type Dead = typeof DEAD;

export abstract class Leaf {
  readonly kind = 'leaf' as const;
  constructor(readonly id: number) {}
  abstract initial(): unknown;
  /** The state after `byte`, or `DEAD`. A state returned here always has a valid completion. */
  abstract step(state: unknown, byte: number): unknown;
  /** Whether the leaf may end here and let the next byte go to what follows (numbers, whitespace). */
  abstract canEnd(state: unknown): boolean;
  /** Whether the leaf is over and must hand control back at once (a closed string, a full literal). */
  abstract mustEnd(state: unknown): boolean;
  /**
   * A cache key for the state. Counters that differ only beyond `horizon` bytes ahead (the longest
   * token) share a key: no single token can tell them apart, so they share a mask.
   */
  abstract key(state: unknown, horizon: number, seen?: readonly string[] | null): string;
  /** Bytes that end the leaf validly from `state`, short where cheap; null if unknown (then search). */
  abstract completion(state: unknown): number[] | null;
  /** The value as a string, for `uniqueItems`; undefined when the leaf does not track it. */
  valueKey(_state: unknown): string | undefined {
    return undefined;
  }
  /** Whether the leaf keeps its value for `uniqueItems` (then `repeatsWhenFull` is asked). */
  keepsValue = false;
  /**
   * Whether `state`, an item of a unique list that already holds `seen`, is a dead end: its value
   * repeats one of them and nothing but its end can follow (a string at its maxLength). Such a state
   * is refused when stepped into, so a live position always has a byte to read.
   */
  repeatsWhenFull(_state: unknown, _seen: readonly string[]): boolean {
    return false;
  }
  /**
   * Every byte `step` could ever take, in any state, when they are few (a number's digits and signs,
   * whitespace); null for any byte. A superset is safe. Masks then look up only these bytes in the
   * token trie instead of trying every branch.
   */
  alphabet(): readonly number[] | null {
    return null;
  }
}

/** One way a structural node can go on: its new state and the child to enter (null: the node is done). */
export interface Branch {
  state: unknown;
  child: GrammarNode | null;
}

export abstract class Structural {
  readonly kind = 'structural' as const;
  /** Whether the value of the child that ended this node is this node's value (choices, references). */
  readonly transparent: boolean = false;
  constructor(readonly id: number) {}
  abstract start(): Branch[];
  /** The child entered in `state` has ended (with `value` when it tracks one). */
  abstract advance(state: unknown, value: string | undefined): Branch[];
  abstract key(state: unknown, horizon: number): string;
  /** The children a start can enter, for the compile-time left-recursion check. */
  abstract firstChildren(): GrammarNode[];
  /** Short bytes that end this node once the child read in `state` has ended; null if unknown. */
  abstract remainder(state: unknown, shortest: Shortest): number[] | null;
  /**
   * Whether `advance` from `state` reads the value its child ended with (a key, a unique item). Most
   * do not, and then every value ends the child the same way (see stack-machine.ts `finishedFrames`).
   */
  readsValue(_state: unknown): boolean {
    return false;
  }
}

/** A shortest sentence of each node (bytes), or null when the node has none. */
export type Shortest = (node: GrammarNode) => number[] | null;

/**
 * Most bytes of a shortest completion: a schema whose shortest document is longer (`minItems` times
 * a long `minLength`) is refused before the array outgrows what V8 can hold, which would end the
 * process. haggle's choice: 64 KiB is hundreds of times a negotiation turn, and it keeps every
 * completion below the size at which code that spreads it (`push(...bytes)`) overflows the stack:
 * at 4 MiB, a 1 MB shortest document (100 items of `minLength: 9999`) was a 502 "Maximum call stack
 * size exceeded" in `npm run abuse`.
 */
export const MAX_SENTENCE_BYTES = 64 * 1024;

function concat(parts: Array<number[] | null>): number[] | null {
  const out: number[] = [];
  for (const part of parts) {
    if (part === null) return null;
    appendBounded(out, part);
  }
  return out;
}

/**
 * Appends `part` to a shortest completion being built, refused past MAX_SENTENCE_BYTES. A loop, not
 * `push(...part)`: spreading a long part overflows the stack.
 */
export function appendBounded(out: number[], part: readonly number[]): void {
  if (out.length + part.length > MAX_SENTENCE_BYTES) tooLong();
  for (const byte of part) out.push(byte);
}

/** `part` `n` times over, refused before allocating when that is over MAX_SENTENCE_BYTES. */
function repeat(part: number[] | null, n: number): number[] | null {
  if (part === null) return n === 0 ? [] : null;
  if (part.length * n > MAX_SENTENCE_BYTES) tooLong();
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (const byte of part) out.push(byte);
  return out;
}

function tooLong(): never {
  throw new SchemaLimitError({ limit: 'document', value: MAX_SENTENCE_BYTES, schemaPath: '#' });
}

export type GrammarNode = Leaf | Structural;

/** Children in order. State: the index of the child being read. */
export class SequenceNode extends Structural {
  constructor(
    id: number,
    readonly children: GrammarNode[],
  ) {
    super(id);
  }
  start(): Branch[] {
    const first = this.children[0];
    return [{ state: 0, child: first ?? null }];
  }
  advance(state: unknown): Branch[] {
    const next = (state as number) + 1;
    return [{ state: next, child: this.children[next] ?? null }];
  }
  key(state: unknown): string {
    return String(state);
  }
  firstChildren(): GrammarNode[] {
    return this.children.slice(0, 1);
  }
  remainder(state: unknown, shortest: Shortest): number[] | null {
    return concat(this.children.slice((state as number) + 1).map(shortest));
  }
}

/** One of several alternatives; all are tried in parallel until the bytes tell them apart. */
export class ChoiceNode extends Structural {
  override readonly transparent = true;
  constructor(
    id: number,
    readonly options: GrammarNode[],
  ) {
    super(id);
  }
  start(): Branch[] {
    return this.options.map((child) => ({ state: 0, child }));
  }
  advance(): Branch[] {
    return [{ state: 0, child: null }];
  }
  key(): string {
    return '';
  }
  firstChildren(): GrammarNode[] {
    return this.options;
  }
  remainder(): number[] {
    return [];
  }
}

/** A `$ref`: its target is set after compiling, which lets definitions refer to themselves. */
export class ReferenceNode extends Structural {
  override readonly transparent = true;
  target: GrammarNode | null = null;
  start(): Branch[] {
    return [{ state: 0, child: this.target }];
  }
  advance(): Branch[] {
    return [{ state: 0, child: null }];
  }
  key(): string {
    return '';
  }
  firstChildren(): GrammarNode[] {
    return this.target ? [this.target] : [];
  }
  remainder(): number[] {
    return [];
  }
}

export interface ListState {
  /** 0: reading the opener, 1: an item, 2: a separator, 3: the closer. */
  phase: number;
  count: number;
  /** Values of the items so far, when items must be unique. */
  seen: readonly string[] | null;
}

/**
 * `[item, item, ...]` with a count between `minItems` and `maxItems` and optionally unique items; also
 * used for free-form objects (`{"key": value, ...}`) with a key-value pair as the item.
 */
export class ListNode extends Structural {
  /**
   * When items are unique and come from a finite set of literals (an enum), the literals: an item is
   * then entered as a choice of the values not used yet, and no separator is offered once all are used,
   * so a repeat is refused at its first distinguishing byte and no position is a dead end.
   */
  uniqueOptions: readonly Leaf[] | null = null;
  private readonly remaining = new Map<string, GrammarNode | null>();

  constructor(
    id: number,
    readonly opener: GrammarNode,
    readonly item: GrammarNode,
    readonly separator: GrammarNode,
    readonly closer: GrammarNode,
    readonly minItems: number,
    readonly maxItems: number,
    readonly unique: boolean,
    /** The grammar's counter for the choices `itemFor` makes while decoding. */
    private readonly dynamicIds: DynamicIds,
  ) {
    super(id);
  }
  start(): Branch[] {
    const state: ListState = { phase: 0, count: 0, seen: this.unique ? [] : null };
    return [{ state, child: this.opener }];
  }

  /** The item to enter given the values seen (null: none left). */
  private itemFor(seen: readonly string[] | null): GrammarNode | null {
    const options = this.uniqueOptions;
    if (options === null || seen === null || seen.length === 0) return this.item;
    // By the set of values: the same node for the same options left, whatever order they were taken in.
    const key = seenKey(seen);
    if (this.remaining.has(key)) return this.remaining.get(key) ?? null;
    const left = options.filter((leaf) => !seen.includes(leaf.valueKey(undefined) ?? ''));
    const node =
      left.length === 0
        ? null
        : left.length === 1
          ? (left[0] as Leaf)
          : new ChoiceNode(this.dynamicIds.take(), [...left]);
    this.remaining.set(key, node);
    return node;
  }
  override readsValue(raw: unknown): boolean {
    const state = raw as ListState;
    return state.phase === 1 && state.seen !== null;
  }
  advance(raw: unknown, value: string | undefined): Branch[] {
    const state = raw as ListState;
    const out: Branch[] = [];
    let { count, seen } = state;
    switch (state.phase) {
      case 1:
        if (seen !== null) {
          if (value === undefined || seen.includes(value)) return out;
          seen = [...seen, value];
        }
        count++;
        if (count < this.maxItems && this.itemFor(seen) !== null) {
          out.push({ state: { phase: 2, count, seen }, child: this.separator });
        }
        if (count >= this.minItems) out.push({ state: { phase: 3, count, seen }, child: this.closer });
        return out;
      case 0:
        if (this.maxItems > 0) out.push({ state: { phase: 1, count, seen }, child: this.item });
        if (this.minItems === 0) out.push({ state: { phase: 3, count, seen }, child: this.closer });
        return out;
      case 2:
        return [{ state: { phase: 1, count, seen }, child: this.itemFor(seen) }];
      default:
        return [{ state, child: null }];
    }
  }
  key(raw: unknown, horizon: number): string {
    const state = raw as ListState;
    // The count matters only below minItems and within reach of maxItems.
    const toMax = this.maxItems - state.count;
    const countKey = state.count < this.minItems ? `<${state.count}` : toMax > horizon ? '+' : `>${toMax}`;
    // The values seen as a set: which items may still come does not depend on their order, and a list
    // of enum items then has one position per set of values taken, not one per order (issue 45: most
    // of an offer schema's precomputed positions were the same sets in other orders).
    return `${state.phase},${countKey}${state.seen ? `,${seenKey(state.seen)}` : ''}`;
  }
  firstChildren(): GrammarNode[] {
    return [this.opener];
  }
  remainder(raw: unknown, shortest: Shortest): number[] | null {
    const state = raw as ListState;
    const item = shortest(this.item);
    const distinct = this.unique && this.uniqueOptions === null && state.seen !== null;
    const more = (n: number) =>
      distinct
        ? distinctItems(item, state.seen as readonly string[], n, shortest(this.separator), state.phase === 1)
        : repeat(concat([shortest(this.separator), item]), n);
    const close = shortest(this.closer);
    if (distinct) {
      // The first of the items made after the opener or a separator comes without a separator.
      const sepLength = shortest(this.separator)?.length ?? 0;
      const lead = (n: number) => more(n)?.slice(sepLength) ?? null;
      switch (state.phase) {
        case 0:
          return this.minItems === 0 ? close : concat([lead(this.minItems), close]);
        case 1:
          return concat([more(Math.max(0, this.minItems - state.count - 1)), close]);
        case 2:
          return concat([lead(Math.max(1, this.minItems - state.count)), close]);
        default:
          return [];
      }
    }
    switch (state.phase) {
      case 0:
        return this.minItems === 0 ? close : concat([item, more(this.minItems - 1), close]);
      case 1:
        return concat([more(Math.max(0, this.minItems - state.count - 1)), close]);
      case 2:
        return concat([item, more(Math.max(0, this.minItems - state.count - 1)), close]);
      default:
        return [];
    }
  }
}

/** The values of a unique list as a set: sorted when out of order (a copy; the state is shared). */
function seenKey(seen: readonly string[]): string {
  for (let i = 1; i < seen.length; i++) {
    if ((seen[i - 1] as string) > (seen[i] as string)) return [...seen].sort().join('\u0000');
  }
  return seen.join('\u0000');
}

/**
 * `n` more items of a unique list of strings, each led by `separator`: the shortest string with a
 * suffix counting in letters (`""`, `"a"`, `"b"`, ..., `"aa"`), skipping the values the list holds, so
 * that finishing a list of unique strings near the token budget is a few bytes per item and not a
 * search. `inItem`: an item is being read, whose value is not known yet; the plain shortest is skipped,
 * as it is the value that item most often ends with. A string with constraints the suffixes break
 * (a pattern, a format) fails the matcher's check of the completion, which then searches as before.
 * Null when the shortest item is not a plain string.
 */
function distinctItems(
  item: number[] | null,
  seen: readonly string[],
  n: number,
  separator: number[] | null,
  inItem: boolean,
): number[] | null {
  if (item === null || separator === null) return null;
  if (item.length < 2 || item[0] !== 0x22 || item[item.length - 1] !== 0x22) return null;
  const inner = item.slice(1, -1);
  if (inner.some((b) => b === 0x5c || b >= 0x80)) return null;
  const base = String.fromCharCode(...inner);
  const taken = new Set(seen);
  const out: number[] = [];
  let k = inItem ? 1 : 0;
  for (let made = 0; made < n; k++) {
    const value = base + letterSuffix(k);
    if (taken.has(value)) continue;
    taken.add(value);
    const bytes = [0x22, ...Array.from(value, (c) => c.charCodeAt(0)), 0x22];
    appendBounded(out, separator);
    appendBounded(out, bytes);
    made++;
  }
  return out;
}

/** 0: "", 1: "a", ..., 26: "z", 27: "aa": the k-th string over a-z in length-then-alphabetical order. */
function letterSuffix(k: number): string {
  let out = '';
  for (let rest = k; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    out = String.fromCharCode(0x61 + ((rest - 1) % 26)) + out;
  }
  return out;
}
