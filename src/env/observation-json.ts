import type { JsonSchema } from '../contract/json-schema.js';
import type { EnvironmentStepResult } from './environment.js';

// A turn's JSON Schema is a quarter of an observation's bytes and the same object for every turn with the
// same legal moves (the environments reuse it, frozen), so the server writes its JSON once per schema
// object rather than once per step (bench/env.ts: per-step JSON encoding was the server's largest cost
// after the environment itself).
const schemaJson = new WeakMap<object, string>();

function jsonOfSchema(schema: JsonSchema): string {
  let json = schemaJson.get(schema);
  if (json === undefined) {
    json = JSON.stringify(schema);
    // Only a frozen schema is known not to change under its cached JSON.
    if (Object.isFrozen(schema)) schemaJson.set(schema, json);
  }
  return json;
}

/**
 * Which observation fields the server sends. `full` (the default): every field of
 * `EnvironmentObservation`. `minimal` (haggle's choice, opt-in with `--observation minimal`): without
 * `prompt` and `template`, which are `messages` rendered with a chat template, so a trainer that applies
 * its own tokenizer's template does not pay for the conversation twice (about a third of each answer).
 */
export type ObservationFields = 'full' | 'minimal';

/** The observation fields an `ObservationFields` choice of `minimal` leaves out. */
export const MINIMAL_OBSERVATION_OMITS = ['prompt', 'template'] as const;

/**
 * OpenEnv's answer to `reset` and `step`, `{"type":"observation","data":{observation, reward, done}}`, as
 * text; the same JSON as `JSON.stringify` would write, with the observation's `schema` key last.
 */
export function observationMessageJson(
  result: EnvironmentStepResult,
  fields: ObservationFields = 'full',
): string {
  const { schema, ...all } = result.observation;
  let rest: Record<string, unknown> = all;
  if (fields === 'minimal') {
    const { prompt: _prompt, template: _template, ...kept } = all;
    rest = kept;
  }
  const restJson = JSON.stringify(rest);
  const schemaText = schema === null || schema === undefined ? 'null' : jsonOfSchema(schema);
  const observation =
    restJson === '{}' ? `{"schema":${schemaText}}` : `${restJson.slice(0, -1)},"schema":${schemaText}}`;
  return `{"type":"observation","data":{"observation":${observation},"reward":${JSON.stringify(result.reward)},"done":${result.done === true}}}`;
}

/** Freezes a schema and everything in it, so it can be shared between observations and its JSON cached. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
