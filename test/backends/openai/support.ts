import type { GenerateOptions } from '../../../src/index.js';
import { turnJsonSchema } from '../../../src/index.js';

export const API_KEY = 'sk-test-0123456789-SECRET';

/** A generate call as the agent makes it: messages, the template string, the turn schema. */
export function turnRequest(overrides: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    prompt: {
      messages: [
        { role: 'system', content: 'You negotiate.' },
        { role: 'user', content: 'Your turn as the seller.' },
      ],
      text: '<|im_start|>system\nYou negotiate.<|im_end|>\n<|im_start|>user\nYour turn as the seller.<|im_end|>\n<|im_start|>assistant\n',
    },
    responseFormat: { type: 'json', name: 'turn', schema: turnJsonSchema({ role: 'seller' }) },
    temperature: 1,
    ...overrides,
  };
}

/** Fast retries for tests: no backoff worth waiting for, jitter fixed. */
export const FAST = {
  retry: { initialDelayMs: 1, maxDelayMs: 2 },
  random: () => 0.5,
} as const;
