import { turnJsonSchema } from '../../src/contract/index.js';

// The schemas bench/decoder.ts measures, shared with the tests that decode under them
// (test/ai-sdk: generateObject through createHaggle on every one of them).

/** A multi-issue offer for a laptop: bounded numbers, an enum, a unique-item array. */
export const offerLaptop = {
  type: 'object',
  properties: {
    price: { type: 'number', minimum: 200, maximum: 2000 },
    warranty_months: { type: 'integer', minimum: 0, maximum: 36 },
    shipping: { enum: ['standard', 'express', 'pickup'] },
    accessories: {
      type: 'array',
      items: { enum: ['charger', 'sleeve', 'mouse', 'dock'] },
      uniqueItems: true,
      maxItems: 3,
    },
  },
  required: ['price', 'warranty_months', 'shipping', 'accessories'],
  additionalProperties: false,
};
/** A multi-issue offer for a car: bounded numbers, an enum, a boolean. */
export const offerCar = {
  type: 'object',
  properties: {
    price: { type: 'number', minimum: 1000, maximum: 80000 },
    delivery_days: { type: 'integer', minimum: 1, maximum: 60 },
    financing: { enum: ['cash', 'loan_36', 'loan_60', 'lease'] },
    trade_in: { type: 'boolean' },
    mileage_cap: { type: 'integer', minimum: 5000, maximum: 30000 },
  },
  required: ['price', 'delivery_days', 'financing', 'trade_in', 'mileage_cap'],
  additionalProperties: false,
};
/** A service contract: an array of objects with bounded shares. */
export const offerContract = {
  type: 'object',
  properties: {
    price: { type: 'number', exclusiveMinimum: 0, maximum: 50000 },
    deadline_days: { type: 'integer', minimum: 1, maximum: 90 },
    revisions: { type: 'integer', minimum: 0, maximum: 5 },
    payment_terms: { enum: ['upfront', 'net_15', 'net_30', 'milestones'] },
    milestones: {
      type: 'array',
      maxItems: 4,
      items: {
        type: 'object',
        properties: {
          name: { enum: ['design', 'build', 'test', 'launch'] },
          share: { type: 'number', minimum: 0, maximum: 1 },
        },
        required: ['name', 'share'],
        additionalProperties: false,
      },
    },
  },
  required: ['price', 'deadline_days', 'revisions', 'payment_terms', 'milestones'],
  additionalProperties: false,
};

/** The turn schema with its two label policies, as bench/decoder.ts builds them. */
export function benchTurnSchemas(): { turn: object; turnKnownLabels: object } {
  return {
    turn: turnJsonSchema({ role: 'seller', guardrails: { seller: { minPrice: 40 } } }),
    turnKnownLabels: turnJsonSchema({
      role: 'seller',
      guardrails: { seller: { minPrice: 40 } },
      profile: {
        id: 'bench',
        labels: {
          kind: 'known',
          values: [
            'build_rapport',
            'invoke_compromise',
            'request_information',
            'justify_with_market_data',
            'declare_cost_limit_seller_firm',
          ],
        },
        responseTimeUnit: 'hours',
        template: 'qwen3_nothink',
        sampling: { temperature: 1 },
      },
    }),
  };
}

/** Every schema of the decoder bench, by the row name it has there. */
export function benchDecoderSchemas(): Record<string, object> {
  const { turn, turnKnownLabels } = benchTurnSchemas();
  return {
    turn,
    'turn (known labels)': turnKnownLabels,
    'offer: laptop': offerLaptop,
    'offer: car': offerCar,
    'offer: contract': offerContract,
  };
}
