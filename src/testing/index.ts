// `haggle/testing`: helpers for testing apps built on haggle, without a model.
export type {
  MockLanguageBackendOptions,
  MockResponse,
  MockResponseContext,
} from './mock-language-backend.js';
export { MockLanguageBackend } from './mock-language-backend.js';
