import { PatternSyntaxError, SchemaLimitError } from '../errors.js';
import { ANY, type Ast, normalize, Parser, type Ranges } from './regex-syntax.js';

/**
 * JSON Schema `pattern`s (the regular-expression subset in regex-syntax.ts) compiled to an automaton
 * over code points: literals, `.`, classes, groups, `|`, `* + ? {n} {n,} {n,m}` (lazy forms accept the
 * same strings), and `^` / `$` anywhere (as assertions on the string's start and end). A pattern
 * matches anywhere in the string unless anchored, as JSON Schema says. Back-references, look-around
 * and `\b` are refused with a `PatternSyntaxError` (the compiler turns it into an
 * `UnsupportedSchemaError`).
 *
 * Several patterns can be combined into one automaton that accepts the strings all of them match
 * (`PatternAutomaton.all`), for `pattern` together with `format`.
 */
export { PatternSyntaxError };

interface NfaEdge {
  ranges: Ranges;
  to: number;
}

/** The smallest and largest code points a successor edge reads, and the state it leads to. */
export interface Successor {
  lo: number;
  hi: number;
  to: number;
}

/**
 * Bounds of one automaton (haggle's choice). A pattern's NFA grows with its counted repeats
 * (`(a{1000}){1000}` is a million states) and its DFA, built lazily while masks are computed, can grow
 * exponentially (`.*a.{25}` unanchored: 2^26 sets); a client's schema must not be able to spend the
 * process's memory or minutes of its time on them. 20,000 NFA states hold a `{0,1000}` repeat of a
 * ten-state group; 20,000 DFA states and 4 million configurations across them (about 50 MB) are
 * tens of times what the formats and MaskBench's patterns reach. Past either: `SchemaLimitError`
 * (`pattern`), at compile time or from the mask that needed the state.
 */
export const MAX_NFA_STATES = 20_000;
export const MAX_DFA_STATES = 20_000;
export const MAX_DFA_CONFIGURATIONS = 4_000_000;

/**
 * A lazily built DFA. NFA positions are "configurations": an NFA state times a mode bit, where mode 1
 * means a `$` was passed, so only zero-width moves remain. DFA states are sets of configurations,
 * numbered as they are first reached, so a pattern costs only the states its strings visit. `-1` is the
 * dead state, and every other state can still reach a match.
 */
export class PatternAutomaton {
  private readonly epsilon: number[][] = [];
  /** `^` moves: taken only before the first character. */
  private readonly startAsserts: number[][] = [];
  /** `$` moves: into mode 1. */
  private readonly endAsserts: number[][] = [];
  private readonly edges: NfaEdge[][] = [];
  /** Per NFA state, the pattern (of `all`) it belongs to. */
  private readonly component: number[] = [];
  private readonly accepts: number[] = [];
  private readonly sets: number[][] = [];
  private readonly ids = new Map<string, number>();
  private readonly ascii: Int32Array[] = [];
  private readonly accepting: boolean[] = [];
  /** Per DFA state (computed when first needed): every code point that leads to a live state. */
  private readonly alphabets: Array<Ranges | undefined> = [];
  private readonly successorLists: Array<Successor[] | undefined> = [];
  /** Per DFA state, for intersections only: whether a match is still reachable (undefined: unknown). */
  private readonly live: Array<boolean | undefined> = [];
  private coReachable: Uint8Array = new Uint8Array(0);
  /** Configurations held by all DFA states so far (their memory), against MAX_DFA_CONFIGURATIONS. */
  private configurations = 0;
  /** `completionBound`, once computed (undefined: not yet). */
  private bound: number | null | undefined;
  /** Per DFA state: `unconstrained`'s answers (bit 1: computed, bit 2: free, bit 4: free and accepting). */
  private readonly freedom: number[] = [];
  readonly start: number;

  constructor(source: string);
  /** @internal */
  constructor(source: string, sources: readonly string[]);
  constructor(
    readonly source: string,
    sources: readonly string[] = [source],
  ) {
    const begins: number[] = [];
    for (const [index, text] of sources.entries()) {
      const ast = new Parser(text).parse();
      const begin = this.newState(index);
      begins.push(begin);
      // Unanchored: anything may come before and after; `^` and `$` in the pattern cut these loops off.
      const from = this.loopAny(begin);
      const end = this.build(ast, from, index);
      const accept = this.newState(index);
      this.epsilon[end]?.push(accept);
      this.loopAny(accept);
      this.accepts.push(accept);
    }
    this.computeCoReachable();
    this.start = this.dfaState(
      this.closure(
        begins.map((b) => b * 2),
        true,
      ),
    );
  }

  /** An automaton for the strings that every pattern in `sources` matches. */
  static all(sources: readonly string[]): PatternAutomaton {
    if (sources.length === 1) return new PatternAutomaton(sources[0] as string);
    return new PatternAutomaton(sources.map((s) => `(?:${s})`).join('&&'), sources);
  }

  private newState(component: number): number {
    if (this.epsilon.length >= MAX_NFA_STATES) this.tooLarge(MAX_NFA_STATES, 'NFA states');
    this.epsilon.push([]);
    this.startAsserts.push([]);
    this.endAsserts.push([]);
    this.edges.push([]);
    this.component.push(component);
    return this.epsilon.length - 1;
  }

  private loopAny(from: number): number {
    this.edges[from]?.push({ ranges: ANY, to: from });
    return from;
  }

  /** Thompson construction: returns the state reached after `ast` from `from`. */
  private build(ast: Ast, from: number, component: number): number {
    switch (ast.type) {
      case 'set': {
        const to = this.newState(component);
        this.edges[from]?.push({ ranges: ast.ranges, to });
        return to;
      }
      case 'assert': {
        const to = this.newState(component);
        (ast.at === 'start' ? this.startAsserts : this.endAsserts)[from]?.push(to);
        return to;
      }
      case 'seq': {
        let at = from;
        for (const item of ast.items) at = this.build(item, at, component);
        return at;
      }
      case 'alt': {
        const to = this.newState(component);
        for (const option of ast.options) {
          const end = this.build(option, from, component);
          this.epsilon[end]?.push(to);
        }
        return to;
      }
      case 'repeat': {
        let at = from;
        for (let i = 0; i < ast.min; i++) at = this.build(ast.item, at, component);
        if (ast.max === Number.POSITIVE_INFINITY) {
          const loop = this.newState(component);
          this.epsilon[at]?.push(loop);
          const end = this.build(ast.item, loop, component);
          this.epsilon[end]?.push(loop);
          return loop;
        }
        const to = this.newState(component);
        this.epsilon[at]?.push(to);
        for (let i = ast.min; i < ast.max; i++) {
          at = this.build(ast.item, at, component);
          this.epsilon[at]?.push(to);
        }
        return to;
      }
    }
  }

  /**
   * Which configurations can still reach their pattern's accepting state, ignoring `^` moves (they are
   * taken while the initial closure is built, never later).
   */
  private computeCoReachable(): void {
    const n = this.epsilon.length * 2;
    const reverse: number[][] = Array.from({ length: n }, () => []);
    for (let s = 0; s < this.epsilon.length; s++) {
      for (const mode of [0, 1]) {
        for (const t of this.epsilon[s] as number[]) reverse[t * 2 + mode]?.push(s * 2 + mode);
        for (const t of this.endAsserts[s] as number[]) reverse[t * 2 + 1]?.push(s * 2 + mode);
      }
      for (const e of this.edges[s] as NfaEdge[]) reverse[e.to * 2]?.push(s * 2);
    }
    const seen = new Uint8Array(n);
    const queue: number[] = [];
    for (const a of this.accepts) {
      seen[a * 2] = 1;
      seen[a * 2 + 1] = 1;
      queue.push(a * 2, a * 2 + 1);
    }
    while (queue.length > 0) {
      const c = queue.pop() as number;
      for (const p of reverse[c] as number[]) {
        if (!seen[p]) {
          seen[p] = 1;
          queue.push(p);
        }
      }
    }
    this.coReachable = seen;
  }

  /** Zero-width closure of configurations; `atStart` lets `^` moves through. */
  private closure(configs: number[], atStart: boolean): number[] {
    const seen = new Set(configs);
    const queue = [...configs];
    const visit = (c: number): void => {
      if (!seen.has(c)) {
        seen.add(c);
        queue.push(c);
      }
    };
    while (queue.length > 0) {
      const c = queue.pop() as number;
      const s = c >> 1;
      const mode = c & 1;
      for (const t of this.epsilon[s] as number[]) visit(t * 2 + mode);
      for (const t of this.endAsserts[s] as number[]) visit(t * 2 + 1);
      if (atStart) for (const t of this.startAsserts[s] as number[]) visit(t * 2 + mode);
    }
    // Only configurations that can still reach acceptance matter; dropping the rest merges DFA states.
    return [...seen].filter((c) => this.coReachable[c] === 1 && this.decides(c)).sort((a, b) => a - b);
  }

  /**
   * Whether a configuration can tell one set from another: it reads a character (a state with edges,
   * before any `$`) or it accepts. The rest only pass through by zero-width moves, whose targets the
   * closure already holds, so two sets that differ in them alone behave the same. Dropping them makes
   * `[a-z0-9]*` after one character and after two one DFA state (Thompson's construction passes through
   * different states to get there), so strings in either share one inside mask.
   */
  private decides(config: number): boolean {
    const state = config >> 1;
    if (this.accepts.includes(state)) return true;
    return (config & 1) === 0 && (this.edges[state] as NfaEdge[]).length > 0;
  }

  private dfaState(set: number[]): number {
    if (set.length === 0) return -1;
    // An intersection is dead as soon as one of its patterns is.
    for (let k = 0; k < this.accepts.length; k++) {
      if (!set.some((c) => this.component[c >> 1] === k)) return -1;
    }
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.configurations += set.length;
    if (id >= MAX_DFA_STATES) this.tooLarge(MAX_DFA_STATES, 'DFA states');
    if (this.configurations > MAX_DFA_CONFIGURATIONS)
      this.tooLarge(MAX_DFA_CONFIGURATIONS, 'configurations across its DFA states');
    this.sets.push(set);
    this.ids.set(key, id);
    this.ascii.push(new Int32Array(128).fill(-2));
    this.accepting.push(this.accepts.every((a) => set.includes(a * 2) || set.includes(a * 2 + 1)));
    this.alphabets.push(undefined);
    this.successorLists.push(undefined);
    this.live.push(this.accepts.length === 1 ? true : undefined);
    return id;
  }

  private tooLarge(bound: number, what: string): never {
    throw new SchemaLimitError({
      limit: 'pattern',
      value: bound,
      schemaPath: '(pattern)',
      detail: `has a pattern, /${this.source.length > 80 ? `${this.source.slice(0, 80)}…` : this.source}/, whose automaton needs more than ${bound} ${what}`,
    });
  }

  /** Whether a match is reachable from `state`: always, for one pattern (dead sets are dropped). */
  private isLive(state: number): boolean {
    if (state < 0) return false;
    const known = this.live[state];
    if (known !== undefined) return known;
    // Breadth-first over the raw transitions; all states explored without a match are dead.
    const seen = new Set<number>([state]);
    const queue = [state];
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head] as number;
      if (this.accepting[at] || this.live[at] === true) {
        this.live[state] = true;
        return true;
      }
      for (const edge of this.rawSuccessors(at)) {
        if (edge.to >= 0 && !seen.has(edge.to) && this.live[edge.to] !== false) {
          seen.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    for (const s of seen) this.live[s] = false;
    return false;
  }

  /** The state after code point `cp` from a set, before checking that a match stays reachable. */
  private rawNext(state: number, cp: number): number {
    const targets: number[] = [];
    for (const c of this.sets[state] as number[]) {
      if (c & 1) continue; // after `$`, no character
      for (const edge of this.edges[c >> 1] as NfaEdge[]) {
        if (contains(edge.ranges, cp)) targets.push(edge.to * 2);
      }
    }
    return this.dfaState(this.closure(targets, false));
  }

  /**
   * The transitions of a state, as intervals of code points that all lead to the same state (from the
   * boundaries of its edges' ranges; surrogates excluded). Dead targets are -1.
   */
  private rawSuccessors(state: number): Successor[] {
    const known = this.successorLists[state];
    if (known) return known;
    const cuts = new Set<number>([0, 0xd800, 0xe000]);
    for (const c of this.sets[state] as number[]) {
      if (c & 1) continue;
      for (const edge of this.edges[c >> 1] as NfaEdge[]) {
        for (const [lo, hi] of edge.ranges) {
          cuts.add(lo);
          cuts.add(hi + 1);
        }
      }
    }
    const points = [...cuts].filter((p) => p <= 0x10ffff).sort((a, b) => a - b);
    const out: Successor[] = [];
    for (const [i, lo] of points.entries()) {
      const hi = (points[i + 1] ?? 0x110000) - 1;
      if (lo >= 0xd800 && lo <= 0xdfff) continue;
      const to = this.rawNext(state, representative([[lo, hi]]));
      if (to < 0) continue;
      const last = out[out.length - 1];
      if (last && last.to === to && last.hi === lo - 1) last.hi = hi;
      else out.push({ lo, hi, to });
    }
    this.successorLists[state] = out;
    return out;
  }

  /** The transitions of a state into live states (see `rawSuccessors`). */
  successors(state: number): Successor[] {
    if (state < 0) return [];
    const all = this.rawSuccessors(state);
    return this.accepts.length === 1 ? all : all.filter((s) => this.isLive(s.to));
  }

  private alphabet(state: number): Ranges {
    let known = this.alphabets[state];
    if (known === undefined) {
      if (this.accepts.length === 1) {
        // Cheaper than the successor intervals: the union of the edges' ranges (every edge of a kept
        // configuration leads somewhere live).
        const ranges: Array<readonly [number, number]> = [];
        for (const c of this.sets[state] as number[]) {
          if (c & 1) continue;
          for (const e of this.edges[c >> 1] as NfaEdge[]) {
            if (this.coReachable[e.to * 2] === 1) ranges.push(...e.ranges);
          }
        }
        known = normalize(ranges);
      } else known = normalize(this.successors(state).map((s) => [s.lo, s.hi] as const));
      this.alphabets[state] = known;
    }
    return known;
  }

  /**
   * The state after code point `cp`, or -1 when no string with this prefix matches. Read from the
   * state's transition intervals (`successors`), built once per state: a walk of the vocabulary meets
   * thousands of distinct characters, and deriving each one's target set apart cost a closure each.
   */
  next(state: number, cp: number): number {
    if (state < 0) return -1;
    const table = this.ascii[state] as Int32Array;
    if (cp < 128) {
      const cached = table[cp] as number;
      if (cached !== -2) return cached;
    }
    let result: number;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // Surrogates are no interval's (strings never feed them; `matches` on a lone one might).
      result = contains(this.alphabet(state), cp) ? this.rawNext(state, cp) : -1;
      if (!this.isLive(result)) result = -1;
    } else result = successorOf(this.successors(state), cp);
    if (cp < 128) table[cp] = result;
    return result;
  }

  /**
   * Whether some code point in [lo, hi] (surrogates excluded) can be read from `state`: lets a string
   * refuse the first byte of a UTF-8 sequence or of a \u escape that can only end in a refused character.
   */
  allowsSome(state: number, lo: number, hi: number): boolean {
    if (state < 0) return false;
    for (const [a, b] of this.alphabet(state)) {
      const from = Math.max(a, lo);
      const to = Math.min(b, hi);
      if (from > to) continue;
      // [from, to] minus the surrogates 0xD800..0xDFFF
      if (from < 0xd800 || to > 0xdfff) return true;
    }
    return false;
  }

  isAccepting(state: number): boolean {
    return state >= 0 && this.accepting[state] === true;
  }

  /**
   * Whether from `state` the pattern refuses no character (surrogates aside, which a string never feeds
   * it): every state reachable from it reads every code point, and, with `accepting`, every one of
   * them is accepting too (then every continuation matches, of any length). Such a state constrains a
   * string exactly as the pattern that matches anything does, so the masks inside strings can be shared
   * across patterns (an unanchored `[a-f0-9]{24}`, `^([^,]|$)` after its first character). False when
   * more than `FREEDOM_STATES` states would have to be visited to tell (never wrong, only unshared).
   */
  unconstrained(state: number, accepting: boolean): boolean {
    if (state < 0) return false;
    let known = this.freedom[state] ?? 0;
    if ((known & 1) === 0) {
      known = 1 | this.exploreFreedom(state);
      this.freedom[state] = known;
    }
    return (known & (accepting ? 4 : 2)) !== 0;
  }

  /**
   * For one pattern (null for an intersection): a number of characters of the Basic Multilingual Plane
   * within which every live state can reach a match. A DFA state's shortest completion is the shortest
   * of its NFA configurations', so the longest of those over the whole NFA bounds them all, found by
   * one backward pass over the NFA (zero-width moves cost nothing) instead of building every DFA state
   * (hundreds for a counted pattern). Infinity when some configuration completes only through
   * characters beyond it.
   */
  completionBound(): number | null {
    if (this.bound !== undefined) return this.bound;
    if (this.accepts.length !== 1) {
      this.bound = null;
      return null;
    }
    const n = this.epsilon.length * 2;
    // Backward edges with their cost: 0 for zero-width moves, 1 for a character of the BMP.
    const free: number[][] = Array.from({ length: n }, () => []);
    const paid: number[][] = Array.from({ length: n }, () => []);
    for (let s = 0; s < this.epsilon.length; s++) {
      for (const mode of [0, 1]) {
        for (const t of this.epsilon[s] as number[]) free[t * 2 + mode]?.push(s * 2 + mode);
        for (const t of this.endAsserts[s] as number[]) free[t * 2 + 1]?.push(s * 2 + mode);
      }
      for (const e of this.edges[s] as NfaEdge[]) {
        if (e.ranges.some(([lo, hi]) => lo <= 0xffff && (lo < 0xd800 || hi > 0xdfff))) {
          paid[e.to * 2]?.push(s * 2);
        }
      }
    }
    const distance = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
    // 0-1 breadth first: a deque as two stacks per distance level.
    let level: number[] = [];
    for (const a of this.accepts) {
      distance[a * 2] = 0;
      distance[a * 2 + 1] = 0;
      level.push(a * 2, a * 2 + 1);
    }
    for (let d = 0; level.length > 0; d++) {
      const next: number[] = [];
      for (let i = 0; i < level.length; i++) {
        const c = level[i] as number;
        if ((distance[c] as number) < d) continue;
        for (const p of free[c] as number[]) {
          if ((distance[p] as number) > d) {
            distance[p] = d;
            level.push(p);
          }
        }
        for (const p of paid[c] as number[]) {
          if ((distance[p] as number) > d + 1) {
            distance[p] = d + 1;
            next.push(p);
          }
        }
      }
      level = next;
    }
    let bound = 0;
    for (let c = 0; c < n; c++) {
      if (this.coReachable[c] === 1) bound = Math.max(bound, distance[c] as number);
    }
    this.bound = bound;
    return bound;
  }

  /** Breadth-first over the states reachable from `state`: bits 2 and 4 of `unconstrained`. */
  private exploreFreedom(state: number): number {
    let allAccepting = true;
    const seen = new Set<number>([state]);
    const queue = [state];
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head] as number;
      if (!coversAll(this.alphabet(at))) return 0;
      if (!this.accepting[at]) allAccepting = false;
      for (const edge of this.successors(at)) {
        if (seen.has(edge.to)) continue;
        if (seen.size >= FREEDOM_STATES) return 0;
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
    return allAccepting ? 6 : 2;
  }

  /** A shortest string of code points from `state` to a match (breadth-first), or null. */
  shortestAccepted(state: number): number[] | null {
    if (state < 0) return null;
    const previous = new Map<number, { from: number; cp: number }>();
    const queue = [state];
    previous.set(state, { from: -1, cp: -1 });
    for (let head = 0; head < queue.length; head++) {
      const at = queue[head] as number;
      if (this.isAccepting(at)) {
        const path: number[] = [];
        for (let s = at; s !== state; ) {
          const step = previous.get(s) as { from: number; cp: number };
          path.push(step.cp);
          s = step.from;
        }
        return path.reverse();
      }
      for (const edge of this.successors(at)) {
        if (!previous.has(edge.to)) {
          previous.set(edge.to, { from: at, cp: representative([[edge.lo, edge.hi]]) });
          queue.push(edge.to);
        }
      }
    }
    return null;
  }

  /** Whether the pattern matches the whole of `text` (for tests). */
  matches(text: string): boolean {
    let state = this.start;
    for (const ch of text) state = this.next(state, ch.codePointAt(0) as number);
    return this.isAccepting(state);
  }
}

/** A member of `ranges`, preferring `a`, then a printable character that needs no JSON escape. */
export function representative(ranges: Ranges): number {
  if (contains(ranges, 0x61)) return 0x61;
  for (const [lo, hi] of ranges) {
    for (let cp = Math.max(lo, 0x20); cp <= hi && cp < 0x80; cp++) {
      if (cp !== 0x22 && cp !== 0x5c) return cp;
    }
  }
  return (ranges[0] as readonly [number, number])[0];
}

/** Most states `unconstrained` visits (an unanchored pattern of a few dozen characters fits). */
const FREEDOM_STATES = 256;

/** Whether `ranges` (normalised) hold every code point outside the surrogates. */
function coversAll(ranges: Ranges): boolean {
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next && !(next >= 0xd800 && lo <= 0xe000)) return false;
    next = Math.max(next, hi + 1);
  }
  return next > 0x10ffff;
}

/** The target of the interval holding `cp` (intervals sorted and disjoint), or -1. */
function successorOf(intervals: readonly Successor[], cp: number): number {
  let lo = 0;
  let hi = intervals.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = intervals[mid] as Successor;
    if (cp < at.lo) hi = mid - 1;
    else if (cp > at.hi) lo = mid + 1;
    else return at.to;
  }
  return -1;
}

function contains(ranges: Ranges, cp: number): boolean {
  for (const [lo, hi] of ranges) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}
