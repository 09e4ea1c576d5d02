export type { CorsOptions } from './cors.js';
export type { ClientClosed, ListenOptions, OpenAIServerOptions } from './openai-server.js';
export { OpenAIServer } from './openai-server.js';
export type { RequestLimits } from './request-limits.js';
export { DEFAULT_REQUEST_LIMITS } from './request-limits.js';
export type { ServerFailure } from './server-failure.js';
