export { BackendUnavailableError } from './errors.js';

export type {
  BackendDescription,
  BackendHealth,
  BackendPrompt,
  BackendStreamPart,
  BackendWarning,
  ChatMessage,
  FinishReason,
  GenerateChoice,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
  ResponseFormat,
  Usage,
} from './language-backend.js';

export type {
  BackendLogger,
  DialectName,
  FailureKind,
  OpenAICompatibleBackendDescription,
  OpenAICompatibleBackendOptions,
  RemoteErrorArgs,
  RetryPolicy,
  StrictSchemaResult,
  StructuredOutputFields,
} from './openai/index.js';
export {
  AuthenticationError,
  BadRequestError,
  CrossOriginRequestError,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRY_POLICY,
  HttpStatusError,
  InternalServerError,
  InvalidResponseError,
  NotFoundError,
  OpenAICompatibleBackend,
  PermissionDeniedError,
  RateLimitError,
  RemoteBackendError,
  RemoteConnectionError,
  RemoteTimeoutError,
  ResponseTooLargeError,
  toStrictSchema,
  UnprocessableEntityError,
} from './openai/index.js';

export { streamGenerate } from './stream-generate.js';
