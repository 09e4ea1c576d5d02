import { isProviderName, PROVIDER_NAMES, type ProviderModelSpec } from '../ai-sdk/provider-packages.js';
import { PARTICIPANT_NAME } from '../evaluation/experiment-schema.js';
import {
  isMultiIssueBaselineName,
  MULTI_ISSUE_BASELINE_NAMES,
  type MultiIssueBaselineName,
} from '../multi-issue/multi-issue-baseline-registry.js';
import { CliUsageError } from './errors.js';
import { commaList } from './options.js';

/**
 * `--arm` / `--opponent` values of `haggle evaluate`:
 *   utility-boulware                       a baseline under its own name
 *   tough=utility-boulware                 a baseline under another name
 *   grpo=openai:MODEL@URL                  an LLM behind an OpenAI-compatible server (vLLM, SGLang,
 *   grpo=openai:MODEL@URL1,URL2            llama.cpp, haggle serve, a hosted API); several URLs are
 *                                          replicas of the same model
 *   buyer=anthropic:MODEL                  a hosted model through its AI SDK provider package
 *   buyer=openai-compatible:MODEL@URL      (@ai-sdk/anthropic, ...); the key is the package's own variable
 * `openai:` is the `--backend openai` of the other commands, with its defaults (dialect vllm, key from
 * $HAGGLE_API_KEY or $OPENAI_API_KEY); the OpenAI API itself through `@ai-sdk/openai` is an experiment
 * file's `"provider": "openai"`. Anything more (dialect, sampling, labels) goes in an experiment file.
 */
export type ParticipantShorthand =
  | { name: string; baseline: MultiIssueBaselineName }
  | { name: string; llm: { model: string; baseURLs: string[] } }
  | { name: string; provider: ProviderModelSpec };

const EXAMPLE = 'grpo=openai:qwen3-4b-grpo@http://127.0.0.1:8000/v1';
const SPELLING = `NAME=openai:MODEL@URL (e.g. ${EXAMPLE}; URL1,URL2 for replicas), NAME=PROVIDER:MODEL (e.g. buyer=anthropic:claude-sonnet-4-5) or a baseline (${MULTI_ISSUE_BASELINE_NAMES.join(', ')})`;

/** Parses one `--arm`/`--opponent` value; a bad spelling fails with the right one. */
export function parseParticipantShorthand(
  option: '--arm' | '--opponent',
  value: string,
): ParticipantShorthand {
  // The value may hold a URL: messages quote only the part before `@` (the name and model).
  const shown = value.split('@')[0] ?? '';
  const fail = (why: string): never => {
    throw new CliUsageError(
      `${option} ${shown}${value.includes('@') ? '@...' : ''}: ${why}; write ${SPELLING}`,
    );
  };
  const equals = value.indexOf('=');
  if (equals < 0) {
    if (isMultiIssueBaselineName(value)) return { name: value, baseline: value };
    if (value.startsWith('openai:')) fail('an LLM needs a name');
    return fail('unknown');
  }
  const name = value.slice(0, equals);
  const spec = value.slice(equals + 1);
  if (!PARTICIPANT_NAME.test(name))
    fail(`the name "${name}" is not one: 1-64 letters, digits, ".", "_", "/" or "-"`);
  if (isMultiIssueBaselineName(spec)) return { name, baseline: spec };
  const colon = spec.indexOf(':');
  if (colon < 0) return fail(`"${spec.split('@')[0]}" is neither a baseline nor openai:MODEL@URL`);
  const scheme = spec.slice(0, colon);
  const rest = spec.slice(colon + 1);
  if (scheme !== 'openai' && isProviderName(scheme)) return providerShorthand(name, scheme, rest, fail);
  if (scheme !== 'openai')
    fail(
      `"${scheme}:" is not a backend here; an OpenAI-compatible server (vLLM, SGLang, llama.cpp, haggle serve) is "openai:", a provider one of ${PROVIDER_NAMES.filter((p) => p !== 'openai').join(', ')}`,
    );
  // The model ends where the first URL starts: a URL may hold `@` itself (user@host), a model name may not.
  const at = rest.search(/@https?:\/\//i);
  if (at < 0) return fail(rest.includes('@') ? 'the URL must start with http:// or https://' : 'no @URL');
  const model = rest.slice(0, at);
  if (model === '') fail('no MODEL before @');
  const baseURLs = commaList(rest.slice(at + 1));
  for (const url of baseURLs) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return fail('a URL is not valid');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      fail('the URL must start with http:// or https://');
    if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '')
      fail('a URL holds a user:password or a query: keep secrets out of arguments, in $HAGGLE_API_KEY');
  }
  return { name, llm: { model, baseURLs } };
}

/** `NAME=PROVIDER:MODEL`, or `NAME=openai-compatible:MODEL@URL` (that provider has no default address). */
function providerShorthand(
  name: string,
  provider: string,
  rest: string,
  fail: (why: string) => never,
): ParticipantShorthand {
  const at = rest.search(/@https?:\/\//i);
  const model = at < 0 ? rest : rest.slice(0, at);
  if (model === '') fail(`no MODEL after "${provider}:"`);
  if (at < 0) {
    if (provider === 'openai-compatible')
      fail('openai-compatible needs the server: openai-compatible:MODEL@URL');
    return { name, provider: { provider, model } };
  }
  const baseURL = rest.slice(at + 1);
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    return fail('a URL is not valid');
  }
  if (parsed.username !== '' || parsed.password !== '' || parsed.search !== '')
    fail(
      "a URL holds a user:password or a query: keep secrets out of arguments, in the provider package's variable",
    );
  return { name, provider: { provider, model, baseURL } };
}
