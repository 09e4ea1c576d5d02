import type { JsonSchema } from '../contract/json-schema.js';

/**
 * What `GET /schema` answers (OpenEnv's `SchemaResponse`): the JSON Schemas of an action, an
 * observation and a state of haggle's environments. The turn's own schema, which differs per scenario
 * and turn, is in every observation's `schema`.
 */
export const ENVIRONMENT_WIRE_SCHEMAS: { action: JsonSchema; observation: JsonSchema; state: JsonSchema } = {
  action: {
    type: 'object',
    title: 'NegotiationAction',
    description: "The trained model's raw output for its turn, parsed and validated by the environment.",
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  observation: {
    type: 'object',
    title: 'NegotiationObservation',
    properties: {
      messages: {
        type: 'array',
        items: {
          type: 'object',
          properties: { role: { type: 'string' }, content: { type: 'string' } },
          required: ['role', 'content'],
        },
      },
      prompt: { type: 'string' },
      template: { type: 'string' },
      legal_moves: {
        type: 'array',
        items: { type: 'object', properties: { action: { type: 'string' }, price: { type: 'object' } } },
      },
      schema: { type: ['object', 'null'] },
      role: { enum: ['buyer', 'seller'] },
      turn: { type: 'integer', minimum: 0 },
      info: { type: 'object' },
    },
    required: ['messages', 'prompt', 'legal_moves', 'schema', 'role', 'turn', 'info'],
  },
  state: {
    type: 'object',
    title: 'NegotiationState',
    properties: {
      episode_id: { type: ['string', 'null'] },
      step_count: { type: 'integer', minimum: 0 },
      env: { type: 'string' },
      seed: { type: ['integer', 'null'] },
      done: { type: 'boolean' },
      reward: { type: ['number', 'null'] },
      scenario_id: { type: 'string' },
      opponent: { type: 'string' },
      role: { enum: ['buyer', 'seller'] },
      raw_texts: { type: 'array', items: { type: 'string' } },
    },
    required: ['episode_id', 'step_count'],
  },
};
