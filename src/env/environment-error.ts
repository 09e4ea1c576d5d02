import { HaggleError } from '../contract/errors.js';

/**
 * A call the environment cannot take in its state: `step` before `reset` or after the episode ended,
 * a second `step` while one is being played. The message says which call to make instead.
 */
export class EnvironmentStateError extends HaggleError {
  static override readonly marker: string = 'haggle.error.EnvironmentStateError';
  constructor(message: string) {
    super('environment-state', message);
    this.name = 'EnvironmentStateError';
  }
}
