export type { Dialect, DialectName, Endpoint, StructuredOutputFields } from './dialect.js';
export { DIALECT_NAMES, DIALECTS } from './dialect.js';
export type { FailureKind, RemoteErrorArgs } from './http-errors.js';
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
} from './http-errors.js';
// A type only: the Node transport itself never reaches the browser build.
export type { HeaderLookup } from './node-transport.js';
export type { OpenAICompatibleBackendDescription } from './openai-compatible-backend.js';
export { OpenAICompatibleBackend } from './openai-compatible-backend.js';
export type { BackendLogger, OpenAICompatibleBackendOptions } from './openai-options.js';
export { cleanOutputText } from './output-cleaning.js';
export type { PlannedRequest, RequestBodyArgs } from './request-body.js';
export { buildRequestBody, PROVIDER_OPTIONS_KEY } from './request-body.js';
export { DEFAULT_MAX_RESPONSE_BYTES } from './response-limit.js';
export type { RetryPolicy } from './retry-policy.js';
export { DEFAULT_RETRY_POLICY, isRetryableStatus, parseRetryAfter } from './retry-policy.js';
export type { StrictSchemaResult } from './strict-schema.js';
export { toStrictSchema } from './strict-schema.js';
