/**
 * The ECMAScript regular-expression subset JSON Schema `pattern`s use, compiled to an automaton over
 * code points: literals, `.`, classes (`[a-z]`, `[^"]`, `\d \w \s` and negations), groups, `|`,
 * `* + ? {n} {n,} {n,m}` (lazy forms accept the same strings). `^` and `$` only at the ends: a pattern
 * without them matches anywhere in the string, as JSON Schema says. Back-references, look-around and
 * `\b` are refused with a `PatternSyntaxError` (the compiler turns it into an `UnsupportedSchemaError`).
 */

export class PatternSyntaxError extends Error {}

type Ranges = ReadonlyArray<readonly [number, number]>;

type Ast =
  | { type: 'set'; ranges: Ranges }
  | { type: 'seq'; items: Ast[] }
  | { type: 'alt'; options: Ast[] }
  | { type: 'repeat'; item: Ast; min: number; max: number };

const MAX_CODE_POINT = 0x10ffff;
const ANY: Ranges = [[0, MAX_CODE_POINT]];
const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
// What JavaScript's \s matches (and String.prototype.trim removes).
const SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Ranges = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];

function normalize(ranges: Array<readonly [number, number]>): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function negate(ranges: Ranges): Ranges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of normalize([...ranges])) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

class Parser {
  private pos = 0;
  constructor(private readonly source: string) {}

  parse(): { ast: Ast; anchoredStart: boolean; anchoredEnd: boolean } {
    let anchoredStart = false;
    if (this.source.startsWith('^')) {
      anchoredStart = true;
      this.pos = 1;
    }
    const ast = this.alternation();
    let anchoredEnd = false;
    if (this.peek() === '$') {
      anchoredEnd = true;
      this.pos++;
    }
    if (this.pos !== this.source.length) this.fail(`unexpected "${this.peek()}"`);
    return { ast, anchoredStart, anchoredEnd };
  }

  private fail(message: string): never {
    throw new PatternSyntaxError(`${message} at offset ${this.pos} of /${this.source}/`);
  }

  private peek(): string | undefined {
    return this.source[this.pos];
  }

  private alternation(): Ast {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.pos++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as Ast) : { type: 'alt', options };
  }

  private sequence(): Ast {
    const items: Ast[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      if (c === '$') {
        if (this.pos === this.source.length - 1) break;
        this.fail('"$" is supported only at the end');
      }
      if (c === '^') this.fail('"^" is supported only at the start');
      items.push(this.quantified(this.atom()));
    }
    return { type: 'seq', items };
  }

  private quantified(item: Ast): Ast {
    let result = item;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (c === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.pos));
        if (!match) return result; // a literal "{", as JavaScript reads it outside unicode mode
        min = Number(match[1]);
        max = match[2] === undefined ? min : match[3] === '' ? Number.POSITIVE_INFINITY : Number(match[3]);
        if (max < min) this.fail('numbers out of order in {} quantifier');
        if (min > 1000 || (max !== Number.POSITIVE_INFINITY && max > 1000))
          this.fail('repeat count above 1000');
        this.pos += match[0].length - 1;
      } else return result;
      this.pos++;
      if (this.peek() === '?') this.pos++; // lazy: same language
      result = { type: 'repeat', item: result, min, max };
    }
  }

  private atom(): Ast {
    const c = this.peek() as string;
    if (c === '(') {
      this.pos++;
      if (this.source.startsWith('?:', this.pos)) this.pos += 2;
      else if (this.source.startsWith('?<', this.pos) && !/^\?<[=!]/.test(this.source.slice(this.pos))) {
        const close = this.source.indexOf('>', this.pos);
        if (close < 0) this.fail('unterminated group name');
        this.pos = close + 1;
      } else if (c === '(' && this.peek() === '?') this.fail('look-around is not supported');
      const inner = this.alternation();
      if (this.peek() !== ')') this.fail('missing ")"');
      this.pos++;
      return inner;
    }
    if (c === '[') return { type: 'set', ranges: this.characterClass() };
    if (c === '.') {
      this.pos++;
      return { type: 'set', ranges: negate(LINE_TERMINATORS) };
    }
    if (c === '\\') return { type: 'set', ranges: this.escape(false) };
    if (c === '*' || c === '+' || c === '?') this.fail('nothing to repeat');
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return { type: 'set', ranges: [[cp, cp]] };
  }

  private characterClass(): Ranges {
    this.pos++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const ranges: Array<readonly [number, number]> = [];
    let first = true;
    while (this.peek() !== ']' || (first && false)) {
      if (this.peek() === undefined) this.fail('unterminated character class');
      first = false;
      const lo = this.classAtom();
      if (
        this.peek() === '-' &&
        this.source[this.pos + 1] !== ']' &&
        this.source[this.pos + 1] !== undefined
      ) {
        this.pos++;
        const hi = this.classAtom();
        if (lo.length !== 1 || hi.length !== 1) this.fail('a class escape cannot bound a range');
        const from = (lo[0] as readonly [number, number])[0];
        const to = (hi[0] as readonly [number, number])[0];
        if (to < from) this.fail('range out of order in character class');
        ranges.push([from, to]);
      } else ranges.push(...lo);
    }
    this.pos++; // ]
    const set = normalize(ranges);
    return negated ? negate(set) : set;
  }

  private classAtom(): Ranges {
    if (this.peek() === '\\') return this.escape(true);
    const cp = this.source.codePointAt(this.pos) as number;
    this.pos += cp > 0xffff ? 2 : 1;
    return [[cp, cp]];
  }

  private escape(inClass: boolean): Ranges {
    this.pos++; // backslash
    const c = this.peek();
    if (c === undefined) this.fail('trailing backslash');
    this.pos++;
    switch (c) {
      case 'd':
        return DIGIT;
      case 'D':
        return negate(DIGIT);
      case 'w':
        return WORD;
      case 'W':
        return negate(WORD);
      case 's':
        return SPACE;
      case 'S':
        return negate(SPACE);
      case 'n':
        return [[0x0a, 0x0a]];
      case 'r':
        return [[0x0d, 0x0d]];
      case 't':
        return [[0x09, 0x09]];
      case 'f':
        return [[0x0c, 0x0c]];
      case 'v':
        return [[0x0b, 0x0b]];
      case '0':
        return [[0, 0]];
      case 'b':
        if (inClass) return [[0x08, 0x08]];
        return this.fail('"\\b" (word boundary) is not supported');
      case 'x': {
        const hex = this.source.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('bad \\x escape');
        this.pos += 2;
        const cp = Number.parseInt(hex, 16);
        return [[cp, cp]];
      }
      case 'u': {
        const hex = this.source.slice(this.pos, this.pos + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
        this.pos += 4;
        const cp = Number.parseInt(hex, 16);
        return [[cp, cp]];
      }
      default:
        if (/[1-9]/.test(c)) this.fail('back-references are not supported');
        if (/[a-zA-Z]/.test(c)) this.fail(`unknown escape "\\${c}"`);
        return [[c.codePointAt(0) as number, c.codePointAt(0) as number]];
    }
  }
}

interface NfaEdge {
  ranges: Ranges;
  to: number;
}

/**
 * A pattern as a lazily built DFA over code points. States are sets of NFA states, numbered as they are
 * first reached, so a pattern costs only the states its strings visit. `-1` is the dead state.
 */
export class PatternAutomaton {
  private readonly epsilon: number[][] = [];
  private readonly edges: NfaEdge[][] = [];
  private accept = 0;
  private readonly sets: number[][] = [];
  private readonly ids = new Map<string, number>();
  private readonly ascii: Int32Array[] = [];
  private readonly other: Array<Map<number, number>> = [];
  private readonly accepting: boolean[] = [];
  /** Per DFA state: every code point any of its edges reads (a quick refusal for all the rest). */
  private readonly alphabets: Ranges[] = [];
  private coReachable: boolean[] = [];
  readonly start: number;

  constructor(readonly source: string) {
    const { ast, anchoredStart, anchoredEnd } = new Parser(source).parse();
    const begin = this.newState();
    let from = begin;
    if (!anchoredStart) from = this.loopAny(from);
    const end = this.build(ast, from);
    this.accept = anchoredEnd ? end : this.loopAny(end);
    this.computeCoReachable();
    this.start = this.dfaState(this.closure([begin]));
  }

  private newState(): number {
    this.epsilon.push([]);
    this.edges.push([]);
    return this.epsilon.length - 1;
  }

  private loopAny(from: number): number {
    (this.edges[from] as NfaEdge[]).push({ ranges: ANY, to: from });
    return from;
  }

  /** Thompson construction: returns the state reached after `ast` from `from`. */
  private build(ast: Ast, from: number): number {
    switch (ast.type) {
      case 'set': {
        const to = this.newState();
        (this.edges[from] as NfaEdge[]).push({ ranges: ast.ranges, to });
        return to;
      }
      case 'seq': {
        let at = from;
        for (const item of ast.items) at = this.build(item, at);
        return at;
      }
      case 'alt': {
        const to = this.newState();
        for (const option of ast.options) {
          const end = this.build(option, from);
          (this.epsilon[end] as number[]).push(to);
        }
        return to;
      }
      case 'repeat': {
        let at = from;
        for (let i = 0; i < ast.min; i++) at = this.build(ast.item, at);
        if (ast.max === Number.POSITIVE_INFINITY) {
          const loop = this.newState();
          (this.epsilon[at] as number[]).push(loop);
          const end = this.build(ast.item, loop);
          (this.epsilon[end] as number[]).push(loop);
          return loop;
        }
        const to = this.newState();
        (this.epsilon[at] as number[]).push(to);
        for (let i = ast.min; i < ast.max; i++) {
          at = this.build(ast.item, at);
          (this.epsilon[at] as number[]).push(to);
        }
        return to;
      }
    }
  }

  private computeCoReachable(): void {
    const n = this.epsilon.length;
    const reverse: number[][] = Array.from({ length: n }, () => []);
    for (let s = 0; s < n; s++) {
      for (const t of this.epsilon[s] as number[]) (reverse[t] as number[]).push(s);
      for (const e of this.edges[s] as NfaEdge[]) (reverse[e.to] as number[]).push(s);
    }
    const seen = new Array<boolean>(n).fill(false);
    const queue = [this.accept];
    seen[this.accept] = true;
    while (queue.length > 0) {
      const s = queue.pop() as number;
      for (const p of reverse[s] as number[]) {
        if (!seen[p]) {
          seen[p] = true;
          queue.push(p);
        }
      }
    }
    this.coReachable = seen;
  }

  private closure(states: number[]): number[] {
    const seen = new Set(states);
    const queue = [...states];
    while (queue.length > 0) {
      const s = queue.pop() as number;
      for (const t of this.epsilon[s] as number[]) {
        if (!seen.has(t)) {
          seen.add(t);
          queue.push(t);
        }
      }
    }
    // Only states that can still reach the accepting state matter; dropping the rest merges DFA states.
    return [...seen].filter((s) => this.coReachable[s]).sort((a, b) => a - b);
  }

  private dfaState(set: number[]): number {
    if (set.length === 0) return -1;
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.sets.push(set);
    this.ids.set(key, id);
    this.ascii.push(new Int32Array(128).fill(-2));
    this.other.push(new Map());
    this.accepting.push(set.includes(this.accept));
    // Only edges into states that can still match: then every code point in the alphabet leads somewhere live.
    this.alphabets.push(
      normalize(
        set.flatMap((s) =>
          (this.edges[s] as NfaEdge[])
            .filter((e) => this.closure([e.to]).length > 0)
            .flatMap((e) => [...e.ranges]),
        ),
      ),
    );
    return id;
  }

  /** The state after code point `cp`, or -1 when no string with this prefix matches. */
  next(state: number, cp: number): number {
    if (state < 0) return -1;
    const table = this.ascii[state] as Int32Array;
    if (cp < 128) {
      const cached = table[cp] as number;
      if (cached !== -2) return cached;
    } else {
      const cached = (this.other[state] as Map<number, number>).get(cp);
      if (cached !== undefined) return cached;
    }
    if (!contains(this.alphabets[state] as Ranges, cp)) {
      if (cp < 128) table[cp] = -1;
      return -1; // not cached: the vocabulary holds thousands of distinct characters
    }
    const targets: number[] = [];
    for (const s of this.sets[state] as number[]) {
      for (const edge of this.edges[s] as NfaEdge[]) {
        if (contains(edge.ranges, cp)) targets.push(edge.to);
      }
    }
    const result = this.dfaState(this.closure(targets));
    if (cp < 128) table[cp] = result;
    else (this.other[state] as Map<number, number>).set(cp, result);
    return result;
  }

  /**
   * Whether some code point in [lo, hi] (surrogates excluded) can be read from `state`: lets a string
   * refuse the first byte of a UTF-8 sequence or of a \u escape that can only end in a refused character.
   */
  allowsSome(state: number, lo: number, hi: number): boolean {
    if (state < 0) return false;
    for (const [a, b] of this.alphabets[state] as Ranges) {
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
      // Trying the first code point of every edge's ranges reaches every NFA target an edge can.
      const candidates = new Set<number>();
      for (const s of this.sets[at] as number[]) {
        for (const edge of this.edges[s] as NfaEdge[]) {
          candidates.add(representative(edge.ranges));
        }
      }
      for (const cp of candidates) {
        const next = this.next(at, cp);
        if (next >= 0 && !previous.has(next)) {
          previous.set(next, { from: at, cp });
          queue.push(next);
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
function representative(ranges: Ranges): number {
  if (contains(ranges, 0x61)) return 0x61;
  for (const [lo, hi] of ranges) {
    for (let cp = Math.max(lo, 0x20); cp <= hi && cp < 0x80; cp++) {
      if (cp !== 0x22 && cp !== 0x5c) return cp;
    }
  }
  return (ranges[0] as readonly [number, number])[0];
}

function contains(ranges: Ranges, cp: number): boolean {
  for (const [lo, hi] of ranges) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}
