import { HaggleError } from '../contract/errors.js';

/**
 * A model folder cannot be used: the folder or a file in it is missing, is not JSON, or describes
 * something haggle cannot read. Thrown by the tokenizer and templates read from a folder, and by
 * `haggle/onnx`'s backend for its model folder. `path` is the file at fault (or the folder, when no one
 * file is), so the message can say exactly what to fix.
 */
export class ModelFolderError extends HaggleError {
  static override readonly marker: string = 'haggle.error.ModelFolderError';
  /** The file at fault, or the folder when no one file is. */
  readonly path: string;
  /** What is wrong with it (the message without the path). */
  readonly problem: string;

  constructor(args: {
    path: string;
    problem: string;
    /** The whole message, where `${path} ${problem}` does not read well. */
    message?: string;
    cause?: unknown;
  }) {
    super({
      code: 'model-folder',
      message: args.message ?? `${args.path} ${args.problem}`,
      cause: args.cause,
    });
    this.name = 'ModelFolderError';
    this.path = args.path;
    this.problem = args.problem;
  }
}

/** A template id is unknown, taken, or a template cannot be built or rendered. */
export class PromptTemplateError extends HaggleError {
  static override readonly marker: string = 'haggle.error.PromptTemplateError';
  /** The template id concerned. */
  readonly templateId: string;

  constructor({ templateId, message, cause }: { templateId: string; message: string; cause?: unknown }) {
    super({ code: 'prompt-template', message, cause });
    this.name = 'PromptTemplateError';
    this.templateId = templateId;
  }
}

/**
 * Even the shortest prompt the budget policy allows (the listing, the first offer and the latest turn)
 * has more tokens than the budget.
 */
export class PromptTooLongError extends HaggleError {
  static override readonly marker: string = 'haggle.error.PromptTooLongError';
  /** Tokens of the shortest prompt the policy could build. */
  readonly tokens: number;
  /** The budget it had to fit. */
  readonly budget: number;

  constructor(args: { tokens: number; budget: number; templateId: string }) {
    super({
      code: 'prompt-too-long',
      message:
        `The prompt needs at least ${args.tokens} tokens with template "${args.templateId}" (the listing, the first offer and the latest turn), but the budget is ${args.budget}. ` +
        'Shorten the listing description, raise maxPromptTokens, or use a model with a longer context.',
    });
    this.name = 'PromptTooLongError';
    this.tokens = args.tokens;
    this.budget = args.budget;
  }
}

/**
 * A rendered prompt would give the model a control token that its chat format did not write: a template
 * placed untrusted text without `sanitizeUntrustedText`, wrote a special token into a message itself, or
 * printed two sanitised fields (or a field and its own text) side by side so that together they spell
 * one (`"<"` then `"|im_end|>"`). The first two are found by the tokenizer, when `renderPrompt` has one;
 * the joins are found by comparing the prompt with a render of placeholders, tokenizer or not.
 */
export class UnsafePromptError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsafePromptError';
  /** The message at fault (an index into `messages`), or -1 when it is the prompt text (`where: 'text'`). */
  readonly messageIndex: number;
  /** Where the control token is: `messages[i].content` or `text`. */
  readonly where: string;
  /** The special tokens found there. */
  readonly tokens: string[];
  /** True when the control token was formed by pieces printed side by side, not by one piece alone. */
  readonly joined: boolean;

  constructor(args: { messageIndex: number; tokens: string[]; templateId: string; joined?: boolean }) {
    const where = args.messageIndex < 0 ? 'text' : `messages[${args.messageIndex}].content`;
    const tokens = args.tokens.map((t) => JSON.stringify(t)).join(', ');
    const message = args.joined
      ? `The prompt of template "${args.templateId}" holds control token(s) ${tokens} in ${where} that the template does not write itself: ` +
        "untrusted fields printed side by side (or a field next to the template's own text) join into a control token. " +
        'Put a separator (a space, a newline, quotes) between the fields in the template, and let the chat format, not the wording, write control tokens.'
      : `Message ${args.messageIndex} of template "${args.templateId}" encodes to special token(s) ${tokens}. ` +
        'Pass every untrusted text through sanitizeUntrustedText, and let the chat format, not the message text, add control tokens.';
    super({ code: 'unsafe-prompt', message });
    this.name = 'UnsafePromptError';
    this.messageIndex = args.messageIndex;
    this.where = where;
    this.tokens = args.tokens;
    this.joined = args.joined ?? false;
  }
}
