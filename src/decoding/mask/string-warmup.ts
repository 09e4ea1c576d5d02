import type { GrammarNode } from '../grammar/nodes.js';
import { StringLeaf } from '../grammar/string-leaf.js';
import { workNow, workPast } from '../grammar/work-clock.js';
import type { InsideCache } from './inside-cache.js';

/**
 * The strings' share of `CompileOptions.warm` (the grammar computes its start mask first). The opening
 * of every string first (most share one mask, computed once per vocabulary), then further pattern
 * states, until `WARM_LIMIT` states have been warmed or `WARM_BUDGET_MS` have passed since the first
 * mask: warming is a head start, and the inside mask of a long pattern (`(\S+\s+){0,199}`) can take
 * most of a second each, which time to first mask should not pay sixteen times over.
 */
export function warmStrings(inside: InsideCache, nodes: readonly GrammarNode[]): void {
  // One deadline for all of it, also handed to the walks themselves: the inside mask of one long
  // pattern state can take tens of milliseconds, so checking between masks alone let warming run
  // far past its budget (a walk cut short is dropped, and decoding computes it when it needs it).
  const deadline = workNow() + WARM_BUDGET_MS;
  const leaves = nodes.filter((node): node is StringLeaf => node instanceof StringLeaf);
  const queues: Array<unknown[] | undefined> = [];
  let warmed = 0;
  for (let round = 0; round < 8; round++) {
    for (const [i, leaf] of leaves.entries()) {
      if (warmed >= WARM_LIMIT || workPast(deadline)) return;
      // The pattern states beyond the opening only once the openings of every string are done.
      let states = queues[i];
      if (states === undefined || (round === 1 && states.length === 1)) {
        states = leaf.warmStates(round === 0 ? 1 : 8, deadline);
        queues[i] = states;
      }
      if (round >= states.length) continue;
      warmed++;
      // A walk begun within the budget may finish up to WARM_WALK_MS later: the first pass of a
      // pattern is also the code's first run in the process (tens of milliseconds before the JIT
      // has tiered up, one afterwards), and a walk cut short is work thrown away.
      const walkDeadline = Math.max(deadline, workNow() + WARM_WALK_MS);
      if (!inside.warm(leaf, states[round], walkDeadline)) return;
    }
  }
}

/** Milliseconds compile-time warming may start walks for after the first mask (haggle's choice). */
const WARM_BUDGET_MS = 30;
/**
 * Milliseconds one warming walk may take once started, even past `WARM_BUDGET_MS` (haggle's choice):
 * enough for a short pattern's first pass on a loaded machine (1 ms quiet for the turn's label pattern,
 * 8-17 ms measured before the JIT had compiled it), not for a long counted pattern's (hundreds), which
 * decoding computes when it needs it.
 */
const WARM_WALK_MS = 25;
/** How many opened strings' inside masks compile-time warming computes at most. */
const WARM_LIMIT = 16;
