import { closeSync, fstatSync, readSync } from 'node:fs';
import { openModelFolderFile, parseModelFolderJson } from '../../internal/model-folder-file.js';
import { halfBitsToNumber } from '../float16.js';
import { CheckpointFormatError, quoteValue } from './errors.js';

/** Element types a Qwen3 checkpoint or a LoRA adapter is stored in, and their sizes in bytes. */
const ELEMENT_BYTES = { BF16: 2, F16: 2, F32: 4 } as const;
export type SafetensorsDtype = keyof typeof ELEMENT_BYTES;

/**
 * Headers larger than this are refused before they are read (haggle's choice: a header is about 100
 * bytes a tensor, so a Qwen3-4B's is under 50 KB; 16 MiB leaves room for a hundred thousand tensors
 * while a 60 MB header of a million junk tensors, which took 897 MB to parse, is refused unread).
 */
export const MAX_SAFETENSORS_HEADER_BYTES = 16 * 1024 * 1024;
/**
 * Tensors one file may hold (haggle's choice: a dense Qwen3 has 11 a layer plus 2, under 3,000 at
 * the 256-layer bound of config.json; MoE checkpoints have tens of thousands, spread over shards).
 */
export const MAX_SAFETENSORS_TENSORS = 100_000;

export interface SafetensorsEntry {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  /** Byte offset of the tensor's data from the start of the file. */
  start: number;
  byteLength: number;
}

/**
 * One `.safetensors` file, read tensor by tensor (or a range of rows at a time) with positioned reads,
 * so that no more than one tensor's bytes are in memory. The format (a little-endian u64 header
 * length, a JSON header of `{name: {dtype, shape, data_offsets}}`, then the data) is Hugging Face's;
 * the header is checked against the file's size on open, so a truncated download fails here, naming
 * the file and the first tensor that lies past its end, not halfway through a build.
 */
export class SafetensorsFile {
  readonly entries = new Map<string, SafetensorsEntry>();
  private fd: number | undefined;

  constructor(readonly path: string) {
    // Through the model folder's one reader: a regular file in its folder, never a pipe or a device
    // (read by position, only a regular file will do; opening a pipe would wait for a writer).
    const fd = openModelFolderFile(path, (problem) => {
      throw new CheckpointFormatError({ file: path, problem: problem.words, cause: problem.cause });
    });
    this.fd = fd;
    try {
      this.readHeader(fd);
    } catch (error) {
      closeSync(fd);
      this.fd = undefined;
      throw error;
    }
  }

  entry(name: string): SafetensorsEntry {
    const entry = this.entries.get(name);
    if (!entry)
      throw new CheckpointFormatError({
        file: this.path,
        problem: 'the file has no such tensor',
        tensor: name,
      });
    return entry;
  }

  /**
   * `count` values from element `first` of a tensor (all of it by default), widened to float32:
   * bf16 by a 16-bit shift (its exact value), fp16 exactly, fp32 as stored.
   */
  readFloat32(name: string, first = 0, count?: number): Float32Array {
    const entry = this.entry(name);
    const size = ELEMENT_BYTES[entry.dtype];
    const total = entry.byteLength / size;
    const n = count ?? total - first;
    const bytes = this.readBytes(entry.start + first * size, n * size);
    if (entry.dtype === 'F32') return new Float32Array(bytes.buffer, 0, n);
    const halves = new Uint16Array(bytes.buffer, 0, n);
    const out = new Float32Array(n);
    if (entry.dtype === 'BF16') {
      const words = new Uint32Array(out.buffer);
      for (let i = 0; i < n; i++) words[i] = (halves[i] as number) << 16;
      return out;
    }
    for (let i = 0; i < n; i++) out[i] = halfBitsToNumber(halves[i] as number);
    return out;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private readBytes(position: number, length: number): Uint8Array {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    const out = new Uint8Array(new ArrayBuffer(length));
    let done = 0;
    while (done < length) {
      const read = readSync(this.fd, out, done, length - done, position + done);
      if (read === 0)
        throw new CheckpointFormatError({
          file: this.path,
          problem: 'the file ended while a tensor was read',
        });
      done += read;
    }
    return out;
  }

  private readHeader(fd: number): void {
    const fileSize = fstatSync(fd).size;
    const fail = (problem: string, tensor?: string): never => {
      throw new CheckpointFormatError({
        file: this.path,
        problem,
        ...(tensor === undefined ? {} : { tensor }),
      });
    };
    if (fileSize < 8) fail(`only ${fileSize} bytes: not a safetensors file (truncated? download it again)`);
    const lengthBytes = new Uint8Array(8);
    readSync(fd, lengthBytes, 0, 8, 0);
    const headerLength = Number(new DataView(lengthBytes.buffer).getBigUint64(0, true));
    if (headerLength > MAX_SAFETENSORS_HEADER_BYTES)
      fail(
        `its header claims ${headerLength} bytes, over the ${MAX_SAFETENSORS_HEADER_BYTES} a checkpoint's header may take (haggle's limit): not a safetensors file haggle reads`,
      );
    if (8 + headerLength > fileSize)
      fail(
        `its header claims ${headerLength} bytes but the file has ${fileSize}: not a safetensors file, or truncated`,
      );
    const headerBytes = new Uint8Array(headerLength);
    let got = 0;
    while (got < headerLength) {
      const read = readSync(fd, headerBytes, got, headerLength - got, 8 + got);
      if (read === 0) fail('the file ended inside its header (truncated? download it again)');
      got += read;
    }
    const header = parseModelFolderJson(new TextDecoder().decode(headerBytes), (problem) =>
      fail(`its header ${problem.words}: not a safetensors file`),
    );
    if (typeof header !== 'object' || header === null || Array.isArray(header))
      fail('its header is not a JSON object');
    const dataStart = 8 + headerLength;
    const tensors = Object.keys(header as Record<string, unknown>).filter((name) => name !== '__metadata__');
    if (tensors.length > MAX_SAFETENSORS_TENSORS)
      fail(
        `its header lists ${tensors.length} tensors, over the ${MAX_SAFETENSORS_TENSORS} a file may hold (haggle's limit)`,
      );
    for (const [name, value] of Object.entries(header as Record<string, unknown>)) {
      if (name === '__metadata__') continue;
      const info = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
      const dtype = info?.dtype;
      if (typeof dtype !== 'string' || !Object.hasOwn(ELEMENT_BYTES, dtype))
        fail(`dtype ${quoteValue(dtype)} is not supported (BF16, F16 or F32)`, name);
      const shape = info.shape;
      if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0))
        fail('its shape is not a list of sizes', name);
      const offsets = info.data_offsets;
      if (
        !Array.isArray(offsets) ||
        offsets.length !== 2 ||
        !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) ||
        offsets[1] < offsets[0]
      )
        fail('its data_offsets are not [begin, end]', name);
      const [begin, end] = offsets as [number, number];
      const elements = (shape as number[]).reduce((a, b) => a * b, 1);
      const size = ELEMENT_BYTES[dtype as SafetensorsDtype];
      if (end - begin !== elements * size)
        fail(
          `shape [${shape}] in ${dtype} needs ${elements * size} bytes, data_offsets give ${end - begin}`,
          name,
        );
      if (dataStart + end > fileSize)
        fail(
          `the file is truncated: this tensor ends at byte ${dataStart + end}, the file has ${fileSize} (download it again)`,
          name,
        );
      this.entries.set(name, {
        name,
        dtype: dtype as SafetensorsDtype,
        shape: shape as number[],
        start: dataStart + begin,
        byteLength: end - begin,
      });
    }
    this.checkContiguous(dataStart, fileSize - dataStart);
  }

  /**
   * The tensors' bytes tile the data part exactly, as the safetensors format requires: sorted by
   * offset, each begins where the one before ends, the first at 0 and the last at the file's end. Two
   * tensors sharing bytes (an overlap) would make one weight a copy of the other's bytes.
   */
  private checkContiguous(dataStart: number, dataBytes: number): void {
    const sorted = [...this.entries.values()].sort(
      (a, b) => a.start - b.start || a.byteLength - b.byteLength,
    );
    let at = dataStart;
    for (const entry of sorted) {
      if (entry.start !== at)
        throw new CheckpointFormatError({
          file: this.path,
          problem:
            entry.start < at
              ? `its data_offsets overlap the tensor before it (data bytes ${entry.start - dataStart} to ${at - dataStart} are claimed twice): not a safetensors file haggle reads`
              : `its data_offsets leave a gap of ${entry.start - at} bytes before it: not a safetensors file haggle reads`,
          tensor: entry.name,
        });
      at += entry.byteLength;
    }
    if (at - dataStart !== dataBytes)
      throw new CheckpointFormatError({
        file: this.path,
        problem: `its tensors cover ${at - dataStart} of the file's ${dataBytes} data bytes: the data_offsets must cover the data exactly (padded, or not a safetensors file)`,
      });
  }
}
