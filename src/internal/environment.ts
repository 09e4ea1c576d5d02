/**
 * The environment variables haggle reads, read here and nowhere else (the CLI's API-key options read
 * theirs through `processEnvironment`). haggle's choice: one place to see every variable a user can
 * set, and functions that take the environment as an argument so that tests pass their own. The
 * library's functions take what these give as options; the CLI (or a caller that wants the variables)
 * reads them here and passes them on, so a library user's code is not changed by a variable it never set.
 */

/** Variables by name, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The process's environment (empty where there is no `process`, as in a browser). */
export function processEnvironment(): Environment {
  return (globalThis as { process?: { env?: Environment } }).process?.env ?? {};
}

/**
 * The default ceiling for a JSON input of the CLI (a context, a history, a contexts list, a suite):
 * 64 MiB. haggle's choice: 2,000 listings with 4 KB descriptions are about 8 MB, so this leaves 8x room,
 * while the parsed value (a few times the text's size in memory) stays in the hundreds of megabytes.
 * `HAGGLE_MAX_INPUT_MIB` raises or lowers it for one run.
 */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The ceiling in force: `HAGGLE_MAX_INPUT_MIB` when set to a positive number, else the default. */
export function maxInputBytes(env: Environment = processEnvironment()): number {
  return bytesFromMib(env.HAGGLE_MAX_INPUT_MIB) ?? DEFAULT_MAX_INPUT_BYTES;
}

/** A ceiling given in MiB by an environment variable, in bytes; undefined unless a positive number. */
function bytesFromMib(value: string | undefined): number | undefined {
  const mib = Number(value);
  return Number.isFinite(mib) && mib > 0 ? Math.floor(mib * 1024 * 1024) : undefined;
}

/**
 * The default ceiling for one line of a JSONL file (a run's session, a tournament's match): 8 MiB.
 * haggle's choice: the longest session record a run writes is tens of kilobytes (a few dozen turns of
 * short messages), so 8 MiB leaves a hundredfold room and still refuses `/dev/zero` (endless, without a
 * newline) after 8 MiB read. `HAGGLE_MAX_LINE_MIB` raises or lowers it for one run.
 */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** The line ceiling in force: `HAGGLE_MAX_LINE_MIB` when set to a positive number, else the default. */
export function maxLineBytes(env: Environment = processEnvironment()): number {
  return bytesFromMib(env.HAGGLE_MAX_LINE_MIB) ?? DEFAULT_MAX_LINE_BYTES;
}

/** Where the Hugging Face hub is and the token for it, as `pullRepository` and `resolveHubRevision` take them. */
export interface HubEnvironment {
  endpoint?: string;
  token?: string;
}

/**
 * `HF_ENDPOINT` (a mirror's address) and `HF_TOKEN` (for gated repositories), the variables the hub's own
 * clients read: what `haggle model pull` and `haggle model build hf:...` pass to the pull. Unset
 * variables are left out (the pull's defaults: the hub itself, no token).
 */
export function hubEnvironment(env: Environment = processEnvironment()): HubEnvironment {
  return {
    ...(env.HF_ENDPOINT !== undefined ? { endpoint: env.HF_ENDPOINT } : {}),
    ...(env.HF_TOKEN !== undefined ? { token: env.HF_TOKEN } : {}),
  };
}
