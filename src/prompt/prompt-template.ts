import type { ChatMessage } from '../contract/chat-message.js';
import type { History, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { ModelProfile } from '../contract/model-profile.js';

/** What a template turns into a prompt: everything the model sees, already validated. */
export interface PromptInput {
  context: ListingContext;
  /** The turns to show: the whole history, or what the token budget kept of it. */
  history: History;
  /** The side whose turn it is. */
  role: Role;
  /** The model's profile: its label vocabulary and the unit of `response_time`. */
  profile: ModelProfile;
  /**
   * Set only when the token budget left turns out: the position of each entry of `history` in the full
   * history (ascending, 0-based), so a wording can keep the turns' original numbers and mark each gap.
   */
  historyIndices?: readonly number[];
  /** With `historyIndices`: how many turns the full history has. */
  historyLength?: number;
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
 * `sanitizeUntrustedText` (`renderPrompt` and `NegotiationAgent` also sanitise the input before a
 * template sees it, so a template that forgets is still safe there). `renderPrompt` may call `render`
 * a second time for the same prompt, with each untrusted field replaced by a placeholder, to learn
 * which control tokens are the template's own (see joined-field-check.ts): keep `render` free of side
 * effects.
 */
export interface PromptTemplate {
  /** Identifies wording and format in run records and model profiles, e.g. `qwen3_nothink`. */
  readonly id: string;
  /**
   * Strings that end the answer in this template's chat format (`<|im_end|>` for Qwen3). When absent,
   * the agent stops at `<|im_end|>`, the end of a turn for every model haggle ships a profile for.
   */
  readonly stop?: readonly string[];
  /** Renders the prompt for one turn: the text (or messages) and the stop strings. */
  render(input: PromptInput): RenderedPrompt;
}

/**
 * The wording half of a template: what the messages say. The default is `defaultWording`; another
 * fine-tune's training prompt is plugged in by writing one of these.
 */
export type PromptWording = (input: PromptInput) => ChatMessage[];

/**
 * The format half of a template: how messages become the exact string a model was trained on (special
 * tokens, role headers, the open assistant turn at the end). It adds structure only; message contents
 * pass through unchanged.
 */
export interface ChatFormat {
  readonly id: string;
  /** Strings that end the answer in this format. */
  readonly stop: readonly string[];
  /** The prompt string, ending where the assistant's answer begins. */
  format(messages: readonly ChatMessage[], input?: PromptInput): string;
}
