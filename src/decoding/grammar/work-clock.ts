/**
 * The clock compile-time warming and precompute measure their budgets on (`PRECOMPUTE_MS`,
 * string-warmup.ts, and the deadlines they hand to trie walks): milliseconds that advance, between two
 * reads, by the lesser of the wall time and the process's CPU time that passed. On a loaded machine
 * the wall clock also counts the time this process waited for a core, so a wall-time budget covered
 * fewer masks the busier the machine was, and the rest landed in decoding (issue 45: the turn schema's
 * p99 mask 3-5 ms on a machine at load 3, 0.1-0.2 ms quiet). Taking the lesser keeps the budget from
 * being spent faster by other threads of the process (onnxruntime's, the collector's), whose CPU time
 * `process.cpuUsage` counts too. Where the process's CPU time cannot be read (not Node), it is the wall
 * clock. One piece of module state (haggle's choice): the reading each call compares against.
 */
const cpuUsage: (() => { user: number; system: number }) | undefined =
  typeof process !== 'undefined' && typeof process.cpuUsage === 'function'
    ? () => process.cpuUsage()
    : undefined;

let lastWall = performance.now();
let lastCpu = cpuMs();
let elapsed = 0;

function cpuMs(): number {
  if (cpuUsage === undefined) return Number.POSITIVE_INFINITY;
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

/** Work-clock milliseconds: compare with a deadline made as `workNow() + budget`. */
export function workNow(): number {
  const wall = performance.now();
  if (cpuUsage === undefined) return wall;
  const cpu = cpuMs();
  elapsed += Math.max(0, Math.min(wall - lastWall, cpu - lastCpu));
  lastWall = wall;
  lastCpu = cpu;
  return elapsed;
}

/**
 * Whether the work clock is past `deadline` (a `workNow() + budget`). The lesser of the wall and CPU
 * time that passed is never more than the wall time, so while the wall clock alone keeps it within
 * the deadline the process's CPU time is not read: `process.cpuUsage` is a system call (about 5 µs),
 * and read once per precomputed position it was a third of an offer schema's compile (issue 45).
 * Past that point it is read, and the next read waits until the wall clock could have reached the
 * deadline again: a few reads per budget on a loaded machine.
 */
export function workPast(deadline: number): boolean {
  if (elapsed + (performance.now() - lastWall) <= deadline) return false;
  return workNow() > deadline;
}
