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

/** The turns bench/decoder.ts walks through both turn schemas (and jump-forward decodes). */
export const BENCH_TURN_TEXTS = [
  '{"action":"offer_with_message","price":45.0,"message_labels":["build_rapport","invoke_compromise"],"message":"Hi, I\'ve been looking for this exact item for weeks. Would you take 45? I can pay right away.","response_time":3}',
  '{"action":"offer","price":52.5,"message_labels":[],"message":"","response_time":1}',
  '{"action":"accept","price":null,"message_labels":[],"message":"","response_time":0.5}',
  '{"action":"message_only","price":null,"message_labels":["request_information"],"message":"Is the battery original? Any scratches on the screen?","response_time":12}',
  '{"action":"offer_with_message","price":61.25,"message_labels":["justify_with_market_data"],"message":"Similar ones sold for around 60 last month, so 61.25 feels fair to me.","response_time":6}',
  '{"action":"decline","price":null,"message_labels":[],"message":"","response_time":24}',
  '{"action":"offer_with_message","price":48,"message_labels":["declare_cost_limit_seller_firm"],"message":"48 is the lowest I can go, I paid more than that myself.","response_time":2}',
  '{"action":"no_response","price":null,"message_labels":[],"message":"","response_time":48}',
];

/** The documents each row of the decoder bench walks, by row name (as `benchDecoderSchemas`). */
export function benchDecoderTexts(): Record<string, readonly string[]> {
  return {
    turn: BENCH_TURN_TEXTS,
    'turn (known labels)': BENCH_TURN_TEXTS,
    'offer: laptop': [
      '{"price":899.99,"warranty_months":12,"shipping":"express","accessories":["charger","sleeve"]}',
      '{"price":1250,"warranty_months":24,"shipping":"pickup","accessories":[]}',
      '{"price":640.5,"warranty_months":6,"shipping":"standard","accessories":["mouse","dock","charger"]}',
    ],
    'offer: car': [
      '{"price":23450,"delivery_days":14,"financing":"loan_60","trade_in":true,"mileage_cap":15000}',
      '{"price":18999.5,"delivery_days":3,"financing":"cash","trade_in":false,"mileage_cap":10000}',
      '{"price":41000,"delivery_days":45,"financing":"lease","trade_in":false,"mileage_cap":25000}',
    ],
    'offer: contract': [
      '{"price":12500,"deadline_days":30,"revisions":2,"payment_terms":"milestones","milestones":[{"name":"design","share":0.3},{"name":"build","share":0.5},{"name":"launch","share":0.2}]}',
      '{"price":800,"deadline_days":7,"revisions":1,"payment_terms":"upfront","milestones":[]}',
      '{"price":4999.99,"deadline_days":60,"revisions":5,"payment_terms":"net_30","milestones":[{"name":"test","share":1}]}',
    ],
  };
}
