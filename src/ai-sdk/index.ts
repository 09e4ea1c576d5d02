export { OptionalDependencyMissingError } from '../contract/errors.js';
export {
  type CreateHaggleOptions,
  createHaggle,
  type HaggleProvider,
  type HaggleProviderV4,
  type HaggleSpecificationVersion,
} from './create-haggle.js';
export { UnsupportedLanguageModelError } from './errors.js';
export {
  AiSdkBackend,
  type FromLanguageModelOptions,
  fromLanguageModel,
} from './from-language-model.js';
export { type HaggleCallSettings, HaggleCallSettingsSchema } from './haggle-call-settings.js';
export { HaggleLanguageModel, type HaggleModelDefaults } from './haggle-language-model.js';
export { languageModelV3Of, languageModelV4Of } from './language-model-views.js';
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
