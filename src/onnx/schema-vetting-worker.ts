/**
 * The worker thread that compiles a client's JSON Schema before the model's worker does
 * (`OnnxLoadOptions.untrustedSchemas`, see schema-vetter.ts). It holds no model and no tokenizer:
 * the schema compiler's work (references, sizes, the grammar graph, patterns, enums) does not depend
 * on the vocabulary, and that work is where a hostile schema can run away. Here a runaway costs this
 * thread, which its owner ends at the budget or which its heap limit ends, never the model.
 */
import { parentPort } from 'node:worker_threads';
import { SchemaCompiler } from '../decoding/compiler/schema-compiler.js';
import { UnsupportedSchemaError } from '../decoding/errors.js';
import type { FromVettingWorker, ToVettingWorker } from './vetting-protocol.js';
import { serializeError } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('schema-vetting-worker must run in a worker thread');

port.on('message', (message: ToVettingWorker) => {
  const started = performance.now();
  let reply: FromVettingWorker;
  try {
    new SchemaCompiler(message.schema, { timeBudgetMs: message.budgetMs }).compileDocument();
    reply = { type: 'vetted', id: message.id, ms: performance.now() - started };
  } catch (error) {
    // As in the model's worker: a schema nested deeper than the stack is refused, not crashed on.
    const refused =
      error instanceof RangeError && /call stack/i.test(error.message)
        ? new UnsupportedSchemaError({
            keyword: '(nesting)',
            schemaPath: '#',
            detail: 'the schema is nested too deeply to compile',
          })
        : error;
    reply = { type: 'refused', id: message.id, error: serializeError(refused) };
  }
  port.postMessage(reply);
});
