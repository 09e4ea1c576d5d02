/**
 * The Vercel AI SDK both ways: `fromLanguageModel` makes any AI SDK language model (Anthropic, Google,
 * Mistral, Bedrock, ... through their `@ai-sdk/*` packages) a haggle `LanguageBackend`; `createHaggle`
 * makes a haggle backend (the local `OnnxBackend` and its constrained decoder) an AI SDK provider for
 * `generateText`, `streamText`, `generateObject` and `streamObject`. Both lines of the AI SDK are
 * spoken: specification v3 (`ai` 6, `@ai-sdk/provider` 3) and v4 (`ai` 7, `@ai-sdk/provider` 4).
 * `ai` and `@ai-sdk/provider` are optional peer dependencies: this subpath uses their types and speaks the specification, so nothing
 * of them is loaded at run time.
 * @packageDocumentation
 * @module haggle/ai-sdk
 */
export * from '../ai-sdk/index.js';
// An experiment's `provider` participants are an evaluation concern (src/evaluation/), built on this
// subpath's `fromLanguageModel`; they are offered here, where a user of AI SDK providers looks for them.
export {
  type ExperimentProviderOptions,
  experimentProviderBackends,
  hasProviderParticipants,
} from '../evaluation/experiment-providers.js';
