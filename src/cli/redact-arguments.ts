import { redact } from '../internal/redact.js';
import { urlWithPlaceholders } from '../internal/redact-url.js';

/** Options whose value is a credential. */
const SECRET_OPTIONS = ['--api-key', '--server-api-key'];
/** Options whose value is a URL that may carry credentials (user:password, a key in the query). */
const URL_OPTIONS = ['--base-url'];

/**
 * Arguments fit to print back (in a resume hint, a log): a key typed on the command line never reaches
 * the terminal again; `"$HAGGLE_API_KEY"` stands in, for the shell to expand. A base URL keeps its host
 * and path, but its user:password and its query values become placeholders the user fills back in
 * (`urlWithPlaceholders`); any other argument passes the shared redaction of `internal/redact.ts`.
 */
export function redactSecrets(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const previous = args[i - 1];
    if (previous !== undefined && SECRET_OPTIONS.includes(previous)) return '"$HAGGLE_API_KEY"';
    if (previous !== undefined && URL_OPTIONS.includes(previous)) return redactUrlList(arg);
    const inline = SECRET_OPTIONS.find((option) => arg.startsWith(`${option}=`));
    if (inline) return `${inline}="$HAGGLE_API_KEY"`;
    const inlineUrl = URL_OPTIONS.find((option) => arg.startsWith(`${option}=`));
    if (inlineUrl) return `${inlineUrl}=${redactUrlList(arg.slice(inlineUrl.length + 1))}`;
    // Any other argument still passes the shared redaction: a URL with user:password, a `token=…`.
    return redact(arg);
  });
}

/** `--base-url` takes a comma-separated list. */
function redactUrlList(value: string): string {
  return value
    .split(',')
    .map((part) => urlWithPlaceholders(part.trim()))
    .join(',');
}
