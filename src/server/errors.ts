import { HaggleError } from '../contract/errors.js';

/**
 * An error a route answers with, in OpenAI's error shape. Its `code` is haggle's (`http-error`, as for
 * every `HaggleError`); the body's `code` field, OpenAI's (`context_length_exceeded`), is `errorCode`.
 */
export class HttpError extends HaggleError {
  static override readonly marker: string = 'haggle.error.HttpError';
  readonly status: number;
  readonly type: string;
  /** The `code` of the answer's body: OpenAI's machine-readable code, e.g. `context_length_exceeded`. */
  readonly errorCode: string | null;
  readonly param: string | null;
  /** Headers the answer carries besides the body (`retry-after` on a 429). */
  readonly headers: Record<string, string>;

  constructor(args: {
    status: number;
    message: string;
    /** OpenAI's error type; by default `server_error` for a 5xx, `invalid_request_error` otherwise. */
    type?: string;
    errorCode?: string;
    param?: string;
    headers?: Record<string, string>;
  }) {
    super({ code: 'http-error', message: args.message });
    this.name = 'HttpError';
    this.status = args.status;
    this.type = args.type ?? (args.status >= 500 ? 'server_error' : 'invalid_request_error');
    this.errorCode = args.errorCode ?? null;
    this.param = args.param ?? null;
    this.headers = args.headers ?? {};
  }

  toJSON(): { error: { message: string; type: string; param: string | null; code: string | null } } {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.errorCode } };
  }
}
