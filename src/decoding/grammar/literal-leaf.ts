import { DEAD, Leaf } from './nodes.js';

const encoder = new TextEncoder();

/** Exact bytes: punctuation, keys, `const` and `enum` values. State: how many bytes are matched. */
export class LiteralLeaf extends Leaf {
  readonly bytes: Uint8Array;
  constructor(
    id: number,
    readonly text: string,
  ) {
    super(id);
    this.bytes = encoder.encode(text);
  }
  initial(): unknown {
    return 0;
  }
  step(state: unknown, byte: number): unknown {
    const offset = state as number;
    return this.bytes[offset] === byte ? offset + 1 : DEAD;
  }
  canEnd(): boolean {
    return false;
  }
  mustEnd(state: unknown): boolean {
    return (state as number) === this.bytes.length;
  }
  key(state: unknown): string {
    return String(state);
  }
  completion(state: unknown): number[] {
    return [...this.bytes.subarray(state as number)];
  }
  override valueKey(): string {
    return this.text;
  }
}

/** Optional JSON whitespace between tokens, in the flexible whitespace mode. */
export class WhitespaceLeaf extends Leaf {
  initial(): unknown {
    return 0;
  }
  step(_state: unknown, byte: number): unknown {
    return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 ? 0 : DEAD;
  }
  canEnd(): boolean {
    return true;
  }
  mustEnd(): boolean {
    return false;
  }
  key(): string {
    return '';
  }
  completion(): number[] {
    return [];
  }
  /**
   * Its four bytes: a mask then follows only whitespace runs down the token trie and goes on from each
   * with what follows (`,`, `}`, a value), instead of stepping the whitespace through every branch.
   */
  override alphabet(): readonly number[] {
    return WHITESPACE_BYTES;
  }
}

const WHITESPACE_BYTES: readonly number[] = [0x09, 0x0a, 0x0d, 0x20];
