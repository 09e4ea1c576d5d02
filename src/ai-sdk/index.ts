export { AiSdkPackageMissingError, UnsupportedLanguageModelError } from './ai-sdk-errors.js';
export { type CreateHaggleOptions, createHaggle, type HaggleProvider } from './create-haggle.js';
export {
  AiSdkBackend,
  type FromLanguageModelOptions,
  fromLanguageModel,
} from './from-language-model.js';
export { type HaggleCallSettings, HaggleCallSettingsSchema } from './haggle-call-settings.js';
export { HaggleLanguageModel, type HaggleModelDefaults } from './haggle-language-model.js';
export {
  isProviderName,
  PROVIDER_NAMES,
  PROVIDER_PACKAGES,
  type ProviderModelSpec,
  type ProviderName,
  type ProviderPackage,
  type ResolvedProviderModel,
  resolveProviderModel,
} from './provider-packages.js';
export type { StructuredOutputMode } from './structured-output.js';
