import { appendBounded, type Branch, type GrammarNode, type Shortest, Structural } from './nodes.js';

interface TupleState {
  /** 0: reading the opener, 1: an item, 2: a separator, 3: the closer. */
  phase: number;
  /** Items read so far. */
  count: number;
}

/**
 * `[first, second, ..., rest, rest]`: an array whose items have a schema per position (`prefixItems`, or
 * draft 4's array form of `items`), then `rest` for any further item (null: no further item).
 */
export class TupleNode extends Structural {
  readonly maxItems: number;

  constructor(
    id: number,
    readonly opener: GrammarNode,
    readonly prefix: readonly GrammarNode[],
    readonly rest: GrammarNode | null,
    readonly separator: GrammarNode,
    readonly closer: GrammarNode,
    readonly minItems: number,
    maxItems: number,
  ) {
    super(id);
    this.maxItems = rest === null ? Math.min(maxItems, prefix.length) : maxItems;
  }

  /** The schema of item number `index` (from 0), or null when there is none. */
  itemAt(index: number): GrammarNode | null {
    if (index >= this.maxItems) return null;
    return this.prefix[index] ?? this.rest;
  }

  start(): Branch[] {
    return [{ state: { phase: 0, count: 0 }, child: this.opener }];
  }

  advance(raw: unknown): Branch[] {
    const { phase, count } = raw as TupleState;
    const out: Branch[] = [];
    switch (phase) {
      case 0:
      case 1: {
        const read = phase === 1 ? count + 1 : 0;
        const next = this.itemAt(read);
        if (next !== null) {
          out.push(
            phase === 0
              ? { state: { phase: 1, count: 0 }, child: next }
              : { state: { phase: 2, count: read }, child: this.separator },
          );
        }
        if (read >= this.minItems) out.push({ state: { phase: 3, count: read }, child: this.closer });
        return out;
      }
      case 2:
        return [{ state: { phase: 1, count }, child: this.itemAt(count) }];
      default:
        return [{ state: raw, child: null }];
    }
  }

  key(raw: unknown, horizon: number): string {
    const { phase, count } = raw as TupleState;
    // Past the prefix and minItems, only the distance to maxItems matters (and only within reach).
    const toMax = this.maxItems - count;
    const exact = count < this.prefix.length || count < this.minItems;
    return `${phase},${exact ? count : toMax > horizon ? '+' : `>${toMax}`}`;
  }

  firstChildren(): GrammarNode[] {
    return [this.opener];
  }

  remainder(raw: unknown, shortest: Shortest): number[] | null {
    const { phase, count } = raw as TupleState;
    if (phase === 3) return [];
    const out: number[] = [];
    const add = (node: GrammarNode | null): boolean => {
      const bytes = node === null ? null : shortest(node);
      if (bytes === null) return false;
      appendBounded(out, bytes);
      return true;
    };
    // After the opener no item is read yet; after an item, count + 1 are; after a separator, item
    // number `count` must follow.
    let next = phase === 0 ? 0 : phase === 1 ? count + 1 : count;
    if (phase === 2) {
      if (!add(this.itemAt(count))) return null;
      next = count + 1;
    }
    for (; next < this.minItems; next++) {
      if (next > 0 && !add(this.separator)) return null;
      if (!add(this.itemAt(next))) return null;
    }
    return add(this.closer) ? out : null;
  }
}
