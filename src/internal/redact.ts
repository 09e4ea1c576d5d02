/**
 * The one redaction layer: every string that leaves a backend or the server (error messages, HTTP
 * reason phrases, response-body previews, logger lines, run records, proxied errors, warnings) passes
 * through a `Redactor` first. It knows two kinds of secret:
 *
 * - the ones it was given (an API key, header values, a base URL's user:password and query values),
 *   found in the forms a server may echo them in: as sent, in any letter case, with whitespace
 *   inserted between characters, percent-encoded (whole or in part), JSON `\u00XX`-escaped, hex, and
 *   inside base64 or base64url text at any alignment;
 * - ones it was not given, found by their shape: `Bearer <token>`, an `Authorization` value, the
 *   user:password of any URL, and the value of any secret-looking parameter (`api-key=`, `"token": "…"`).
 *
 * Written without `Buffer`, so the main entry still runs in browsers and edge runtimes.
 */

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Given secrets shorter than this are only replaced as written, never in their loose forms (any case,
 * spaced, encoded): a short value such as `v=1` in a base URL would otherwise blank common words.
 * haggle's choice: 8 characters, shorter than any real API key or password worth the name.
 */
const LOOSE_FORM_MIN_LENGTH = 8;
/** Given secrets shorter than this are not replaced at all (a `?v=1` query value). haggle's choice. */
const MIN_LENGTH = 4;

/**
 * Parameter names whose value is a credential, wherever they appear: a query string, a JSON body, an
 * echoed header. Matched whole-word and case-insensitively (`x-api-key`, `API_KEY`, `accessToken`).
 */
const SECRET_NAMES = [
  'api[-_]?key',
  'apikey',
  'key',
  'token',
  'access[-_]?token',
  'refresh[-_]?token',
  'id[-_]?token',
  'auth[-_]?token',
  'sig',
  'signature',
  'password',
  'passwd',
  'pwd',
  'secret',
  'client[-_]?secret',
  'credentials?',
  'x-amz-signature',
  'x-amz-security-token',
];

const SHAPES: readonly [RegExp, string][] = [
  // `Bearer sk-…` anywhere (a proxy echoing our header, or someone else's).
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/gi, `Bearer ${REDACTED}`],
  // An echoed `Authorization: Basic dXNlcjpwdw==` (or any scheme): the value goes.
  [/\b(authorization["']?\s*[:=]\s*["']?)(?:[A-Za-z]+\s+)?[^\s"',;}]+/gi, `$1${REDACTED}`],
  // user:password@ (or a token as the user) in any URL.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s?#@"'<>]+@/gi, `$1${REDACTED}@`],
  // `api-key=…`, `"token": "…"`, `password: …`: the name stays, so the message still says what it was.
  [
    new RegExp(`\\b((?:${SECRET_NAMES.join('|')})["']?\\s*[:=]\\s*["']?)[^\\s"'&,;}<>#]+`, 'gi'),
    `$1${REDACTED}`,
  ],
];

/** Replaces known secrets, in every form they may be echoed in, and anything shaped like a secret. */
export class Redactor {
  readonly #exact: string[];
  readonly #loose: RegExp | undefined;
  readonly #base64: RegExp | undefined;
  readonly #shapes: boolean;

  /**
   * @param options.shapes also replace what is shaped like a secret (default true). Off for text that
   *   is not a message, such as a model's answer, where `token=` or `Bearer` may be meant.
   */
  constructor(secrets: readonly string[] = [], options: { shapes?: boolean } = {}) {
    this.#shapes = options.shapes ?? true;
    const kept = [...new Set(secrets.filter((secret) => secret.length >= MIN_LENGTH))];
    // Longest first, so a secret that contains another is replaced whole.
    kept.sort((a, b) => b.length - a.length);
    this.#exact = kept;
    const long = kept.filter((secret) => secret.length >= LOOSE_FORM_MIN_LENGTH);
    const loose = long.flatMap((secret) => [spacedPattern(secret), hexPattern(secret)]);
    this.#loose = loose.length > 0 ? new RegExp(loose.join('|'), 'gi') : undefined;
    const cores = [...new Set(long.flatMap(base64Cores))].map(escapeRegExp);
    this.#base64 = cores.length > 0 ? new RegExp(cores.join('|'), 'g') : undefined;
  }

  /** `text` with every secret replaced by `[redacted]`. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#exact) out = out.split(secret).join(REDACTED);
    if (this.#loose) out = out.replace(this.#loose, REDACTED);
    if (this.#base64) out = replaceBase64Runs(out, this.#base64);
    if (this.#shapes) for (const [pattern, replacement] of SHAPES) out = out.replace(pattern, replacement);
    return out;
  }

  /**
   * The start of a (possibly huge) response body as one redacted line of at most `max` characters.
   * Only a window of the body is redacted, wide enough that a secret cut at the window's edge lies
   * past the `max` characters kept.
   */
  preview(text: string, max = 300): string {
    const window = text.length > PREVIEW_WINDOW ? text.slice(0, PREVIEW_WINDOW) : text;
    const flat = this.text(window).replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max)}…` : flat;
  }
}

/** How much of a body `preview` redacts: far more than it keeps. haggle's choice. */
const PREVIEW_WINDOW = 8 * 1024;

/** Redacts `text` with a one-off `Redactor`; build one `Redactor` to reuse the compiled patterns. */
export function redact(text: string, secrets: readonly string[] = []): string {
  return new Redactor(secrets).text(text);
}

/**
 * The secret, each character as itself (any case, the regex is `i`), percent-encoded or `\u00XX`
 * escaped, with whitespace (or an encoded space) allowed between characters.
 */
function spacedPattern(secret: string): string {
  const gap = '(?:\\s|%20|%0[9ad])*';
  return [...secret].map(characterForms).join(gap);
}

function characterForms(char: string): string {
  const bytes = utf8(char);
  const percent = bytes.map((byte) => `%${hex2(byte)}`).join('');
  const forms = [escapeRegExp(char), escapeRegExp(percent)];
  const code = char.codePointAt(0) ?? 0;
  if (code <= 0xffff) forms.push(`\\\\u${code.toString(16).padStart(4, '0')}`);
  if (char === ' ') forms.push('\\+');
  return `(?:${forms.join('|')})`;
}

/**
 * The characters that encode only the secret's bytes in base64 and base64url, at each of the three
 * alignments it may start at inside a longer encoded text (the first group may mix in earlier bytes,
 * the last may be partial, so both are left out).
 */
function base64Cores(secret: string): string[] {
  const bytes = utf8(secret);
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = [...new Array<number>(offset).fill(0), ...bytes];
    const encoded = btoa(String.fromCharCode(...padded)).replace(/=+$/, '');
    const start = offset === 0 ? 0 : 4;
    const end = padded.length % 3 === 0 ? encoded.length : encoded.length - (encoded.length % 4);
    const core = encoded.slice(start, end);
    if (core.length < LOOSE_FORM_MIN_LENGTH) continue;
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

const BASE64_CHAR = /[A-Za-z0-9+/_=-]/;

/**
 * Each match of a core, widened to the whole base64 run around it: the run's first and last groups
 * hold bits of the secret too. Widened by hand, not by the regex, so a long run costs linear time.
 */
function replaceBase64Runs(text: string, cores: RegExp): string {
  let out = '';
  let copied = 0;
  for (const match of text.matchAll(cores)) {
    let start = match.index;
    let end = start + match[0].length;
    if (start < copied) continue;
    while (start > copied && BASE64_CHAR.test(text[start - 1] as string)) start--;
    while (end < text.length && BASE64_CHAR.test(text[end] as string)) end++;
    out += `${text.slice(copied, start)}${REDACTED}`;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

function hexPattern(secret: string): string {
  return utf8(secret).map(hex2).join('');
}

function utf8(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

function hex2(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
