/**
 * The Node-only pieces of the main entry's layers: `OpenAICompatibleBackend` posting through `node:http`,
 * `simulate` that writes and resumes its `out` file, run files, and tokenizers and templates loaded from
 * a model folder. Under Node, `haggle` already holds all of them; import them from here in other
 * runtimes that have Node's modules (Deno, Bun), or to say in an import that code is Node-only.
 * @packageDocumentation
 * @module haggle/node
 */
export { OpenAICompatibleBackend } from '../backends/openai/node-backend.js';
export { templateFromModelFolder } from '../prompt/model-folder-template.js';
export { loadTokenizer } from '../prompt/tokenizer.js';
export { mergeRuns } from '../simulation/merge-runs.js';
export { simulate } from '../simulation/node-simulate.js';
export { loadSessions, readRunFile } from '../simulation/run-file.js';
