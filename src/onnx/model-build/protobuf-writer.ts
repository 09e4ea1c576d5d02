/**
 * The few protocol-buffer encodings an ONNX file needs, written here so that `haggle/onnx` ships no
 * protobuf library (haggle's choice: one small writer instead of a runtime dependency). Fields are
 * written in the order the caller gives; `onnx-model-encoder.ts` gives them in field-number order,
 * as protobufjs does, so the bytes equal what the fixture builder wrote through `onnx-proto`.
 */
export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];
  private pending: number[] = [];
  private size = 0;

  /** Bytes written so far. */
  get length(): number {
    return this.size + this.pending.length;
  }

  /** A varint field (int32, int64, enum). Negative values take ten bytes, as in two's complement. */
  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    for (const byte of bytes) this.pending.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** A length-delimited field; large payloads (inline tensor data) are kept by reference, not copied. */
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    if (value.length < 64) {
      for (const byte of value) this.pending.push(byte);
    } else {
      this.flushPending();
      this.parts.push(value);
      this.size += value.length;
    }
    return this;
  }

  /** A nested message, written by `write` into its own writer first (its length comes first). */
  message(field: number, write: (inner: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    this.tag(field, 2);
    this.varint(inner.length);
    this.flushPending();
    inner.flushPending();
    for (const part of inner.parts) this.parts.push(part);
    this.size += inner.size;
    return this;
  }

  /** A packed repeated varint field; nothing when empty, as protobufjs leaves it out. */
  packed(field: number, values: readonly (number | bigint)[]): this {
    if (values.length === 0) return this;
    return this.message(field, (inner) => {
      for (const value of values) inner.varint(value);
    });
  }

  finish(): Uint8Array {
    this.flushPending();
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  private tag(field: number, wireType: number): void {
    this.varint(field * 8 + wireType);
  }

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.pending.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.pending.push(Number(v));
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    this.parts.push(Uint8Array.from(this.pending));
    this.size += this.pending.length;
    this.pending = [];
  }
}
