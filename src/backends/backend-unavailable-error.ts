import { HaggleError } from '../contract/errors.js';

/**
 * A backend was asked for by name but cannot be used in this build or on this machine (for example
 * the local ONNX backend before it ships). Thrown at configuration time, before any work starts, so a
 * CLI run or a server fails fast with a sentence a person can act on.
 */
export class BackendUnavailableError extends HaggleError {
  static override readonly marker: string = 'haggle.error.BackendUnavailableError';
  /** The backend's name as the user wrote it, e.g. `onnx`. */
  readonly backendName: string;

  constructor(backendName: string, reason: string) {
    super('backend-unavailable', `The ${backendName} backend is not available: ${reason}`);
    this.name = 'BackendUnavailableError';
    this.backendName = backendName;
  }
}
