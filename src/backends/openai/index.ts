export type { FailureKind, RemoteErrorArgs } from '../errors.js';
export {
  AuthenticationError,
  BadRequestError,
  CrossOriginRequestError,
  HttpStatusError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RemoteBackendError,
  RemoteConnectionError,
  RemoteTimeoutError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from '../errors.js';
export type { DialectName, StructuredOutputFields } from './dialect.js';

// A type only: the Node transport itself never reaches the browser build.
export type { OpenAICompatibleBackendDescription } from './openai-compatible-backend.js';

export { OpenAICompatibleBackend } from './openai-compatible-backend.js';

export type { BackendLogger, OpenAICompatibleBackendOptions } from './openai-options.js';

export { DEFAULT_MAX_RESPONSE_BYTES } from './response-limit.js';

export type { RetryPolicy } from './retry-policy.js';

export { DEFAULT_RETRY_POLICY } from './retry-policy.js';

export type { StrictSchemaResult } from './strict-schema.js';

export { toStrictSchema } from './strict-schema.js';
