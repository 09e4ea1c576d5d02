import { InvalidInputError } from '../../contract/errors.js';
import { SchemaLimitError } from '../errors.js';
import { LiteralLeaf } from '../grammar/literal-leaf.js';
import { SEARCH_BUDGET_MS, SearchBudget } from '../grammar/search-budget.js';
import { COMPLETE, canComplete, dedupe, type Frame, stepAll } from '../grammar/stack-machine.js';
import type { CompiledGrammar } from '../mask/compiled-grammar.js';

interface Position {
  frames: Frame[];
  /** An end-of-sequence token has been accepted. */
  ended: boolean;
}

const decoder = new TextDecoder();

/**
 * Where one sequence stands in a grammar: which tokens may come next (`mask()`), and what the grammar
 * forces. Keeps every earlier position, so `rollback(n)` is free (for speculative decoding and for
 * re-tokenising at a jump-forward boundary).
 */
export class GrammarMatcher {
  private readonly positions: Position[];
  private readonly tokens: number[] = [];
  private readonly special: ReadonlySet<number>;
  private readonly eos: ReadonlySet<number>;

  /**
   * A fresh matcher at the start of `grammar`'s document (`new GrammarMatcher(grammar)`), one per
   * sequence; the grammar is shared and never written to by its matchers.
   */
  constructor(
    readonly grammar: CompiledGrammar,
    /**
     * Looked at inside every search that can run long (masks, completions, forced bytes), not only
     * between tokens: in a model worker it reads the request's shared abort flag.
     */
    private readonly signal?: AbortSignal,
  ) {
    this.positions = [{ frames: grammar.startFrames(), ended: false }];
    this.special = new Set(grammar.vocabulary.specialTokenIds ?? []);
    this.eos = new Set(grammar.vocabulary.eosTokenIds);
  }

  private get current(): Position {
    return this.positions[this.positions.length - 1] as Position;
  }

  /** Tokens accepted so far. */
  get acceptedTokens(): readonly number[] {
    return this.tokens;
  }

  /**
   * Allowed next tokens as a bitset over token ids (bit set = allowed), end-of-sequence ids included
   * once the JSON is complete. Shared with the grammar's cache: read it, do not write to it
   * (`fillMask` copies). After an end-of-sequence token, nothing is allowed.
   */
  mask(): Uint32Array {
    const position = this.current;
    if (position.ended) return new Uint32Array(this.grammar.maskWords);
    return this.grammar.maskFor(position.frames, this.signal);
  }

  /**
   * @internal The current position's frames, or null once an end-of-sequence token was accepted: for
   * code that computes a mask its own way (the tests' reference, testing/reference-mask.ts).
   */
  get frames(): readonly Frame[] | null {
    const position = this.current;
    return position.ended ? null : position.frames;
  }

  /** Copies the mask into `out` (length `grammar.maskWords`). */
  fillMask(out: Uint32Array): Uint32Array {
    const position = this.current;
    if (position.ended) return out.fill(0);
    return this.grammar.fillMaskFor(position.frames, out, this.signal);
  }

  /** Reads a token; false (and no change) when the grammar refuses it. */
  accept(tokenId: number): boolean {
    const position = this.current;
    if (position.ended || !Number.isInteger(tokenId)) return false;
    if (this.eos.has(tokenId)) {
      if (!position.frames.some(canComplete)) return false;
      this.positions.push({ frames: [COMPLETE], ended: true });
      this.tokens.push(tokenId);
      return true;
    }
    const bytes = this.grammar.vocabulary.tokens[tokenId];
    if (bytes === undefined || bytes.length === 0 || this.special.has(tokenId)) return false;
    const frames = this.advance(position.frames, bytes);
    if (frames === null) return false;
    this.positions.push({ frames, ended: false });
    this.tokens.push(tokenId);
    return true;
  }

  /** Whether `bytes` could be read from here (nothing changes). */
  acceptsBytes(bytes: Uint8Array): boolean {
    return !this.current.ended && this.advance(this.current.frames, bytes) !== null;
  }

  private advance(start: Frame[], bytes: Uint8Array, budget?: SearchBudget): Frame[] | null {
    let frames = start;
    for (const b of bytes) {
      budget?.tick();
      frames = stepAll(frames, b);
      if (frames.length === 0) return null;
    }
    return dedupe(frames);
  }

  /** Whether the JSON read so far is a complete document (an end-of-sequence token may follow). */
  isComplete(): boolean {
    const position = this.current;
    return position.ended || position.frames.some(canComplete);
  }

  /** Whether an end-of-sequence token has been accepted. */
  isTerminated(): boolean {
    return this.current.ended;
  }

  /** Forgets the last `n` accepted tokens. */
  rollback(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > this.tokens.length) {
      throw new InvalidInputError({
        subject: 'rollback',
        issues: [
          { path: 'n', message: `must be an integer from 0 to ${this.tokens.length} (tokens accepted)` },
        ],
      });
    }
    this.positions.length -= n;
    this.tokens.length -= n;
  }

  /**
   * The bytes the grammar forces next (`{"action":"`, `","price":`, closing brackets), stopping where a
   * choice remains or the document may end. Within `SEARCH_BUDGET_MS` and the abort signal.
   */
  forcedBytes(limit = 4096): Uint8Array {
    if (this.current.ended) return new Uint8Array(0);
    const budget = new SearchBudget(this.signal);
    let frames = this.current.frames;
    const out: number[] = [];
    while (out.length < limit && !frames.some(canComplete)) {
      const candidates = literalCandidates(frames);
      let only = -1;
      let after: Frame[] = [];
      for (const b of candidates) {
        budget.tick();
        const next = stepAll(frames, b);
        if (next.length === 0) continue;
        if (only >= 0) {
          only = -2;
          break;
        }
        only = b;
        after = next;
      }
      if (only < 0) break;
      out.push(only);
      frames = dedupe(after);
    }
    return new Uint8Array(out);
  }

  /** `forcedBytes()` as text, cut before any incomplete UTF-8 character. */
  forcedText(): string {
    return decoder.decode(completeUtf8Prefix(this.forcedBytes()));
  }

  /**
   * Bytes that finish the document from here, as short as the grammar makes easy (not always the
   * shortest). A decoder running out of its token budget follows them so the output still parses.
   * The search looks at the abort signal and stops at `SEARCH_BUDGET_MS` with a `SchemaLimitError`
   * (search): it runs on the thread that serves every request of a model.
   */
  completionBytes(): Uint8Array {
    if (this.current.ended) return new Uint8Array(0);
    const budget = new SearchBudget(this.signal);
    let best: number[] | null = null;
    for (const frame of this.current.frames) {
      budget.tick();
      const candidate = this.completionFrom(frame, budget);
      if (candidate !== null && (best === null || candidate.length < best.length)) best = candidate;
    }
    if (best === null) best = this.greedyCompletion(this.current.frames, 8, budget);
    if (best === null) best = this.searchCompletion(budget);
    return new Uint8Array(best);
  }

  /**
   * When the easy completion is refused (a unique item that would repeat a value), try a byte first
   * (letters, then digits, then the rest) and complete from there, up to `depth` bytes deep.
   */
  private greedyCompletion(frames: Frame[], depth: number, budget: SearchBudget): number[] | null {
    let firstAlive: Frame[] | null = null;
    let firstByte = -1;
    for (const b of PREFERRED_BYTES) {
      budget.tick();
      const next = stepAll(frames, b);
      if (next.length === 0) continue;
      const after = dedupe(next);
      if (firstAlive === null) {
        firstAlive = after;
        firstByte = b;
      }
      for (const frame of after) {
        const rest = this.completionFrom(frame, budget);
        if (rest !== null) return [b, ...rest];
      }
    }
    if (firstAlive === null || depth === 0) return null;
    const rest = this.greedyCompletion(firstAlive, depth - 1, budget);
    return rest === null ? null : [firstByte, ...rest];
  }

  private completionFrom(frame: Frame, budget: SearchBudget, depth = 0): number[] | null {
    budget.tick();
    if (frame === COMPLETE) return [];
    const leaf = frame.node;
    if (leaf === null || leaf.kind !== 'leaf') return null;
    const out = leaf.completion(frame.state);
    if (out === null) return null;
    let fast: number[] | null = [...out];
    for (let f = frame.parent; f !== null && fast !== null; f = f.parent) {
      const node = f.node;
      const rest =
        node === null || node.kind === 'leaf' ? null : node.remainder(f.state, this.grammar.shortest);
      if (rest === null) fast = null;
      else fast.push(...rest);
    }
    // Uniqueness or other context can make the easy completion wrong: check it.
    if (fast !== null && this.advance([frame], new Uint8Array(fast), budget)?.some(canComplete)) return fast;
    // A parent that cannot say what follows until it knows what the leaf read (an object choosing the
    // value's schema by the key): read the leaf's completion, then complete from where that leads.
    if (depth >= MAX_COMPLETION_LEAVES) return null;
    const after = this.advance([frame], new Uint8Array(out), budget);
    if (after === null) return null;
    if (after.some(canComplete)) return out;
    for (const next of after) {
      if (next === frame) continue;
      const rest = this.completionFrom(next, budget, depth + 1);
      if (rest !== null) return [...out, ...rest];
    }
    return null;
  }

  /**
   * Breadth-first search over bytes; a fallback that the structural completion above rarely needs.
   * Bounded in depth, states and time (the budget); past them, a `SchemaLimitError` (search).
   */
  private searchCompletion(budget: SearchBudget): number[] {
    interface Step {
      frames: Frame[];
      previous: Step | null;
      byte: number;
    }
    const seen = new Set<string>();
    let level: Step[] = [{ frames: this.current.frames, previous: null, byte: -1 }];
    for (let depth = 0; depth < 512 && level.length > 0 && seen.size < 20_000; depth++) {
      const nextLevel: Step[] = [];
      for (const step of level) {
        if (step.frames.some(canComplete)) {
          const out: number[] = [];
          for (let s: Step | null = step; s?.previous; s = s.previous) out.push(s.byte);
          return out.reverse();
        }
        for (let b = 0; b < 256; b++) {
          budget.tick();
          const next = stepAll(step.frames, b);
          if (next.length === 0) continue;
          const frames = dedupe(next);
          const key = frames.map((f) => f.key(Number.POSITIVE_INFINITY)).join('\n');
          if (seen.has(key)) continue;
          seen.add(key);
          nextLevel.push({ frames, previous: step, byte: b });
        }
      }
      level = nextLevel;
    }
    // The schema's doing (documents this search cannot finish): a typed refusal, a 400 at a server.
    throw new SchemaLimitError({ limit: 'search', value: SEARCH_BUDGET_MS, schemaPath: '#' });
  }
}

/** How many leaves a completion may read one after another when parents cannot say what follows. */
const MAX_COMPLETION_LEAVES = 256;

/** Bytes worth trying next: a literal's next byte when every position is inside a literal. */
function literalCandidates(frames: readonly Frame[]): Iterable<number> {
  const bytes = new Set<number>();
  for (const frame of frames) {
    const node = frame.node;
    if (!(node instanceof LiteralLeaf)) return ALL_BYTES;
    bytes.add(node.bytes[frame.state as number] as number);
  }
  return bytes;
}

const ALL_BYTES = Array.from({ length: 256 }, (_, b) => b);
const PREFERRED_BYTES = [
  ...Array.from({ length: 26 }, (_, i) => 0x61 + i),
  ...Array.from({ length: 10 }, (_, i) => 0x30 + i),
  ...ALL_BYTES.filter((b) => !(b >= 0x61 && b <= 0x7a) && !(b >= 0x30 && b <= 0x39)),
];

/** The longest prefix of `bytes` that does not end inside a UTF-8 character. */
export function completeUtf8Prefix(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  let i = end - 1;
  let continuation = 0;
  while (i >= 0 && ((bytes[i] as number) & 0xc0) === 0x80 && continuation < 3) {
    i--;
    continuation++;
  }
  if (i >= 0) {
    const lead = bytes[i] as number;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (length > continuation + 1) end = i;
  }
  return bytes.subarray(0, end);
}
