import type { PatternAutomaton, Successor } from './regex.js';
import { representative } from './regex.js';

/**
 * The lengths of the strings a pattern automaton still accepts from each state, for a pattern next to
 * `minLength`/`maxLength`: a position is alive only if some completion both matches and fits the
 * bounds. Completions are built from characters of the Basic Multilingual Plane (one UTF-16 unit and
 * one code point each), so code points and units agree on their length.
 *
 * From a state, the sets of states reachable in exactly k characters (the "layers") repeat after a
 * while; the accepting lengths are then periodic, which answers "an accepted length in [need, room]?"
 * for any bounds after a bounded walk.
 */
interface Profile {
  /** Layer k: the states reachable in exactly k characters, for k up to the first repeat. */
  layers: number[][];
  /** Whether layer k holds an accepting state. */
  accepts: boolean[];
  /** Layers from `cycleStart` repeat with `period`. */
  cycleStart: number;
  period: number;
}

/** Most states `slack` explores before giving up (then masks near bounds are keyed exactly). */
const MAX_SLACK_STATES = 4096;

export class PatternLengths {
  private readonly profiles = new Map<number, Profile>();
  private readonly bmp = new Map<number, Successor[]>();
  private readonly slacks = new Map<number, number>();
  private readonly distances = new Map<number, number>();
  private readonly nearSlacks = new Map<number, number>();

  constructor(private readonly automaton: PatternAutomaton) {}

  /**
   * A length beyond which the exact room stops mattering: from `state` and from every state reachable
   * from it, an accepted length in [need, room] exists exactly when one in [need, need + slack] does.
   * Lets masks of positions far from `maxLength` be shared. Infinity when too many states to explore.
   */
  slack(state: number): number {
    const known = this.slacks.get(state);
    if (known !== undefined) return known;
    const slack = this.maxOverReachable(state, (at) => {
      const p = this.profile(at);
      return p.cycleStart + p.period;
    });
    this.slacks.set(state, slack);
    return slack;
  }

  /** The largest `measure` over the states reachable from `state`; Infinity when too many to explore. */
  private maxOverReachable(state: number, measure: (at: number) => number): number {
    let largest = 0;
    const seen = new Set<number>([state]);
    const queue = [state];
    for (let head = 0; head < queue.length; head++) {
      if (queue.length > MAX_SLACK_STATES) return Number.POSITIVE_INFINITY;
      const at = queue[head] as number;
      largest = Math.max(largest, measure(at));
      for (const edge of this.successors(at)) {
        if (!seen.has(edge.to)) {
          seen.add(edge.to);
          queue.push(edge.to);
        }
      }
    }
    return largest;
  }

  /**
   * `slack` for a string that already has its `minLength` (need 0 from here on, as it never grows):
   * then only the shortest completion of each reachable state matters, so the largest of them will do.
   * Far cheaper than `slack`, which builds the length profile of every reachable state (for a counted
   * pattern, `(\S+\s+){0,199}`, hundreds of profiles of hundreds of layers).
   */
  nearSlack(state: number): number {
    const bound = this.automaton.completionBound();
    if (bound !== null) return bound;
    const known = this.nearSlacks.get(state);
    if (known !== undefined) return known;
    const slack = this.maxOverReachable(state, (at) => this.shortest(at));
    this.nearSlacks.set(state, slack);
    return slack;
  }

  /** Fewest characters from `state` to a match (breadth first, stopping at the first), or Infinity. */
  private shortest(state: number): number {
    const known = this.distances.get(state);
    if (known !== undefined) return known;
    let found = Number.POSITIVE_INFINITY;
    let layer = [state];
    const seen = new Set<number>(layer);
    for (let k = 0; layer.length > 0; k++) {
      if (layer.some((s) => this.automaton.isAccepting(s))) {
        found = k;
        break;
      }
      const next: number[] = [];
      for (const s of layer) {
        for (const edge of this.successors(s)) {
          if (!seen.has(edge.to)) {
            seen.add(edge.to);
            next.push(edge.to);
          }
        }
      }
      layer = next;
    }
    this.distances.set(state, found);
    return found;
  }

  /** Whether a match of between `need` and `room` more characters exists from `state`. */
  canFinish(state: number, need: number, room: number): boolean {
    return this.lengthWithin(state, need, room) !== null;
  }

  /** A shortest completion from `state` of between `need` and `room` characters, or null. */
  completion(state: number, need: number, room: number): number[] | null {
    const length = this.lengthWithin(state, need, room);
    if (length === null) return null;
    const profile = this.profile(state);
    const path: number[] = [];
    let target = this.layer(profile, length).find((s) => this.automaton.isAccepting(s)) ?? -1;
    for (let k = length - 1; k >= 0; k--) {
      let found = false;
      for (const from of this.layer(profile, k)) {
        const edge = this.successors(from).find((e) => e.to === target);
        if (edge) {
          path.push(representative([[edge.lo, edge.hi]]));
          target = from;
          found = true;
          break;
        }
      }
      if (!found) return null;
    }
    return path.reverse();
  }

  /** Whether some code point in [lo, hi] leads from `state` to a state that can still finish. */
  canRead(state: number, lo: number, hi: number, need: number, room: number): boolean {
    for (const edge of this.automaton.successors(state)) {
      const from = Math.max(edge.lo, lo);
      const to = Math.min(edge.hi, hi);
      if (from > to) continue;
      const next = Math.max(0, need - 1);
      if (from <= 0xffff && this.canFinish(edge.to, next, room - 1)) return true;
      if (to > 0xffff && this.canFinish(edge.to, next, room - 2)) return true;
    }
    return false;
  }

  private lengthWithin(state: number, need: number, room: number): number | null {
    if (state < 0 || room < need) return null;
    if (need === 0) {
      // The shortest match, found without the profile (which walks every length up to its cycle).
      const shortest = this.shortest(state);
      return shortest <= room ? shortest : null;
    }
    const p = this.profile(state);
    const last = Math.min(room, Math.max(need, p.accepts.length) + p.period);
    for (let k = need; k <= last; k++) {
      const index = k < p.accepts.length ? k : p.cycleStart + ((k - p.cycleStart) % p.period);
      if (p.accepts[index]) return k;
    }
    return null;
  }

  private layer(p: Profile, k: number): number[] {
    const index = k < p.layers.length ? k : p.cycleStart + ((k - p.cycleStart) % p.period);
    return p.layers[index] as number[];
  }

  private successors(state: number): Successor[] {
    let known = this.bmp.get(state);
    if (!known) {
      known = this.automaton
        .successors(state)
        .filter((e) => e.lo <= 0xffff)
        .map((e) => ({ lo: e.lo, hi: Math.min(e.hi, 0xffff), to: e.to }));
      this.bmp.set(state, known);
    }
    return known;
  }

  private profile(state: number): Profile {
    const known = this.profiles.get(state);
    if (known) return known;
    const layers: number[][] = [];
    const index = new Map<string, number>();
    let layer = [state];
    for (;;) {
      const key = layer.join(',');
      const seen = index.get(key);
      if (seen !== undefined) {
        const profile = {
          layers,
          accepts: layers.map((l) => l.some((s) => this.automaton.isAccepting(s))),
          cycleStart: seen,
          period: layers.length - seen,
        };
        this.profiles.set(state, profile);
        return profile;
      }
      index.set(key, layers.length);
      layers.push(layer);
      const next = new Set<number>();
      for (const s of layer) for (const e of this.successors(s)) next.add(e.to);
      layer = [...next].sort((a, b) => a - b);
    }
  }
}
