import type { TournamentOptions } from './tournament.js';

/**
 * How many matches a tournament plans (of all shards together): every arm, in every role, against
 * every playing opponent, on every scenario, once per seed. Counted without planning them, so a caller
 * can refuse a tournament too big to mean (5,000 arms) before millions of matches are laid out.
 */
export function plannedMatchCount(
  options: Pick<TournamentOptions, 'arms' | 'armRoles' | 'suite' | 'onlyOpponents'>,
): number {
  const { suite } = options;
  const playing = (options.onlyOpponents ?? suite.opponents).filter((name) => suite.opponents.includes(name));
  const roles = options.armRoles?.length ?? 1;
  return (
    Object.keys(options.arms).length * roles * suite.scenarios.length * playing.length * suite.seedsPerPair
  );
}
