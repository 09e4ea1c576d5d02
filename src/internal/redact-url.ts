/**
 * URLs that may carry credentials (a user:password, a gateway's `?api-key=`), in the three ways
 * haggle needs them: the secrets they hold (for a `Redactor`), a label to show (no credentials at all)
 * and a shape to print back (placeholders where the secrets were, for a command the user reruns).
 */

/** user:password and every query value of a URL, raw and percent-encoded, for a `Redactor`. */
export function urlCredentials(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const parts = [url.username, url.password].flatMap((part) => [part, safeDecode(part)]);
  for (const query of url.searchParams.values()) parts.push(query, encodeURIComponent(query));
  return [...new Set(parts.filter((part) => part !== ''))];
}

/** A URL as it may be shown: no user:password, no query, no fragment. */
export function urlLabel(value: string): string {
  try {
    const url = new URL(value);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

/**
 * `http://alice:pw@host/v1?api-key=k` -> `http://USER:PASSWORD@host/v1?api-key=REDACTED`: the shape
 * stays (so the user sees what to put back), the secrets go. Something that is not a URL is left out
 * entirely rather than echoed, in case it is a secret pasted in the wrong place.
 */
export function urlWithPlaceholders(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'URL';
  }
  if (url.username !== '') url.username = 'USER';
  if (url.password !== '') url.password = 'PASSWORD';
  const names = [...url.searchParams.keys()];
  if (names.length > 0) url.search = names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&');
  url.hash = '';
  return url.toString();
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
