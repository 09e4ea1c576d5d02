import { closeSync, openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import type { InitializerSink } from './graph-builder.js';

/** Each tensor starts on a 4 kB boundary, as onnx's own converter aligns them (mmap-friendly). */
const ALIGN = 4096;

/**
 * Writes initializers into one external data file as the graph is built (`model.onnx_data` beside
 * `model.onnx`, as real exports over the 2 GB protobuf limit have it), so the builder holds one
 * tensor at a time: a 4B model in fp16 (8 GB) builds in a few hundred megabytes of memory.
 */
export class ExternalDataWriter implements InitializerSink {
  private readonly fd: number;
  private size = 0;
  /** The data file's name, as the graph refers to it (relative to the graph's folder). */
  readonly location: string;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
    this.location = basename(path);
  }

  write(chunks: Iterable<Uint8Array>): { location: string; offset: number; length: number } {
    const offset = Math.ceil(this.size / ALIGN) * ALIGN;
    if (offset > this.size)
      writeSync(this.fd, new Uint8Array(offset - this.size), 0, offset - this.size, this.size);
    let at = offset;
    for (const chunk of chunks) {
      let done = 0;
      while (done < chunk.length) done += writeSync(this.fd, chunk, done, chunk.length - done, at + done);
      at += chunk.length;
    }
    this.size = at;
    return { location: this.location, offset, length: at - offset };
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.size;
  }

  close(): void {
    closeSync(this.fd);
  }
}
