/** A KV cache buffer: float32, or float16 kept as raw bits (Node 20 has no Float16Array). */
export type KvArray = Float32Array | Uint16Array;

/**
 * The batch's KV cache as plain arrays, one pair per layer, each [batch, kvHeads, length, headDim],
 * laid out exactly as the model's `present.*` outputs so a step's outputs become the next step's
 * inputs without a copy. Copies happen only when rows join or leave, or when leading columns that
 * no row attends to any more are dropped.
 */
export class KvCache {
  /** `layers * 2` arrays: layer 0 key, layer 0 value, layer 1 key, ... */
  arrays: KvArray[];
  batch = 0;
  length = 0;

  constructor(
    readonly layers: number,
    readonly kvHeads: number,
    readonly headDim: number,
    readonly float16: boolean,
  ) {
    this.arrays = Array.from({ length: layers * 2 }, () => this.allocate(0));
  }

  private allocate(size: number): KvArray {
    return this.float16 ? new Uint16Array(size) : new Float32Array(size);
  }

  /** Elements of one row of one array. */
  private rowSize(length = this.length): number {
    return this.kvHeads * length * this.headDim;
  }

  /** Takes a step's `present.*` data as the cache (length grows by the step's tokens). */
  replace(arrays: KvArray[], length: number): void {
    this.arrays = arrays;
    this.length = length;
  }

  /** Appends `count` empty rows (a new sequence sees none of them: its mask is 0 there). */
  addRows(count: number): void {
    const size = this.rowSize();
    this.arrays = this.arrays.map((old) => {
      const grown = this.allocate((this.batch + count) * size);
      grown.set(old.subarray(0, this.batch * size));
      return grown;
    });
    this.batch += count;
  }

  /** Keeps only the rows whose indexes are listed, in that order. */
  keepRows(rows: readonly number[]): void {
    const size = this.rowSize();
    this.arrays = this.arrays.map((old) => {
      const kept = this.allocate(rows.length * size);
      rows.forEach((row, i) => {
        kept.set(old.subarray(row * size, (row + 1) * size), i * size);
      });
      return kept;
    });
    this.batch = rows.length;
    if (this.batch === 0) this.length = 0;
  }

  /**
   * Rebuilds the cache `length` columns long, with row r holding the listed old columns `columns[r]`
   * (in order) right-aligned: rows that joined at different times stop pinning each other's dead
   * columns, so every step attends over the longest live row, not the whole history of the batch.
   */
  compact(columns: readonly (readonly number[])[], length: number): void {
    const { headDim, kvHeads } = this;
    this.arrays = this.arrays.map((old) => {
      const out = this.allocate(this.batch * kvHeads * length * headDim);
      columns.forEach((cols, row) => {
        const offset = length - cols.length;
        for (let head = 0; head < kvHeads; head++) {
          const plane = row * kvHeads + head;
          cols.forEach((col, j) => {
            const from = (plane * this.length + col) * headDim;
            out.set(old.subarray(from, from + headDim), (plane * length + offset + j) * headDim);
          });
        }
      });
      return out;
    });
    this.length = length;
  }

  /** Drops the first `count` columns (positions) of every row. */
  dropLeading(count: number): void {
    if (count <= 0) return;
    const newLength = this.length - count;
    const { headDim } = this;
    this.arrays = this.arrays.map((old) => {
      const out = this.allocate(this.batch * this.rowSize(newLength));
      for (let plane = 0; plane < this.batch * this.kvHeads; plane++) {
        const from = plane * this.length * headDim + count * headDim;
        out.set(old.subarray(from, from + newLength * headDim), plane * newLength * headDim);
      }
      return out;
    });
    this.length = newLength;
  }

  clear(): void {
    this.arrays = Array.from({ length: this.layers * 2 }, () => this.allocate(0));
    this.batch = 0;
    this.length = 0;
  }
}
