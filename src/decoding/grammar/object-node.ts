import type { DynamicIds } from './dynamic-ids.js';
import type { KeyExtras } from './key-extras.js';
import { BLOCKED, KeyLeaf } from './key-leaf.js';
import { NameTrie } from './name-trie.js';
import { appendBounded, type Branch, DEAD, type GrammarNode, type Shortest, Structural } from './nodes.js';

/** A key the schema names: declared in `properties`, or named by `required` or a dependency. */
export interface NamedKey {
  readonly name: string;
  /** The value's grammar; null when the key must not appear (`false`, or refused by `propertyNames`). */
  readonly value: GrammarNode | null;
  readonly required: boolean;
  /** Named keys that must be present once this one is (dependencies, followed transitively). */
  readonly implies: readonly number[];
}

export interface ObjectSpec {
  readonly named: readonly NamedKey[];
  /** Declared keys in the order of `named`, undeclared ones after them; else any order. */
  readonly ordered: boolean;
  /** What undeclared keys may be, or null when there are none. */
  readonly extras: KeyExtras | null;
  /** The value grammar of each class an undeclared key can fall in (see `KeyExtras.classify`). */
  readonly classes: readonly GrammarNode[];
  /** Whether undeclared keys can be added without end (they then always make up `minProperties`). */
  readonly extrasUnbounded: boolean;
  readonly minProperties: number;
  readonly maxProperties: number;
  readonly opener: GrammarNode;
  readonly colon: GrammarNode;
  readonly separator: GrammarNode;
  readonly closer: GrammarNode;
  /** The grammar's counter for the key leaves made while decoding. */
  readonly dynamicIds: DynamicIds;
}

const OPENER = 0;
const KEY = 1;
const COLON = 2;
const VALUE = 3;
const SEPARATOR = 4;
const CLOSER = 5;

interface ObjectState {
  readonly phase: number;
  /** The named keys written, as a bit set packed 12 bits a character: cheap to copy and to hash. */
  readonly seen: string;
  readonly count: number;
  /** In the ordered mode: the first named key that may still come (past the end once extras began). */
  readonly next: number;
  /** The key being read (`n<index>` or `x<class>[:text]`), from the key leaf. */
  readonly current: string;
  /** Undeclared keys written, when counting them matters (a repeat would not be a new property). */
  readonly extraKeys: readonly string[] | null;
}

const BITS = 12;
const BASE = 0x4000;

function has(seen: string, i: number): boolean {
  const code = seen.charCodeAt((i / BITS) | 0);
  return code >= BASE && (((code - BASE) >> (i % BITS)) & 1) === 1;
}

function withBit(seen: string, i: number, size: number): string {
  const chars: number[] = [];
  for (let k = 0; k < Math.ceil(size / BITS); k++) {
    const code = seen.charCodeAt(k);
    chars.push(Number.isNaN(code) ? BASE : code);
  }
  const at = (i / BITS) | 0;
  chars[at] = (chars[at] as number) | (1 << (i % BITS));
  return String.fromCharCode(...chars);
}

/**
 * An object read key by key: the key leaf knows which keys may come (named keys not used yet, and
 * undeclared ones when allowed), reports the key it read, and the value's grammar is picked by that
 * key. The state holds the set of named keys seen, so repeats are refused, `required` and dependencies
 * are enforced at the closer, and `,` is offered only when some key can still follow.
 */
export class ObjectNode extends Structural {
  /** Key leaves by what they allow, so equal leaves share their id and masks. */
  private readonly leaves = new Map<string, KeyLeaf | null>();
  private readonly leafOfKey = new Map<string, KeyLeaf | null>();
  private readonly leafOfState = new WeakMap<ObjectState, KeyLeaf | null>();
  private readonly needs = new Map<string, number[]>();
  private readonly trie: NameTrie;
  private readonly encodedNames: number[][];

  constructor(
    id: number,
    readonly spec: ObjectSpec,
  ) {
    super(id);
    this.trie = new NameTrie(
      spec.named.map((k) => k.name),
      spec.named.map((_, i) => i),
    );
    const encoder = new TextEncoder();
    this.encodedNames = spec.named.map((k) => [...encoder.encode(JSON.stringify(k.name))]);
  }

  start(): Branch[] {
    const state: ObjectState = {
      phase: OPENER,
      seen: '',
      count: 0,
      next: 0,
      current: '',
      extraKeys: this.tracksExtras() ? [] : null,
    };
    return [{ state, child: this.spec.opener }];
  }

  override readsValue(raw: unknown): boolean {
    return (raw as ObjectState).phase === KEY;
  }

  advance(raw: unknown, value: string | undefined): Branch[] {
    const state = raw as ObjectState;
    switch (state.phase) {
      case OPENER:
        return this.afterMember(state);
      case KEY: {
        if (value === undefined) return [];
        return [{ state: { ...state, phase: COLON, current: value }, child: this.spec.colon }];
      }
      case COLON:
        return [{ state: { ...state, phase: VALUE }, child: this.valueNode(state.current) }];
      case VALUE:
        return this.afterMember(this.commit(state));
      case SEPARATOR: {
        const leaf = this.keyLeaf(state);
        return leaf ? [{ state: { ...state, phase: KEY }, child: leaf }] : [];
      }
      default:
        return [{ state, child: null }];
    }
  }

  key(raw: unknown, horizon: number): string {
    const s = raw as ObjectState;
    const { minProperties, maxProperties } = this.spec;
    const toMax = maxProperties - s.count;
    const count = s.count < minProperties ? `<${s.count}` : toMax > horizon ? '+' : `>${toMax}`;
    const current = s.phase === COLON || s.phase === VALUE ? s.current : '';
    const extras = s.extraKeys ? s.extraKeys.join('\u0000') : '';
    return `${s.phase},${s.seen},${count},${this.spec.ordered ? s.next : ''},${current},${extras}`;
  }

  firstChildren(): GrammarNode[] {
    return [this.spec.opener];
  }

  remainder(raw: unknown, shortest: Shortest): number[] | null {
    const state = raw as ObjectState;
    const out: number[] = [];
    const push = (part: number[] | null): boolean => {
      if (part === null) return false;
      appendBounded(out, part);
      return true;
    };
    switch (state.phase) {
      case OPENER:
        return push(this.fill(state, true, false, shortest)) ? out : null;
      case KEY:
        // Which key the leaf will read (and so the value's schema) is not known yet.
        if (state.current === '') return null;
        if (!push(shortest(this.spec.colon))) return null;
        if (!push(shortest(this.valueNode(state.current)))) return null;
        return push(this.fill(this.commit(state), false, false, shortest)) ? out : null;
      case COLON:
        if (!push(shortest(this.valueNode(state.current)))) return null;
        return push(this.fill(this.commit(state), false, false, shortest)) ? out : null;
      case VALUE:
        return this.fill(this.commit(state), false, false, shortest);
      case SEPARATOR:
        return this.fill(state, true, true, shortest);
      default:
        return [];
    }
  }

  /** The state once the member just read (key and value) is counted. */
  private commit(state: ObjectState): ObjectState {
    const current = state.current;
    const base = { ...state, phase: VALUE, count: state.count + 1, current: '' };
    if (current.startsWith('n')) {
      const index = Number(current.slice(1));
      const seen = withBit(state.seen, index, this.spec.named.length);
      return { ...base, seen, next: this.spec.ordered ? index + 1 : state.next };
    }
    const extraKeys =
      state.extraKeys === null ? null : [...state.extraKeys, current.slice(current.indexOf(':') + 1)];
    return { ...base, next: this.spec.named.length, extraKeys };
  }

  /** After `{` or a member: a separator if some key can follow, the closer if the object may end. */
  private afterMember(state: ObjectState): Branch[] {
    const out: Branch[] = [];
    if (this.keyLeaf(state) !== null) {
      const phase = state.phase === OPENER ? KEY : SEPARATOR;
      const child = phase === KEY ? (this.keyLeaf(state) as KeyLeaf) : this.spec.separator;
      out.push({ state: { ...state, phase }, child });
    }
    if (this.canClose(state)) out.push({ state: { ...state, phase: CLOSER }, child: this.spec.closer });
    return out;
  }

  private valueNode(current: string): GrammarNode {
    if (current.startsWith('n')) return this.spec.named[Number(current.slice(1))]?.value as GrammarNode;
    const end = current.indexOf(':');
    return this.spec.classes[Number(current.slice(1, end < 0 ? undefined : end))] as GrammarNode;
  }

  private tracksExtras(): boolean {
    const { extras, minProperties, maxProperties } = this.spec;
    return extras !== null && (minProperties > 0 || maxProperties !== Number.POSITIVE_INFINITY);
  }

  /** Named keys that must still be written: required ones and those implied by keys seen. */
  private need(seen: string): number[] {
    const known = this.needs.get(seen);
    if (known) return known;
    const named = this.spec.named;
    const wanted = new Set<number>();
    named.forEach((key, i) => {
      if (key.required) wanted.add(i);
      if (has(seen, i)) for (const j of key.implies) wanted.add(j);
    });
    const out = [...wanted].filter((i) => !has(seen, i)).sort((a, b) => a - b);
    this.needs.set(seen, out);
    return out;
  }

  private canClose(state: ObjectState): boolean {
    return this.need(state.seen).length === 0 && state.count >= this.spec.minProperties;
  }

  /**
   * Whether, after adding a member to reach `seen`/`count`/`next`, the object can still be completed:
   * what it then needs fits under `maxProperties`, and `minProperties` stays within reach.
   */
  private feasible(seen: string, count: number, next: number): boolean {
    const { named, ordered, minProperties, maxProperties, extrasUnbounded } = this.spec;
    const need = this.need(seen);
    if (ordered && need.some((i) => i < next)) return false;
    if (count + need.length > maxProperties) return false;
    if (count + need.length >= minProperties || extrasUnbounded) return true;
    let reachable = count;
    named.forEach((key, i) => {
      if (key.value !== null && !has(seen, i) && (!ordered || i >= next)) reachable++;
    });
    return reachable >= minProperties;
  }

  /** The key leaf for the keys that may come next (memoised by what it allows); null when none may. */
  private keyLeaf(state: ObjectState): KeyLeaf | null {
    // Asked at every byte a mask walk tries after `,` or `{`: memoised by the state, then by what
    // decides the leaf, before any work.
    const cached = this.leafOfState.get(state);
    if (cached !== undefined) return cached;
    const stateKey = `${state.seen}|${state.count}|${state.next}|${state.extraKeys?.join('\u0000') ?? ''}`;
    let leaf = this.leafOfKey.get(stateKey);
    if (leaf === undefined) {
      leaf = this.makeKeyLeaf(state);
      this.leafOfKey.set(stateKey, leaf);
    }
    this.leafOfState.set(state, leaf);
    return leaf;
  }

  private makeKeyLeaf(state: ObjectState): KeyLeaf | null {
    const { named, ordered, extras } = this.spec;
    const tags: number[] = [];
    let firstRequired = named.length;
    if (ordered) {
      const need = this.need(state.seen);
      if (need.length > 0) firstRequired = need[0] as number;
    }
    named.forEach((key, i) => {
      const allowed =
        key.value !== null &&
        !has(state.seen, i) &&
        (!ordered || (i >= state.next && i <= firstRequired)) &&
        this.feasible(withBit(state.seen, i, named.length), state.count + 1, ordered ? i + 1 : state.next);
      tags.push(allowed ? i : BLOCKED);
    });
    const extrasAllowed =
      extras !== null &&
      (!ordered || this.need(state.seen).length === 0) &&
      this.feasible(state.seen, state.count + 1, named.length);
    const memoKey = `${tags.join(',')}|${extrasAllowed}|${state.extraKeys?.join('\u0000') ?? ''}`;
    if (this.leaves.has(memoKey)) return this.leaves.get(memoKey) ?? null;
    const extraKeys = state.extraKeys ?? [];
    // The shared trie tags each name by its index; a leaf that blocks some names needs its own.
    const trie =
      extraKeys.length === 0 && tags.every((tag, i) => tag === i)
        ? this.trie
        : new NameTrie(
            [...named.map((k) => k.name), ...extraKeys],
            [...tags, ...extraKeys.map(() => BLOCKED)],
          );
    let leaf: KeyLeaf | null = new KeyLeaf(
      this.spec.dynamicIds.take(),
      trie,
      extrasAllowed ? extras : null,
      state.extraKeys !== null,
    );
    if (!leaf.readable) leaf = null;
    this.leaves.set(memoKey, leaf);
    return leaf;
  }

  /**
   * Short bytes that finish the object from `state` (after `{` when `first`): the keys it still needs,
   * more keys up to `minProperties`, then `}`. After a separator (`forced`) one key must come first.
   */
  private fill(start: ObjectState, first: boolean, forced: boolean, shortest: Shortest): number[] | null {
    const out: number[] = [];
    let state = start;
    let needFirst = first;
    let mustWrite = forced;
    for (let round = 0; round <= this.spec.named.length + this.spec.minProperties + 1; round++) {
      if (!mustWrite && this.canClose(state)) {
        const close = shortest(this.spec.closer);
        return close === null ? null : [...out, ...close];
      }
      const member = this.shortestMember(state, shortest);
      if (member === null) return null;
      if (!needFirst) {
        const separator = shortest(this.spec.separator);
        if (separator === null) return null;
        appendBounded(out, separator);
      }
      appendBounded(out, member.bytes);
      state = this.commit({ ...state, current: member.current });
      needFirst = false;
      mustWrite = false;
    }
    return null;
  }

  /** The bytes of one member (key, colon, value) that keeps the object completable, preferring needs. */
  private shortestMember(
    state: ObjectState,
    shortest: Shortest,
  ): { bytes: number[]; current: string } | null {
    const leaf = this.keyLeaf(state);
    if (leaf === null) return null;
    const colon = shortest(this.spec.colon);
    if (colon === null) return null;
    const candidates: Array<{ key: number[]; current: string }> = [];
    const need = this.need(state.seen);
    const order = [...need, ...this.spec.named.map((_, i) => i).filter((i) => !need.includes(i))];
    for (const i of order) {
      if (leaf.trie.tag(this.nodeOf(leaf.trie, this.spec.named[i]?.name ?? '')) === i) {
        candidates.push({ key: this.encodedNames[i] as number[], current: `n${i}` });
        break;
      }
    }
    if (candidates.length === 0 && leaf.extras !== null) {
      const key = leaf.completion(leaf.initial());
      if (key !== null) {
        let s: unknown = leaf.initial();
        for (const b of key) s = s === DEAD ? DEAD : leaf.step(s, b);
        const current = s === DEAD ? undefined : leaf.valueKey(s);
        if (current !== undefined) candidates.push({ key, current });
      }
    }
    for (const { key, current } of candidates) {
      const value = shortest(this.valueNode(current));
      if (value !== null) return { bytes: [...key, ...colon, ...value], current };
    }
    return null;
  }

  private nodeOf(trie: NameTrie, name: string): number {
    let node = 0;
    for (const ch of name) node = trie.child(node, ch.codePointAt(0) as number);
    return node;
  }
}
