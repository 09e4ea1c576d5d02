/**
 * `OpenAIServer`: an OpenAI-compatible HTTP server (`/v1/chat/completions`, `/v1/completions`) in
 * front of any `LanguageBackend`, with guided decoding, admission limits and an API key. What
 * `haggle serve` runs. Node only (`node:http`).
 * @packageDocumentation
 * @module haggle/server
 */
export * from '../server/index.js';
