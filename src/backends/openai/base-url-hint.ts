/**
 * The base URL a user probably meant, for a server that answered 404; `undefined` when the URL looks
 * right. The two mistakes it knows (haggle's choice, from what OpenAI-compatible servers serve: vLLM,
 * SGLang, llama.cpp and OpenAI itself all answer under `/v1`):
 * - the full endpoint given as the base (`.../v1/chat/completions`): haggle appends the endpoint itself,
 *   so the request went to `.../v1/chat/completions/chat/completions`;
 * - no version segment at all (`http://host:8000`): the request went to `/chat/completions`, which
 *   these servers do not serve.
 * A path with a version segment of its own (`/v1`, `/api/v1`, `/v1beta/openai`) is taken as meant.
 * `label` is the URL as errors show it (no credentials, no query), so neither is the suggestion.
 */
export function suggestedBaseURL(label: string): string | undefined {
  let url: URL;
  try {
    url = new URL(label);
  } catch {
    return undefined;
  }
  let path = url.pathname.replace(/\/+$/, '');
  const endpoint = /\/(?:chat\/)?completions$/.exec(path);
  if (endpoint) path = path.slice(0, endpoint.index);
  const versioned = path.split('/').some((segment) => VERSION_SEGMENT.test(segment));
  if (endpoint === null && versioned) return undefined;
  url.pathname = versioned ? path : `${path}/v1`;
  return url.toString().replace(/\/$/, '');
}

// `v1`, `v2`, `v1beta`, `v1alpha2`: how API versions are spelt in paths.
const VERSION_SEGMENT = /^v\d+(?:[a-z]+\d*)?$/i;
