import { InvalidInputError } from '../contract/errors.js';
import {
  BestOfferEnvironment,
  type BestOfferEnvironmentName,
  type BestOfferEnvironmentOptions,
} from './best-offer-environment.js';
import type { Environment } from './environment.js';
import {
  MultiIssueEnvironment,
  type MultiIssueEnvironmentName,
  type MultiIssueEnvironmentOptions,
} from './multi-issue-environment.js';

/** Every environment `createEnvironment` builds and `haggle env serve --env` serves, by name. */
export const ENVIRONMENT_NAMES = [
  'multi-issue-seller',
  'multi-issue-buyer',
  'best-offer-seller',
  'best-offer-buyer',
] as const;
/** The name of a built-in environment. */
export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** What `createEnvironment` takes: the environment's name and its options. */
export type CreateEnvironmentOptions =
  | (MultiIssueEnvironmentOptions & { env: MultiIssueEnvironmentName })
  | (BestOfferEnvironmentOptions & { env: BestOfferEnvironmentName });

/**
 * A training environment in-process, for TypeScript trainers and tests: `reset({ seed })`, then
 * `step(rawModelText)` until `done`, the reward on the step that ends the episode. `haggle env serve`
 * serves the same environments over OpenEnv's WebSocket protocol.
 *
 * @example
 * ```ts
 * import { createEnvironment } from 'haggle/env';
 * import { generateSuite, utilityConceder } from 'haggle/evaluation';
 *
 * const env = createEnvironment({ env: 'multi-issue-seller', suite: generateSuite({ seed: 1 }),
 *   opponent: utilityConceder(), opponentName: 'utility-conceder' });
 * // Your model writes the text from `observation.prompt`; this stand-in walks away at once.
 * const policy = async (_prompt: string) => '{"action":"walk_away","offer":null,"message":""}';
 * let result = await env.reset({ seed: 3 });
 * while (!result.done) result = await env.step(await policy(result.observation.prompt));
 * console.log(result.reward); // the seller's reservation utility: no deal
 * ```
 * @see The guide: [Training environments](../../docs/training.md).
 */
export function createEnvironment(options: CreateEnvironmentOptions): Environment {
  switch (options?.env) {
    case 'multi-issue-seller':
    case 'multi-issue-buyer':
      return new MultiIssueEnvironment(options);
    case 'best-offer-seller':
    case 'best-offer-buyer':
      return new BestOfferEnvironment(options);
    default:
      throw new InvalidInputError({
        subject: 'CreateEnvironmentOptions',
        issues: [{ path: 'env', message: `must be one of ${ENVIRONMENT_NAMES.join(', ')}` }],
      });
  }
}
