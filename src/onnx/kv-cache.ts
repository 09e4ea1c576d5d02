/** A KV cache buffer: float32, or float16 kept as raw bits (Node 20 has no Float16Array). */
export type KvArray = Float32Array | Uint16Array;

/**
 * The batch's KV cache as plain arrays, one pair per layer, each [batch, kvHeads, length, headDim],
 * laid out exactly as the model's `present.*` outputs so a step's outputs become the next step's
 * inputs without a copy.
 *
 * The arrays are views into two arenas per array that take turns: a step reads the past from one and
 * onnxruntime writes the present into the other (`nextArrays`, handed to `session.run` as
 * preallocated outputs). Taking onnxruntime's outputs as the cache instead kept each step's few
 * hundred kilobytes alive through the next step, so they were promoted to the old generation and V8
 * ran a full collection for them every few dozen steps (about a tenth of a batch-8 decode, and the
 * long tail of its steps). Rows joining or leaving, and compaction, write into the spare arena too.
 */
export class KvCache {
  /** `layers * 2` arrays: layer 0 key, layer 0 value, layer 1 key, ... */
  arrays: KvArray[];
  batch = 0;
  length = 0;
  /** Two backing buffers per array; `arrays[i]` is a view of `arenas[current][i]`. */
  private arenas: [KvArray[], KvArray[]];
  private current = 0;

  constructor(
    readonly layers: number,
    readonly kvHeads: number,
    readonly headDim: number,
    readonly float16: boolean,
  ) {
    this.arenas = [this.emptyArena(), this.emptyArena()];
    this.arrays = this.emptyArena();
  }

  private emptyArena(): KvArray[] {
    return Array.from({ length: this.layers * 2 }, () => this.allocate(0));
  }

  private allocate(size: number): KvArray {
    return this.float16 ? new Uint16Array(size) : new Float32Array(size);
  }

  /** Elements of one row of one array. */
  private rowSize(length = this.length): number {
    return this.kvHeads * length * this.headDim;
  }

  /**
   * Views of `size` elements in the spare arena (contents undefined), one per array. Grows the arena
   * by half again when it is too small, so a cache that grows a column per step reallocates rarely.
   */
  private spare(size: number): KvArray[] {
    const arena = this.arenas[1 - this.current] as KvArray[];
    return arena.map((buffer, i) => {
      if (buffer.length < size) {
        buffer = this.allocate(Math.ceil(size * 1.5));
        arena[i] = buffer;
      }
      return buffer.subarray(0, size);
    });
  }

  /** Makes the spare arena's views the cache. */
  private flip(arrays: KvArray[], length: number): void {
    this.current = 1 - this.current;
    this.arrays = arrays;
    this.length = length;
  }

  /**
   * Where the next step's `present.*` outputs go: views of the spare arena sized for the current rows
   * and `length` columns. Pass them to `session.run` as preallocated outputs, then to `replace`.
   */
  nextArrays(length: number): KvArray[] {
    return this.spare(this.batch * this.rowSize(length));
  }

  /** Takes the views from `nextArrays`, which the step has filled, as the cache `length` columns long. */
  replace(arrays: KvArray[], length: number): void {
    this.flip(arrays, length);
  }

  /**
   * Appends `width` columns to every row: `columns[i]` is array i's new part, [batch, kvHeads, width,
   * headDim] (a graph's `new_key_values.*` outputs). Each plane's past and new columns are copied into
   * the spare arena, which was allocated once and grows rarely: no step allocates a cache's worth.
   */
  append(columns: readonly KvArray[], width: number): void {
    const { headDim } = this;
    const planes = this.batch * this.kvHeads;
    const was = this.length * headDim;
    const added = width * headDim;
    const grown = this.spare(this.batch * this.rowSize(this.length + width));
    grown.forEach((out, i) => {
      const old = this.arrays[i] as KvArray;
      const fresh = columns[i] as KvArray;
      if (fresh.length !== planes * added)
        throw new Error(`appended columns of array ${i} hold ${fresh.length} values, not ${planes * added}`);
      for (let plane = 0; plane < planes; plane++) {
        const to = plane * (was + added);
        if (was > 0) out.set(old.subarray(plane * was, (plane + 1) * was), to);
        out.set(fresh.subarray(plane * added, (plane + 1) * added), to + was);
      }
    });
    this.flip(grown, this.length + width);
  }

  /** Appends `count` empty rows (a new sequence sees none of them: its mask is 0 there). */
  addRows(count: number): void {
    const size = this.rowSize();
    const grown = this.spare((this.batch + count) * size);
    grown.forEach((out, i) => {
      out.set((this.arrays[i] as KvArray).subarray(0, this.batch * size));
      out.fill(0, this.batch * size);
    });
    this.batch += count;
    this.flip(grown, this.length);
  }

  /** Keeps only the rows whose indexes are listed, in that order. */
  keepRows(rows: readonly number[]): void {
    const size = this.rowSize();
    const kept = this.spare(rows.length * size);
    kept.forEach((out, i) => {
      const old = this.arrays[i] as KvArray;
      rows.forEach((row, j) => {
        out.set(old.subarray(row * size, (row + 1) * size), j * size);
      });
    });
    this.batch = rows.length;
    this.flip(kept, this.batch === 0 ? 0 : this.length);
  }

  /**
   * Rebuilds the cache `length` columns long, with row r holding the listed old columns `columns[r]`
   * (in order) right-aligned: rows that joined at different times stop pinning each other's dead
   * columns, so every step attends over the longest live row, not the whole history of the batch.
   */
  compact(columns: readonly (readonly number[])[], length: number): void {
    const { headDim, kvHeads } = this;
    const rebuilt = this.spare(this.batch * kvHeads * length * headDim);
    rebuilt.forEach((out, i) => {
      const old = this.arrays[i] as KvArray;
      // Columns no row keeps (the left padding) must read as zeros, not as an earlier step's data.
      out.fill(0);
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
    });
    this.flip(rebuilt, length);
  }

  /**
   * Makes a one-row cache hold the first `length` columns of a one-row cache `sourceLength` columns
   * long (a cached prompt that the new prompt starts with).
   */
  loadPrefix(source: readonly KvArray[], sourceLength: number, length: number): void {
    if (this.batch !== 1) throw new Error('loadPrefix needs a one-row cache');
    const { headDim, kvHeads } = this;
    const loaded = this.spare(this.rowSize(length));
    loaded.forEach((out, i) => {
      const from = source[i] as KvArray;
      for (let head = 0; head < kvHeads; head++) {
        const at = head * sourceLength * headDim;
        out.set(from.subarray(at, at + length * headDim), head * length * headDim);
      }
    });
    this.flip(loaded, length);
  }

  /**
   * Makes a one-row cache hold the last `length` columns of row `row` of `source` (a prompt's own
   * columns out of a run of several left-padded prompts).
   */
  loadRowEnd(source: KvCache, row: number, length: number): void {
    if (this.batch !== 1) throw new Error('loadRowEnd needs a one-row cache');
    const { headDim, kvHeads } = this;
    const loaded = this.spare(this.rowSize(length));
    loaded.forEach((out, i) => {
      const from = source.arrays[i] as KvArray;
      for (let head = 0; head < kvHeads; head++) {
        const at = ((row * kvHeads + head) * source.length + source.length - length) * headDim;
        out.set(from.subarray(at, at + length * headDim), head * length * headDim);
      }
    });
    this.flip(loaded, length);
  }

  /** Adds `count` columns (zeros) before the first column of every row. */
  padLeft(count: number): void {
    if (count <= 0) return;
    const newLength = this.length + count;
    const { headDim } = this;
    const padded = this.spare(this.batch * this.rowSize(newLength));
    padded.forEach((out, i) => {
      const old = this.arrays[i] as KvArray;
      for (let plane = 0; plane < this.batch * this.kvHeads; plane++) {
        const to = plane * newLength * headDim;
        out.fill(0, to, to + count * headDim);
        out.set(
          old.subarray(plane * this.length * headDim, (plane + 1) * this.length * headDim),
          to + count * headDim,
        );
      }
    });
    this.flip(padded, newLength);
  }

  /**
   * Writes a one-row cache (a prefilled prompt) into each listed row, right-aligned: its columns become
   * the row's last `source.length` columns. The cache must be at least that long (see `padLeft`).
   */
  placeRows(rows: readonly number[], source: KvCache): void {
    const { headDim, kvHeads } = this;
    const width = source.length;
    if (width > this.length) throw new Error(`a ${width}-column prompt does not fit ${this.length} columns`);
    this.arrays.forEach((out, i) => {
      const from = source.arrays[i] as KvArray;
      for (const row of rows) {
        for (let head = 0; head < kvHeads; head++) {
          const to = ((row * kvHeads + head) * this.length + this.length - width) * headDim;
          out.set(from.subarray(head * width * headDim, (head + 1) * width * headDim), to);
        }
      }
    });
  }

  /** Drops the first `count` columns (positions) of every row. */
  dropLeading(count: number): void {
    if (count <= 0) return;
    const newLength = this.length - count;
    const { headDim } = this;
    const dropped = this.spare(this.batch * this.rowSize(newLength));
    dropped.forEach((out, i) => {
      const old = this.arrays[i] as KvArray;
      for (let plane = 0; plane < this.batch * this.kvHeads; plane++) {
        const from = plane * this.length * headDim + count * headDim;
        out.set(old.subarray(from, from + newLength * headDim), plane * newLength * headDim);
      }
    });
    this.flip(dropped, newLength);
  }

  /** Empties the cache; the arenas stay for the next rows. */
  clear(): void {
    this.arrays = this.emptyArena();
    this.batch = 0;
    this.length = 0;
  }

  /** Empties the cache and gives the arenas' memory back (the decoder is idle). */
  release(): void {
    this.clear();
    this.arenas = [this.emptyArena(), this.emptyArena()];
    this.current = 0;
  }
}
