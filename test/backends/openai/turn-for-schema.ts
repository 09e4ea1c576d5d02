import type { JsonSchema } from '../../../src/index.js';

/** The actions a turn schema allows: from its `oneOf` branches, or a merged (strict) `action` enum. */
export function allowedActionsOf(schema: JsonSchema): string[] {
  const branches = schema.oneOf as JsonSchema[] | undefined;
  if (Array.isArray(branches)) {
    return branches.map((branch) => (branch.properties as { action: { const: string } }).action.const);
  }
  const action = (schema.properties as { action?: { enum?: string[]; const?: string } } | undefined)?.action;
  return action?.enum ?? (action?.const ? [action.const] : []);
}

function priceBounds(schema: JsonSchema): { min?: number; max?: number } {
  const branches = (schema.oneOf as JsonSchema[] | undefined) ?? [];
  for (const branch of branches) {
    const price = (branch.properties as { price: JsonSchema }).price;
    if (price.type === 'number') {
      // Open ends step in by the grid (a cent by default), as a constrained decoder's choice would.
      const step = typeof price.multipleOf === 'number' ? price.multipleOf : 0.01;
      const min =
        typeof price.minimum === 'number'
          ? price.minimum
          : typeof price.exclusiveMinimum === 'number' && price.exclusiveMinimum > 0
            ? price.exclusiveMinimum + step
            : undefined;
      const max =
        typeof price.maximum === 'number'
          ? price.maximum
          : typeof price.exclusiveMaximum === 'number'
            ? price.exclusiveMaximum - step
            : undefined;
      const onGrid = (value: number) => Math.round(value / step) * step;
      return {
        ...(min !== undefined ? { min: Number(onGrid(min).toFixed(6)) } : {}),
        ...(max !== undefined ? { max: Number(onGrid(max).toFixed(6)) } : {}),
      };
    }
  }
  return {};
}

/**
 * What a scripted model answers under a turn schema: accept when allowed (so sessions end quickly in
 * a deal), otherwise an offer inside the price bounds. Valid by construction, as a constrained
 * decoder's output would be.
 */
export function turnForSchema(schema: JsonSchema | undefined): string {
  const actions = schema ? allowedActionsOf(schema) : ['offer'];
  if (actions.includes('accept')) {
    return JSON.stringify({
      action: 'accept',
      price: null,
      message_labels: [],
      message: '',
      response_time: 1,
    });
  }
  const { min, max } = schema ? priceBounds(schema) : {};
  let price = min ?? 50;
  if (max !== undefined && price > max) price = max;
  return JSON.stringify({ action: 'offer', price, message_labels: [], message: '', response_time: 2 });
}

/** The JSON Schema inside a request body, whichever dialect put it there. */
export function schemaOfRequest(body: Record<string, unknown>): JsonSchema | undefined {
  const format = body.response_format as
    | { json_schema?: { schema?: JsonSchema }; schema?: JsonSchema }
    | undefined;
  if (format?.json_schema?.schema) return format.json_schema.schema;
  if (format?.schema) return format.schema;
  const structured = body.structured_outputs as { json?: JsonSchema } | undefined;
  if (structured?.json) return structured.json;
  if (typeof body.json_schema === 'string') return JSON.parse(body.json_schema) as JsonSchema;
  if (typeof body.json_schema === 'object' && body.json_schema !== null)
    return body.json_schema as JsonSchema;
  return undefined;
}
