/**
 * The API key the CLI sends when none is given on the command line: `$HAGGLE_API_KEY`, then
 * `$OPENAI_API_KEY`. An empty variable counts as unset (haggle's choice, as experiment files' `apiKeyEnv`
 * already reads it): `export HAGGLE_API_KEY=` in a shell profile should not hide the OpenAI key, and an
 * empty bearer token is never what a server wants. One helper so that every command reads it alike.
 */
export function defaultApiKey(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return nonEmpty(env.HAGGLE_API_KEY) ?? nonEmpty(env.OPENAI_API_KEY);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
