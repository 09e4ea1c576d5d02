/** Options whose value is a credential. */
const SECRET_OPTIONS = ['--api-key', '--server-api-key'];

/**
 * Arguments fit to print back (in a resume hint, a log): a key typed on the command line never reaches
 * the terminal again; `"$HAGGLE_API_KEY"` stands in, for the shell to expand.
 */
export function redactSecrets(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const previous = args[i - 1];
    if (previous !== undefined && SECRET_OPTIONS.includes(previous)) return '"$HAGGLE_API_KEY"';
    const inline = SECRET_OPTIONS.find((option) => arg.startsWith(`${option}=`));
    return inline ? `${inline}="$HAGGLE_API_KEY"` : arg;
  });
}
