import { HaggleError } from '../contract/errors.js';

/**
 * A call the environment cannot take in its state: `step` before `reset` or after the episode ended,
 * a second `step` while one is being played. The message says which call to make instead.
 */
export class EnvironmentStateError extends HaggleError {
  static override readonly marker: string = 'haggle.error.EnvironmentStateError';
  constructor(message: string) {
    super({ code: 'environment-state', message });
    this.name = 'EnvironmentStateError';
  }
}

/** An `error` message of OpenEnv's protocol (or a dropped connection), with its code. */
export class EnvironmentServerError extends HaggleError {
  static override readonly marker: string = 'haggle.error.EnvironmentServerError';
  readonly serverCode: string;
  readonly data: Record<string, unknown>;

  constructor(data: Record<string, unknown>) {
    super({
      code: 'environment-server',
      message: `environment server error: ${String(data.message ?? 'unknown')} (code: ${String(data.code ?? 'UNKNOWN')})`,
    });
    this.name = 'EnvironmentServerError';
    this.serverCode = String(data.code ?? 'UNKNOWN');
    this.data = data;
  }
}
