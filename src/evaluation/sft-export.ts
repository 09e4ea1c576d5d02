import type { Role } from '../contract/history.js';
import type { ModelProfile, ModelProfileInput } from '../contract/model-profile.js';
import type { Turn } from '../contract/turn.js';
import type { PromptTemplate } from '../prompt/prompt-template.js';
import { renderPrompt } from '../prompt/render-prompt.js';
import type { SessionResult } from '../simulation/session-result.js';

/** One supervised example in LLaMA-Factory's sharegpt format (with a `system` column). */
export interface ShareGptExample {
  system?: string;
  conversations: [{ from: 'human'; value: string }, { from: 'gpt'; value: string }];
}

/** Options of `sftExamples`: the profile and template that render the prompts. */
export interface SftExportOptions {
  /** Profile whose template and wording render the prompts. Default: the card's 50k model. */
  profile?: ModelProfile | ModelProfileInput | string;
  template?: PromptTemplate | string;
  /** Whose turns become targets. Default both. */
  roles?: readonly Role[];
  /** Leave out turns that broke a rule (default true): a model should not learn them. */
  skipViolations?: boolean;
}

/** A turn as the model writes it: compact JSON, keys in the contract's order. */
export function turnTarget(turn: Turn): string {
  return JSON.stringify({
    action: turn.action,
    price: turn.price,
    message_labels: turn.message_labels,
    message: turn.message,
    response_time: turn.response_time,
  });
}

/**
 * Sessions as supervised fine-tuning data: one example per turn, whose prompt is exactly what the agent
 * would render before that turn (same template, wording and sanitising) and whose answer is the turn.
 * Trained with LLaMA-Factory's `qwen3_nothink` template, each example becomes the string
 * `renderPrompt(...).text + answer + '<|im_end|>\n'`.
 */
export function sftExamples(
  sessions: Iterable<SessionResult>,
  options: SftExportOptions = {},
): ShareGptExample[] {
  const roles = options.roles ?? ['buyer', 'seller'];
  const skipViolations = options.skipViolations ?? true;
  const examples: ShareGptExample[] = [];
  for (const session of sessions) {
    session.turns.forEach((entry, index) => {
      if (!roles.includes(entry.role) || (skipViolations && entry.violation)) return;
      const history = session.turns
        .slice(0, index)
        .map(({ role, turn, elapsedHours }) => ({ role, turn, elapsedHours }));
      const rendered = renderPrompt(
        {
          context: session.context,
          history,
          role: entry.role,
          ...(options.profile ? { profile: options.profile } : {}),
        },
        options.template ? { template: options.template } : {},
      );
      const system = rendered.messages.find((m) => m.role === 'system')?.content;
      const user = rendered.messages.filter((m) => m.role === 'user').map((m) => m.content);
      if (user.length !== 1) {
        throw new Error(
          `the template rendered ${user.length} user messages; sharegpt export needs exactly one`,
        );
      }
      examples.push({
        ...(system !== undefined ? { system } : {}),
        conversations: [
          { from: 'human', value: user[0] as string },
          { from: 'gpt', value: turnTarget(entry.turn) },
        ],
      });
    });
  }
  return examples;
}

/**
 * The string LLaMA-Factory's `qwen3_nothink` template trains on for a one-turn sharegpt example:
 * `format_system`, `format_user` and `format_assistant` of its registration, no default system.
 */
export function renderQwen3NoThinkTraining(example: ShareGptExample): string {
  const system =
    example.system !== undefined && example.system !== ''
      ? `<|im_start|>system\n${example.system}<|im_end|>\n`
      : '';
  const [human, gpt] = example.conversations;
  return `${system}<|im_start|>user\n${human.value}<|im_end|>\n<|im_start|>assistant\n${gpt.value}<|im_end|>\n`;
}
