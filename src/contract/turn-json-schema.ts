import { ACTIONS, type Action } from './action.js';
import { InvalidInputError } from './errors.js';
import { boundsFor, type Guardrails } from './guardrails.js';
import type { Role } from './history.js';
import type { JsonSchema } from './json-schema.js';
import { gridEnds, intersectInterval, type LegalMove, type PriceInterval } from './legal-moves.js';
import { type ModelProfile, type ModelProfileInput, resolveModelProfile } from './model-profile.js';
import { fromHours, type TimeUnit } from './time-unit.js';
import {
  ACTION_SHAPES,
  MAX_LABEL_LENGTH,
  MAX_LABELS_PER_MESSAGE,
  MAX_MESSAGE_LENGTH,
  MAX_PRICE,
  maxResponseTime,
  SNAKE_CASE_PATTERN,
} from './turn-rules.js';

/** Options of `turnJsonSchema`: the profile, the side, the legal moves and the guardrails the schema encodes. */
export interface TurnJsonSchemaOptions {
  /** A profile (or built-in id) whose label vocabulary applies: known labels become an enum. */
  profile?: ModelProfile | ModelProfileInput | string;
  /** Whose turn it is; selects which side of `guardrails` applies. */
  role?: Role;
  /** Price guardrails; with `role`, the offer price gets `minimum`/`maximum`. */
  guardrails?: Guardrails;
  /** Only these actions get a branch (for example, no `accept` when no offer stands). Default: all six. */
  actions?: readonly Action[];
  /**
   * The legal moves (`Rules.legalMoves`): one branch per move, an offer's price bounded by its interval
   * and grid (`multipleOf`), `response_time` by the move's time bound. Replaces `actions` when given.
   */
  moves?: readonly LegalMove[];
  /** Unit of `response_time` (the profile's by default), to express the moves' time bounds in. */
  responseTimeUnit?: TimeUnit;
  /** Cap on message length; default and maximum `MAX_MESSAGE_LENGTH` (500, haggle's choice). */
  maxMessageLength?: number;
}

/**
 * The turn contract as a JSON Schema: one `oneOf` branch per action, properties in the model's order
 * (`action, price, message_labels, message, response_time`), every property required, no extras.
 * The constrained decoder and remote servers get this; `TurnSchema` validates the same rules.
 */
export function turnJsonSchema(options: TurnJsonSchemaOptions = {}): JsonSchema {
  const profile = resolveModelProfile(options.profile);
  const moves = movesOf(options);
  const maxMessageLength = Math.min(options.maxMessageLength ?? MAX_MESSAGE_LENGTH, MAX_MESSAGE_LENGTH);
  const unit = options.responseTimeUnit ?? profile.responseTimeUnit;

  const labelSchema: JsonSchema =
    profile.labels.kind === 'known'
      ? { type: 'string', enum: [...profile.labels.values] }
      : { type: 'string', pattern: SNAKE_CASE_PATTERN, maxLength: MAX_LABEL_LENGTH };

  const branches = moves.map((move): JsonSchema => {
    const { action } = move;
    const shape = ACTION_SHAPES[action];
    return {
      type: 'object',
      properties: {
        action: { const: action },
        price: shape.price === 'positive' ? priceSchema(move.price) : { type: 'null' },
        message_labels:
          shape.labels === 'allowed'
            ? { type: 'array', items: labelSchema, maxItems: MAX_LABELS_PER_MESSAGE, uniqueItems: true }
            : { type: 'array', maxItems: 0 },
        message:
          shape.message === 'required'
            ? { type: 'string', minLength: 1, maxLength: maxMessageLength }
            : { const: '' },
        response_time: { type: 'number', minimum: 0, maximum: responseTimeBound(move, unit) },
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

/** The moves to write branches for: the given moves, or one unbounded move per action. */
function movesOf(options: TurnJsonSchemaOptions): LegalMove[] {
  const bounds = boundsFor(options.guardrails, options.role);
  const everyPrice: PriceInterval = {
    min: 0,
    minInclusive: false,
    max: MAX_PRICE,
    maxInclusive: true,
    step: 0,
  };
  const given: LegalMove[] =
    options.moves?.map((move) => ({ ...move })) ??
    [...new Set(options.actions ?? ACTIONS)].map((action) =>
      ACTION_SHAPES[action].price === 'positive' ? { action, price: everyPrice } : { action },
    );
  // Guardrails narrow each offer's interval; an offer left with no price is no move.
  const moves = given
    .map((move) => (move.price ? { ...move, price: intersectInterval(move.price, bounds) } : move))
    .filter((move) => !move.price || hasPrice(move.price));
  if (moves.length === 0) {
    throw new InvalidInputError({
      subject: 'TurnJsonSchemaOptions',
      issues: [
        {
          path: options.moves ? 'moves' : 'actions',
          message:
            given.length === 0
              ? 'at least one action must be allowed'
              : 'no move is left: every offer interval is empty once the guardrails apply',
        },
      ],
    });
  }
  return moves;
}

function hasPrice(interval: PriceInterval): boolean {
  if (interval.step === 0) {
    return (
      interval.min < interval.max ||
      (interval.min === interval.max && interval.minInclusive && interval.maxInclusive)
    );
  }
  return gridEnds(interval) !== null;
}

/** An interval as JSON Schema: inclusive or exclusive ends, and the grid as `multipleOf` (none for 0). */
function priceSchema(interval: PriceInterval | undefined): JsonSchema {
  const schema: JsonSchema = { type: 'number' };
  if (!interval) return { ...schema, exclusiveMinimum: 0, maximum: MAX_PRICE };
  if (interval.minInclusive) schema.minimum = interval.min;
  else schema.exclusiveMinimum = interval.min;
  if (interval.maxInclusive) schema.maximum = interval.max;
  else schema.exclusiveMaximum = interval.max;
  if (interval.step > 0) schema.multipleOf = interval.step;
  return schema;
}

/**
 * A move's time bound in the turn's unit (the contract's 30 days without one), rounded down to a
 * millionth (the decoder writes at most six fraction digits, and rounding up could land a turn a hair
 * after the offer lapses).
 */
function responseTimeBound(move: LegalMove, unit: TimeUnit): number {
  const longest = maxResponseTime(unit);
  if (move.maxResponseHours === undefined) return longest;
  const inUnit = Math.floor(fromHours(move.maxResponseHours, unit) * 1e6) / 1e6;
  return Math.min(longest, inUnit);
}
