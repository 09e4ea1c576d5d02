import * as z from 'zod';
import type { JsonSchema } from '../contract/json-schema.js';
import { HttpError } from './errors.js';

/** OpenAI's rule for function names: letters, digits, `_` and `-`, at most 64. */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export const ToolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().regex(FUNCTION_NAME, 'must be 1 to 64 letters, digits, _ or -'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    // haggle's decoder always holds the arguments to the parameters, so `false` gets more than it asks.
    strict: z.boolean().nullish(),
  }),
});

export const ToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string() }) }),
]);

type Tool = z.output<typeof ToolSchema>;
type ToolChoice = z.output<typeof ToolChoiceSchema>;

/**
 * How a chat request's tools are answered: one named function whose arguments are decoded under its
 * parameters (`one`), or, for `tool_choice: "required"` over several tools, one JSON object
 * `{"name", "arguments"}` decoded under an anyOf of the tools (`any`), from which the call is read.
 */
export type ToolCallPlan =
  | { kind: 'one'; name: string; schema: JsonSchema }
  | { kind: 'any'; names: readonly string[]; schema: JsonSchema };

/** The fields of a chat request this plan reads. */
export interface ToolFields {
  tools?: readonly Tool[] | null | undefined;
  tool_choice?: ToolChoice | null | undefined;
  /** True when the request also asks for structured output some other way (response_format, ...). */
  hasResponseFormat: boolean;
}

/**
 * A function declared without `parameters` takes none (OpenAI's rule): its arguments are `{}`.
 */
const NO_PARAMETERS: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * The tool call a request asks for, undefined when it asks for text (no tools, or `tool_choice:
 * "none"`, which tells the model not to call one: the tools are then rightly left unused). Throws a 400
 * naming the field for what haggle does not decode:
 * - `tool_choice: "auto"`, the default when tools are given: haggle's choice is to refuse it, because
 *   letting the model choose between text and a call would need one grammar over both, and a
 *   negotiation client always knows which it wants;
 * - `"required"` over several tools whose parameters use `$ref` (their references would not resolve
 *   inside the combined schema): name the tool instead;
 * - a tool call together with `response_format`: the call's arguments follow its parameters.
 */
export function toolCallPlan(fields: ToolFields): ToolCallPlan | undefined {
  const tools = fields.tools ?? [];
  const choice = fields.tool_choice ?? (tools.length > 0 ? 'auto' : 'none');
  if (tools.length === 0) {
    if (choice === 'none') return undefined;
    throw new HttpError({
      status: 400,
      message: 'Invalid request: tool_choice: needs tools; declare the function in tools',
      errorCode: 'invalid_request',
      param: 'tool_choice',
    });
  }
  if (choice === 'none') return undefined;
  if (choice === 'auto')
    throw new HttpError({
      status: 400,
      message:
        'Invalid request: tool_choice: "auto" (the default when tools are given) is not supported by ' +
        'haggle serve, whose model does not choose between text and a call; send tool_choice ' +
        '{"type":"function","function":{"name":"..."}} or "required" to get a call, or "none" for text',
      errorCode: 'unsupported_parameter',
      param: 'tool_choice',
    });
  const names = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (names.has(tool.function.name))
      throw new HttpError({
        status: 400,
        message: `Invalid request: tools[${index}].function.name: "${tool.function.name}" is declared twice`,
        errorCode: 'invalid_request',
        param: `tools[${index}].function.name`,
      });
    names.add(tool.function.name);
  }
  if (fields.hasResponseFormat)
    throw new HttpError({
      status: 400,
      message:
        'Invalid request: response_format: cannot be combined with a tool call, whose arguments follow ' +
        "the tool's parameters; send one or the other",
      errorCode: 'invalid_request',
      param: 'response_format',
    });
  if (typeof choice === 'object') {
    const tool = tools.find((candidate) => candidate.function.name === choice.function.name);
    if (!tool)
      throw new HttpError({
        status: 400,
        message: `Invalid request: tool_choice.function.name: "${choice.function.name}" is not one of the tools (${[...names].join(', ')})`,
        errorCode: 'invalid_request',
        param: 'tool_choice.function.name',
      });
    return oneTool(tool);
  }
  const [only] = tools;
  if (tools.length === 1 && only) return oneTool(only);
  const refIndex = tools.findIndex((tool) =>
    JSON.stringify(tool.function.parameters ?? {}).includes('"$ref"'),
  );
  if (refIndex >= 0)
    throw new HttpError({
      status: 400,
      message:
        `Invalid request: tools[${refIndex}].function.parameters: uses $ref, which haggle serve cannot ` +
        'combine with other tools under tool_choice "required"; name the tool in tool_choice instead',
      errorCode: 'unsupported_parameter',
      param: `tools[${refIndex}].function.parameters`,
    });
  return {
    kind: 'any',
    names: [...names],
    schema: {
      anyOf: tools.map((tool) => ({
        type: 'object',
        properties: { name: { const: tool.function.name }, arguments: parametersOf(tool) },
        required: ['name', 'arguments'],
        additionalProperties: false,
      })),
    } as JsonSchema,
  };
}

function oneTool(tool: Tool): ToolCallPlan {
  return { kind: 'one', name: tool.function.name, schema: parametersOf(tool) };
}

function parametersOf(tool: Tool): JsonSchema {
  return (tool.function.parameters as JsonSchema | undefined) ?? NO_PARAMETERS;
}
