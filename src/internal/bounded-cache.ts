/**
 * A map with a most-entries limit: setting a new key into a full cache drops the entry that was set
 * (or, with `order: 'use'`, used) longest ago. The decoder's and the ONNX worker's caches are these, so
 * every one of them has a stated bound, and "drop the oldest" is written once (a `Map` keeps insertion
 * order; a read that counts as use moves its entry to the end).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();
  /** Entries dropped to make room, since the cache was made (for memory reports and benches). */
  evictions = 0;

  constructor(
    /** Most entries kept (at least 1). */
    readonly limit: number,
    /** `insertion`: the first set goes first; `use`: the least recently read or set goes first. */
    private readonly order: 'insertion' | 'use' = 'insertion',
  ) {
    if (!(Number.isInteger(limit) && limit >= 1))
      throw new RangeError(`a BoundedCache limit is a positive integer, got ${limit}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && this.order === 'use') {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
        this.evictions++;
      }
    }
    this.entries.set(key, value);
  }

  /** The value of `key`, made with `make` and kept when absent. */
  getOrCreate(key: K, make: () => V): V {
    const known = this.get(key);
    if (known !== undefined) return known;
    const made = make();
    this.set(key, made);
    return made;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }

  /** Key and value pairs, the next to be dropped first (reading them does not count as use). */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries.entries();
  }
}
