import { ACTIONS } from '../contract/action.js';
import type { Guardrails } from '../contract/guardrails.js';
import type { History } from '../contract/history.js';
import type { ListingContextInput } from '../contract/listing-context.js';
import type { ModelProfile } from '../contract/model-profile.js';
import { turnJsonSchema } from '../contract/turn-json-schema.js';
import { canonicalJson } from '../internal/canonical-json.js';
import { sha256Hex } from '../internal/sha256.js';
import type { PromptTemplate } from '../prompt/prompt-template.js';
import { renderPrompt } from '../prompt/render-prompt.js';

/**
 * Hashes that say, in a run record, which prompt and which turn schema an agent used, so two runs
 * that differ only in wording or in guardrails can be told apart. `sha256:` and the first 16 hex digits
 * (64 bits) of the SHA-256: enough to tell templates apart, short enough for every session line
 * (haggle's choice).
 */

const PREFIX_DIGITS = 16;

function shortHash(text: string): string {
  return `sha256:${sha256Hex(text).slice(0, PREFIX_DIGITS)}`;
}

/**
 * A fixed negotiation every template renders for its hash. A template is code, not data, so its hash is
 * the hash of what it says: this probe's prompt for each role (messages, the exact text, the stop
 * strings). It touches every field a template is likely to print: item, profiles, offers, a message
 * with labels, a response time. A wording change anywhere in those shows up; a template that branches
 * on data the probe lacks can hide a change (haggle's choice: one probe, documented).
 */
const PROBE_CONTEXT: ListingContextInput = {
  id: 'haggle-template-probe',
  item: {
    title: 'Vintage film camera, 35 mm',
    category: 'Cameras & Photo',
    condition: 'Used',
    description: 'Tested, with strap and original box.',
  },
  listPrice: 120,
  currency: 'USD',
  seller: { feedbackScore: 512, feedbackPercent: 99.6, accountAgeDays: 2400, pastDeals: 37 },
  buyer: { feedbackScore: 14, feedbackPercent: 100, accountAgeDays: 300, pastDeals: 2 },
};

const PROBE_HISTORY: History = [
  {
    role: 'buyer',
    turn: {
      action: 'offer_with_message',
      price: 90,
      message_labels: ['build_rapport'],
      message: 'Hi! Would you take 90?',
      response_time: 1,
    },
    elapsedHours: 1,
  },
  {
    role: 'seller',
    turn: { action: 'offer', price: 110, message_labels: [], message: '', response_time: 3 },
    elapsedHours: 4,
  },
];

export function templateHash(template: PromptTemplate, profile: ModelProfile): string {
  const rendered = (['buyer', 'seller'] as const).map((role) => {
    const { messages, text, stop } = renderPrompt(
      { context: PROBE_CONTEXT, history: PROBE_HISTORY, role, profile },
      { template },
    );
    return { role, messages, text, stop };
  });
  return shortHash(canonicalJson(rendered));
}

/** The hash of the turn schemas the agent asks for: each role's, with every action allowed. */
export function turnSchemaHash(profile: ModelProfile, guardrails: Guardrails | undefined): string {
  const schemas = (['buyer', 'seller'] as const).map((role) =>
    turnJsonSchema({ profile, role, guardrails, actions: ACTIONS }),
  );
  return shortHash(canonicalJson(schemas));
}
