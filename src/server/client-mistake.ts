import { HaggleError } from '../contract/errors.js';
import { HttpError } from './errors.js';

/**
 * Backend errors that are the request's fault, answered 4xx so that clients do not retry them
 * (OpenAI clients, haggle's included, retry every 5xx): invalid input, a response_format schema the
 * decoder cannot enforce, no value satisfies or is past the compiler's bounds, a prompt over the model's context (OpenAI's own code,
 * `context_length_exceeded`, which clients recognise). Undefined for anything else. A schema's failure
 * names `schemaParam`, the field the schema came in: `response_format`, or `tools` for a tool call.
 */
export function clientMistake(error: HaggleError, schemaParam = 'response_format'): HttpError | undefined {
  switch (error.code) {
    case 'invalid-input':
      return new HttpError({ status: 400, message: error.message, errorCode: error.code });
    case 'unsupported-schema':
    case 'unsatisfiable-schema':
    case 'schema-limit': // too deep, too large or too slow to compile: the same schema fails again
      return new HttpError({
        status: 400,
        message: error.message,
        errorCode: error.code,
        param: schemaParam,
      });
    case 'context-length-exceeded':
      return new HttpError({ status: 400, message: error.message, errorCode: 'context_length_exceeded' });
    default:
      return undefined;
  }
}

/** A tool call's failure as the client sees it: a schema haggle cannot decode names `tools`. */
export function asToolsMistake(error: unknown): unknown {
  if (!HaggleError.isInstance(error)) return error;
  return clientMistake(error, 'tools') ?? error;
}
