/**
 * Keeping credentials out of everything a user might paste into an issue: error messages, logs and
 * run records. The API key only ever travels in the Authorization header; these helpers clean what a
 * server echoes back and what a base URL may carry.
 */

/** A base URL as it may be shown: no user:password, no query (some gateways take `?api-key=`). */
export function replicaLabel(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

/** Replaces every occurrence of each secret in `text`. Secrets shorter than 4 characters are kept. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    out = out.split(secret).join('[redacted]');
  }
  // A server may echo the header back; hide any bearer token, ours or not.
  return out.replace(/Bearer\s+[A-Za-z0-9._~+/=-]+/g, 'Bearer [redacted]');
}

/** The start of a response body, single-line, for an error message. */
export function bodyPreview(text: string, secrets: readonly string[], max = 300): string {
  const flat = redact(text, secrets).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
