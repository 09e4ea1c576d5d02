import { HaggleError } from '../contract/errors.js';

/**
 * A model folder cannot be used: a file is missing, is not JSON, or describes something this SDK cannot
 * read. `path` is the file at fault, so the message can say exactly what to fix.
 */
export class ModelFolderError extends HaggleError {
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super('model-folder', message, options);
    this.name = 'ModelFolderError';
    this.path = path;
  }
}

/** A template id is unknown, taken, or a template cannot be built or rendered. */
export class PromptTemplateError extends HaggleError {
  /** The template id concerned. */
  readonly templateId: string;

  constructor(templateId: string, message: string, options?: { cause?: unknown }) {
    super('prompt-template', message, options);
    this.name = 'PromptTemplateError';
    this.templateId = templateId;
  }
}

/**
 * Even the shortest prompt the budget policy allows (the listing, the first offer and the latest turn)
 * has more tokens than the budget.
 */
export class PromptTooLongError extends HaggleError {
  /** Tokens of the shortest prompt the policy could build. */
  readonly tokens: number;
  /** The budget it had to fit. */
  readonly budget: number;

  constructor(args: { tokens: number; budget: number; templateId: string }) {
    super(
      'prompt-too-long',
      `The prompt needs at least ${args.tokens} tokens with template "${args.templateId}" (the listing, the first offer and the latest turn), but the budget is ${args.budget}. ` +
        'Shorten the listing description, raise maxPromptTokens, or use a model with a longer context.',
    );
    this.name = 'PromptTooLongError';
    this.tokens = args.tokens;
    this.budget = args.budget;
  }
}

/**
 * A rendered prompt would give the model a control token inside a message: a template placed untrusted
 * text without `sanitizeUntrustedText`, or wrote a special token into a message itself.
 */
export class UnsafePromptError extends HaggleError {
  /** The message at fault (an index into `messages`). */
  readonly messageIndex: number;
  /** The special tokens found in it. */
  readonly tokens: string[];

  constructor(args: { messageIndex: number; tokens: string[]; templateId: string }) {
    super(
      'unsafe-prompt',
      `Message ${args.messageIndex} of template "${args.templateId}" encodes to special token(s) ${args.tokens.map((t) => JSON.stringify(t)).join(', ')}. ` +
        'Pass every untrusted text through sanitizeUntrustedText, and let the chat format, not the message text, add control tokens.',
    );
    this.name = 'UnsafePromptError';
    this.messageIndex = args.messageIndex;
    this.tokens = args.tokens;
  }
}
