import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';

/**
 * How an episode is rewarded beyond its outcome. Every default is haggle's choice, labelled as such in
 * docs/training.md: the preprint's abstract says only "a programmatic utility reward".
 */
export interface EpisodeRewardOptions {
  /**
   * Reward of an episode the trained side ended with an invalid action (text that is no legal turn).
   * Default -1 (haggle's choice): below every outcome (utilities lie in 0..1), so a policy learns that
   * writing a legal turn comes first; the same default as `bargainingReward`'s `invalidTurn`.
   */
  invalidAction?: number;
  /**
   * What an episode without agreement earns: `reservation` (the side's no-deal utility, the default, as
   * `bargainingReward`) or a fixed number.
   */
  noDeal?: 'reservation' | number;
  /**
   * Reward of each step that does not end the episode. Default 0 (haggle's choice): the episode's reward
   * already discounts late agreements, and GRPO compares whole episodes; a negative value adds a cost per turn.
   */
  step?: number;
}

/** The reward options with their defaults, checked. */
export function resolveEpisodeRewards(options: EpisodeRewardOptions = {}): {
  invalidAction: number;
  noDeal: 'reservation' | number;
  step: number;
} {
  const problems: ValidationIssue[] = [];
  const finite = (path: string, value: unknown) => {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value)))
      problems.push({ path, message: 'must be a finite number' });
  };
  finite('invalidAction', options.invalidAction);
  finite('step', options.step);
  if (options.noDeal !== undefined && options.noDeal !== 'reservation') finite('noDeal', options.noDeal);
  if (problems.length > 0) throw new InvalidInputError({ subject: 'EpisodeRewardOptions', issues: problems });
  return {
    invalidAction: options.invalidAction ?? -1,
    noDeal: options.noDeal ?? 'reservation',
    step: options.step ?? 0,
  };
}
