import type { PatternAutomaton } from './regex.js';

const ASCII = Array.from({ length: 128 }, (_, cp) => cp);

/**
 * Whether some string may match both patterns. Exact when the two never both read a non-ASCII
 * character at the same point: the pair of automata is explored over ASCII (every ASCII character is
 * tried), and a point where both could read something beyond ASCII counts as an overlap, as does a
 * search that grows too large. So `false` is a proof (`^x-` and `^n_` share no string) and `true` may
 * be a doubt.
 */
export function mayOverlap(a: PatternAutomaton, b: PatternAutomaton, limit = 10_000): boolean {
  const seen = new Set<string>();
  const queue: Array<[number, number]> = [[a.start, b.start]];
  seen.add(`${a.start},${b.start}`);
  for (let head = 0; head < queue.length; head++) {
    const [p, q] = queue[head] as [number, number];
    if (a.isAccepting(p) && b.isAccepting(q)) return true;
    if (a.allowsSome(p, 0x80, 0x10ffff) && b.allowsSome(q, 0x80, 0x10ffff)) return true;
    for (const cp of ASCII) {
      const np = a.next(p, cp);
      if (np < 0) continue;
      const nq = b.next(q, cp);
      if (nq < 0) continue;
      const key = `${np},${nq}`;
      if (seen.has(key)) continue;
      if (seen.size >= limit) return true;
      seen.add(key);
      queue.push([np, nq]);
    }
  }
  return false;
}

/**
 * Every string a pattern matches, when they are few (at most `limit`) and ASCII: then a pattern whose
 * keys are forbidden can be handled as a list of names. Null when the pattern may match more (a loop,
 * a long string, or a character beyond ASCII).
 */
export function finiteMatches(pattern: PatternAutomaton, limit = 64, maxLength = 64): string[] | null {
  const out: string[] = [];
  const visit = (state: number, prefix: string): boolean => {
    if (prefix.length > maxLength) return false;
    if (pattern.isAccepting(state)) {
      out.push(prefix);
      if (out.length > limit) return false;
    }
    if (pattern.allowsSome(state, 0x80, 0x10ffff)) return false;
    for (const cp of ASCII) {
      const next = pattern.next(state, cp);
      if (next >= 0 && !visit(next, prefix + String.fromCharCode(cp))) return false;
    }
    return true;
  };
  return visit(pattern.start, '') ? out : null;
}
