export type { ListenOptions, OpenAIServerOptions } from './openai-server.js';
export { OpenAIServer } from './openai-server.js';
