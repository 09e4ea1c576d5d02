import type { DecoderVocabulary } from './vocabulary.js';

/**
 * The vocabulary as a byte trie laid out in preorder: node i's subtree is the contiguous range
 * [i, end[i]). A mask is one left-to-right pass over the nodes that skips a whole subtree as soon as
 * the grammar refuses its prefix, so tokens sharing a dead prefix are never looked at one by one.
 * Node 0 is the root (the empty prefix).
 */
export class TokenTrie {
  /** Byte on the edge into node i (unused for the root). */
  readonly byte: Uint8Array;
  /** Depth of node i (root 0). */
  readonly depth: Uint16Array;
  /** One past the last node of i's subtree. */
  readonly end: Int32Array;
  /** Token id whose bytes end at node i, or -1. */
  readonly token: Int32Array;
  /** Further token ids with the same bytes as `token[i]` (rare: duplicate entries in a vocabulary). */
  readonly duplicates: ReadonlyMap<number, readonly number[]>;
  readonly nodeCount: number;
  /** Longest token, in bytes: a grammar state can only be observed this far ahead by one token. */
  readonly maxTokenBytes: number;
  /**
   * 1 when some edge strictly below node i reads a `"`: inside a string, the only subtrees where a token
   * can close it (and so depend on what follows the string).
   */
  readonly quoteBelow: Uint8Array;

  /** `only`: keep just the tokens it accepts (a sub-index, e.g. of tokens holding a quote). */
  constructor(vocabulary: DecoderVocabulary, only?: (bytes: Uint8Array) => boolean) {
    const excluded = new Set<number>(vocabulary.eosTokenIds);
    for (const id of vocabulary.specialTokenIds ?? []) excluded.add(id);
    const ids: number[] = [];
    vocabulary.tokens.forEach((bytes, id) => {
      if (bytes.length > 0 && !excluded.has(id) && (!only || only(bytes))) ids.push(id);
    });
    const tokens = vocabulary.tokens;
    ids.sort((a, b) => compareBytes(tokens[a] as Uint8Array, tokens[b] as Uint8Array));

    // Build from sorted strings: each token shares a prefix with the previous one (their longest common
    // prefix); only the rest needs new nodes. Preorder numbering falls out of the sort.
    let capacity = 1024;
    let byte = new Uint8Array(capacity);
    let depth = new Uint16Array(capacity);
    let token = new Int32Array(capacity).fill(-1);
    let count = 1;
    const path: number[] = [0];
    const duplicates = new Map<number, number[]>();
    let previous: Uint8Array = new Uint8Array(0);
    let maxTokenBytes = 0;
    for (const id of ids) {
      const bytes = tokens[id] as Uint8Array;
      maxTokenBytes = Math.max(maxTokenBytes, bytes.length);
      let common = 0;
      const limit = Math.min(previous.length, bytes.length);
      while (common < limit && previous[common] === bytes[common]) common++;
      path.length = common + 1;
      for (let d = common; d < bytes.length; d++) {
        if (count === capacity) {
          capacity *= 2;
          byte = grow(byte, capacity);
          depth = grow(depth, capacity);
          const t = new Int32Array(capacity).fill(-1);
          t.set(token);
          token = t;
        }
        byte[count] = bytes[d] as number;
        depth[count] = d + 1;
        path.push(count);
        count++;
      }
      const node = path[path.length - 1] as number;
      if (token[node] === -1) token[node] = id;
      else {
        const list = duplicates.get(node) ?? [];
        list.push(id);
        duplicates.set(node, list);
      }
      previous = bytes;
    }
    // Subtree ends: a node's subtree ends where the next node of equal or smaller depth starts.
    const end = new Int32Array(count);
    const stack: number[] = [];
    for (let i = 0; i < count; i++) {
      const d = depth[i] as number;
      while (stack.length > 0 && (depth[stack[stack.length - 1] as number] as number) >= d) {
        end[stack.pop() as number] = i;
      }
      stack.push(i);
    }
    for (const i of stack) end[i] = count;
    const quoteBelow = new Uint8Array(count);
    const ancestors: number[] = [];
    for (let i = 1; i < count; i++) {
      const d = depth[i] as number;
      ancestors[d] = i;
      if (byte[i] !== 0x22) continue;
      quoteBelow[0] = 1;
      for (let a = 1; a < d; a++) quoteBelow[ancestors[a] as number] = 1;
    }
    this.quoteBelow = quoteBelow;
    this.byte = byte.subarray(0, count);
    this.depth = depth.subarray(0, count);
    this.token = token.subarray(0, count);
    this.end = end;
    this.duplicates = duplicates;
    this.nodeCount = count;
    this.maxTokenBytes = maxTokenBytes;
  }

  /**
   * The tokens below `node` as a trie of their remaining bytes (depths counted from `node`, token ids
   * unchanged): for passes written for a whole trie, such as a string's inside mask, run from the middle
   * of a token. Copies the subtree's depths and ends.
   */
  subtree(node: number): TokenTrie {
    const stop = this.end[node] as number;
    const base = this.depth[node] as number;
    const depth = this.depth.slice(node, stop).map((d) => d - base);
    const end = this.end.slice(node, stop).map((e) => e - node);
    const duplicates = new Map<number, readonly number[]>();
    for (const [at, ids] of this.duplicates) if (at >= node && at < stop) duplicates.set(at - node, ids);
    const view: TokenTrie = Object.create(TokenTrie.prototype);
    Object.assign(view, {
      byte: this.byte.subarray(node, stop),
      depth,
      end,
      token: this.token.subarray(node, stop),
      duplicates,
      nodeCount: stop - node,
      maxTokenBytes: this.maxTokenBytes - base,
      quoteBelow: this.quoteBelow.subarray(node, stop),
    });
    return view;
  }

  /** The child of `node` along byte `b`, or -1 (children are contiguous subtrees: a scan of siblings). */
  child(node: number, b: number): number {
    if ((this.end[node] as number) - node > TABLE_SUBTREE) return this.childTable(node)[b] as number;
    let child = node + 1;
    const stop = this.end[node] as number;
    while (child < stop) {
      if (this.byte[child] === b) return child;
      child = this.end[child] as number;
    }
    return -1;
  }

  /**
   * The children of a node with a large subtree (the root, a space: hundreds of children) by byte, built
   * on first use: masks that look up a few bytes there (a number's digits) would otherwise scan them all.
   */
  private childTable(node: number): Int32Array {
    this.tables ??= new Map();
    let table = this.tables.get(node);
    if (table === undefined) {
      table = new Int32Array(256).fill(-1);
      const stop = this.end[node] as number;
      for (let child = node + 1; child < stop; child = this.end[child] as number) {
        table[this.byte[child] as number] = child;
      }
      this.tables.set(node, table);
    }
    return table;
  }
  private tables: Map<number, Int32Array> | undefined;

  /** The node reached by `bytes` from the root, or -1. Linear in the children scanned; for rare use. */
  find(bytes: Uint8Array): number {
    let node = 0;
    for (const b of bytes) {
      node = this.child(node, b);
      if (node < 0) return -1;
    }
    return node;
  }

  /**
   * The tokens strictly below `node` (longer tokens that start with its bytes), in trie order, lazily: a
   * caller looking for one that fits stops at the first. Duplicate entries of a token's bytes left out.
   */
  *tokensBelow(node: number): Generator<number> {
    const stop = this.end[node] as number;
    for (let i = node + 1; i < stop; i++) {
      const id = this.token[i] as number;
      if (id >= 0) yield id;
    }
  }

  /** Sets in `mask` the bit of every token whose bytes end at `node` (usually none or one). */
  markTokens(mask: Uint32Array, node: number): void {
    const id = this.token[node] as number;
    if (id < 0) return;
    mask[id >>> 5] = (mask[id >>> 5] as number) | (1 << (id & 31));
    const more = this.duplicates.get(node);
    if (more)
      for (const other of more) mask[other >>> 5] = (mask[other >>> 5] as number) | (1 << (other & 31));
  }
}

/** Subtrees larger than this (in nodes) get a table of their children (see `childTable`). */
const TABLE_SUBTREE = 4096;

function grow<T extends Uint8Array | Uint16Array>(array: T, capacity: number): T {
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  return next;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
