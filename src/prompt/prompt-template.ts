import type { ChatMessage } from '../backends/language-backend.js';
import type { History, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { ModelProfile } from '../contract/model-profile.js';

/** What a template turns into a prompt: everything the model sees, already validated. */
export interface PromptInput {
  context: ListingContext;
  history: History;
  /** The side whose turn it is. */
  role: Role;
  /** The model's profile: its label vocabulary and the unit of `response_time`. */
  profile: ModelProfile;
}

/**
 * A prompt in both forms a backend may want: `messages` for chat endpoints, `text` for local models and
 * completion endpoints (the exact string the model was trained on, ending where the answer begins).
 */
export interface RenderedPrompt {
  messages: ChatMessage[];
  text: string;
}

/**
 * Turns a negotiation state into a prompt. A template must be deterministic (the same input gives the
 * same prompt, so a seed reproduces a run) and must pass every untrusted field through
 * `sanitizeUntrustedText`.
 */
export interface PromptTemplate {
  /** Identifies wording and format in run records, e.g. `plain`. */
  readonly id: string;
  /**
   * Strings that end the answer in this template's chat format (`<|im_end|>` for Qwen3). When absent,
   * the agent stops at `<|im_end|>`, the end of a turn for every model haggle ships a profile for.
   */
  readonly stop?: readonly string[];
  render(input: PromptInput): RenderedPrompt;
}
