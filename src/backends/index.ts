export type {
  BackendPrompt,
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
