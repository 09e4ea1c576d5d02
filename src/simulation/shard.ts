import { InvalidInputError } from '../contract/errors.js';

/**
 * One of `count` deterministic slices of a run, numbered from 1 as a person says "shard 2 of 3": the
 * sessions (or matches) whose index % count === index - 1. Every slice keeps the seeds and contexts it
 * would have had in the whole run, so `mergeRuns` can join the slices into the file one run would have
 * written. haggle's choice: a stride rather than contiguous blocks, so slices stay even when a run's
 * sessions get slower or faster along the way, and none of them needs the total to know its share.
 */
export interface Shard {
  /** 1-based: 1 .. count. */
  index: number;
  count: number;
}

/** Checks a shard against the number of items it slices; throws an `InvalidInputError` naming `path`. */
export function checkShard(shard: Shard, items: number, path = 'shard'): void {
  const { index, count } = shard;
  const problems: { path: string; message: string }[] = [];
  if (!Number.isInteger(count) || count < 1)
    problems.push({ path: `${path}.count`, message: 'must be a positive integer' });
  else if (!Number.isInteger(index) || index < 1 || index > count)
    problems.push({ path: `${path}.index`, message: `must be an integer from 1 to ${count}` });
  else if (count > items)
    problems.push({ path: `${path}.count`, message: `must not exceed the ${items} items it divides` });
  if (problems.length > 0) throw new InvalidInputError({ subject: 'Shard', issues: problems });
}

/** Whether item `itemIndex` belongs to the shard (every item does without one). */
export function inShard(itemIndex: number, shard: Shard | undefined): boolean {
  return shard === undefined || itemIndex % shard.count === shard.index - 1;
}

/** How many of `0 .. items - 1` the shard plays. */
export function shardSize(items: number, shard: Shard | undefined): number {
  if (!shard) return items;
  return Math.max(0, Math.ceil((items - (shard.index - 1)) / shard.count));
}

/** The indices of `0 .. items - 1` that the shard plays, in order, leaving out `skip`; one at a time. */
export function* shardIndexIterator(
  items: number,
  shard: Shard | undefined,
  skip: ReadonlySet<number> = new Set(),
): Generator<number, void> {
  const [first, step] = shard ? [shard.index - 1, shard.count] : [0, 1];
  for (let i = first; i < items; i += step) if (!skip.has(i)) yield i;
}

/** The indices of `0 .. items - 1` that the shard plays, in order. */
export function shardIndices(items: number, shard: Shard | undefined): number[] {
  return [...shardIndexIterator(items, shard)];
}

/** Parses `K/N` (as in `--shard 2/3`); returns undefined when the text is not of that form. */
export function parseShard(text: string): Shard | undefined {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  return { index: Number(match[1]), count: Number(match[2]) };
}
