import type { BackendWarning } from '../backends/language-backend.js';

/**
 * Request settings the agent sets on every call itself, whatever the user chose: `stop`, the
 * template's end-of-turn strings. A backend that cannot honour them loses the user nothing (the ONNX
 * backend ignores `stop` under a JSON schema because the grammar ends the text where the turn's JSON
 * ends; a backend that ran on past it would fail validation, be asked again, and show its raw text in
 * the error), so a warning about them would name an option the user never passed. The agent's turn
 * schema (`responseFormat`) is not in this list: a backend that cannot enforce it changes how often
 * turns are asked again, which the user needs to know.
 */
const AGENT_OWN_SETTINGS: ReadonlySet<string> = new Set(['stop']);

/** Whether a backend's warning is about something the user chose (and so belongs in `agent.warnings`). */
export function concernsUserChoice(warning: BackendWarning): boolean {
  return !(warning.type === 'unsupported-setting' && AGENT_OWN_SETTINGS.has(warning.setting));
}
