import { closeSync, openSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointFormatError } from '../../../src/onnx/model-build/errors.js';
import {
  MAX_SAFETENSORS_HEADER_BYTES,
  MAX_SAFETENSORS_TENSORS,
  SafetensorsFile,
} from '../../../src/onnx/model-build/safetensors-file.js';
import { tempFolder } from './checkpoints.js';

const folder = tempFolder('safetensors-file');
let files = 0;

/** A safetensors file of `header` (padded to 8 bytes, as Hugging Face writes it) and `dataBytes` of data. */
function safetensors(header: Record<string, unknown>, dataBytes: number): string {
  const path = join(folder, `t${++files}.safetensors`);
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(json.length));
  writeFileSync(path, Buffer.concat([prefix, Buffer.from(json), Buffer.alloc(dataBytes)]));
  return path;
}

const tensor = (begin: number, end: number) => ({
  dtype: 'F32',
  shape: [(end - begin) / 4],
  data_offsets: [begin, end],
});

function refusal(path: string): CheckpointFormatError {
  try {
    new SafetensorsFile(path).close();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckpointFormatError);
    return error as CheckpointFormatError;
  }
  throw new Error('expected a refusal');
}

describe('SafetensorsFile: offsets tile the data, as the format requires', () => {
  it('reads tensors that tile the data in any header order', () => {
    const file = new SafetensorsFile(
      safetensors({ b: tensor(8, 16), a: tensor(0, 8), __metadata__: {} }, 16),
    );
    expect([...file.entries.keys()].sort()).toEqual(['a', 'b']);
    file.close();
  });

  it('refuses overlapping offsets, naming the tensor', () => {
    const error = refusal(safetensors({ a: tensor(0, 8), b: tensor(4, 12), c: tensor(12, 16) }, 16));
    expect(error.tensor).toBe('b');
    expect(error.message).toMatch(/overlap the tensor before it \(data bytes 4 to 8 are claimed twice\)/);
  });

  it('refuses a gap between tensors and data past the last tensor', () => {
    expect(refusal(safetensors({ a: tensor(0, 8), b: tensor(12, 16) }, 16)).message).toMatch(
      /leave a gap of 4 bytes before it/,
    );
    expect(refusal(safetensors({ a: tensor(0, 8) }, 16)).message).toMatch(
      /its tensors cover 8 of the file's 16 data bytes/,
    );
  });
});

describe('SafetensorsFile: a header is bounded before it is parsed', () => {
  it(`refuses a header over ${MAX_SAFETENSORS_HEADER_BYTES} bytes without reading it`, () => {
    const path = join(folder, 'huge-header.safetensors');
    const fd = openSync(path, 'w');
    const prefix = Buffer.alloc(8);
    prefix.writeBigUInt64LE(100_000_000n);
    writeSync(fd, prefix);
    closeSync(fd);
    // A sparse file long enough for the claim: the refusal must come from the bound, not the size.
    truncateSync(path, 100_000_016);
    expect(refusal(path).message).toMatch(/its header claims 100000000 bytes, over the 16777216/);
  });

  it(`refuses more than ${MAX_SAFETENSORS_TENSORS} tensors`, () => {
    const header: Record<string, unknown> = {};
    for (let i = 0; i <= MAX_SAFETENSORS_TENSORS; i++)
      header[`t${i}`] = { dtype: 'F32', shape: [0], data_offsets: [0, 0] };
    expect(refusal(safetensors(header, 0)).message).toMatch(
      /lists 100001 tensors, over the 100000 a file may hold/,
    );
  });

  it('does not quote a header that is not JSON', () => {
    const path = join(folder, 'text.safetensors');
    const text = 'root:x:0:0:root:/root:/bin/bash\n';
    const prefix = Buffer.alloc(8);
    prefix.writeBigUInt64LE(BigInt(text.length));
    writeFileSync(path, Buffer.concat([prefix, Buffer.from(text)]));
    const error = refusal(path);
    expect(error.message).toMatch(/its header is not valid JSON/);
    expect(error.message).not.toMatch(/root/);
  });
});
