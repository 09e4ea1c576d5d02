import type { GenerateOptions } from '../../src/backends/language-backend.js';
import type { JsonSchema } from '../../src/contract/json-schema.js';

/** The JSON Schema the agent sent with a backend call. */
export function schemaOf(call: GenerateOptions | undefined): JsonSchema {
  const format = call?.responseFormat;
  if (format?.type !== 'json') throw new Error('the call carried no JSON response format');
  return format.schema;
}

/** The actions a turn schema offers the model, one per `oneOf` branch. */
export function schemaActions(call: GenerateOptions | undefined): string[] {
  const branches = schemaOf(call).oneOf as JsonSchema[];
  return branches.map((branch) => {
    const properties = branch.properties as Record<string, JsonSchema>;
    return properties.action?.const as string;
  });
}

/** The price sub-schema of one action's branch. */
export function priceSchemaOf(call: GenerateOptions | undefined, action: string): JsonSchema | undefined {
  const branches = schemaOf(call).oneOf as JsonSchema[];
  const branch = branches.find((b) => (b.properties as Record<string, JsonSchema>).action?.const === action);
  return (branch?.properties as Record<string, JsonSchema> | undefined)?.price;
}
