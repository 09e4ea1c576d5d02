import { ACTIONS, type Action } from './action.js';
import { InvalidInputError } from './errors.js';
import { boundsFor, type Guardrails } from './guardrails.js';
import type { Role } from './history.js';
import type { JsonSchema } from './json-schema.js';
import { type ModelProfile, type ModelProfileInput, resolveModelProfile } from './model-profile.js';
import {
  ACTION_SHAPES,
  MAX_LABELS_PER_MESSAGE,
  MAX_MESSAGE_LENGTH,
  MAX_RESPONSE_TIME,
  SNAKE_CASE_PATTERN,
} from './turn-rules.js';

export interface TurnJsonSchemaOptions {
  /** A profile (or built-in id) whose label vocabulary applies: known labels become an enum. */
  profile?: ModelProfile | ModelProfileInput | string;
  /** Whose turn it is; selects which side of `guardrails` applies. */
  role?: Role;
  /** Price guardrails; with `role`, the offer price gets `minimum`/`maximum`. */
  guardrails?: Guardrails;
  /** Only these actions get a branch (for example, no `accept` when no offer stands). Default: all six. */
  actions?: readonly Action[];
  /** Cap on message length; default and maximum `MAX_MESSAGE_LENGTH`. */
  maxMessageLength?: number;
}

/**
 * The turn contract as a JSON Schema: one `oneOf` branch per action, properties in the model's order
 * (`action, price, message_labels, message, response_time`), every property required, no extras.
 * The constrained decoder and remote servers get this; `TurnSchema` validates the same rules.
 */
export function turnJsonSchema(options: TurnJsonSchemaOptions = {}): JsonSchema {
  const profile = resolveModelProfile(options.profile);
  const actions = options.actions ?? ACTIONS;
  if (actions.length === 0) {
    throw new InvalidInputError('TurnJsonSchemaOptions', [
      { path: 'actions', message: 'at least one action must be allowed' },
    ]);
  }
  const maxMessageLength = Math.min(options.maxMessageLength ?? MAX_MESSAGE_LENGTH, MAX_MESSAGE_LENGTH);
  const bounds = boundsFor(options.guardrails, options.role);

  const priceSchema: JsonSchema = { type: 'number', exclusiveMinimum: 0 };
  if (bounds.minPrice !== undefined && bounds.minPrice > 0) {
    delete priceSchema.exclusiveMinimum;
    priceSchema.minimum = bounds.minPrice;
  }
  if (bounds.maxPrice !== undefined) priceSchema.maximum = bounds.maxPrice;

  const labelSchema: JsonSchema =
    profile.labels.kind === 'known'
      ? { type: 'string', enum: [...profile.labels.values] }
      : { type: 'string', pattern: SNAKE_CASE_PATTERN };

  const branches = [...new Set(actions)].map((action): JsonSchema => {
    const shape = ACTION_SHAPES[action];
    return {
      type: 'object',
      properties: {
        action: { const: action },
        price: shape.price === 'positive' ? priceSchema : { type: 'null' },
        message_labels:
          shape.labels === 'allowed'
            ? { type: 'array', items: labelSchema, maxItems: MAX_LABELS_PER_MESSAGE, uniqueItems: true }
            : { type: 'array', maxItems: 0 },
        message:
          shape.message === 'required'
            ? { type: 'string', minLength: 1, maxLength: maxMessageLength }
            : { const: '' },
        response_time: { type: 'number', minimum: 0, maximum: MAX_RESPONSE_TIME },
      },
      required: ['action', 'price', 'message_labels', 'message', 'response_time'],
      additionalProperties: false,
    };
  });

  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Turn',
    description: "One participant's next turn in a Best Offer negotiation.",
    oneOf: branches,
  };
}
