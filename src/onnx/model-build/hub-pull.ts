import { mkdirSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { ResponseOverLimitError } from '../../internal/errors.js';
import { readLimited } from '../../internal/limited-body.js';
import { HubDownloadError } from './errors.js';
import { expectedChecksum } from './hub-checksum.js';
import { downloadHubFile, getFollowingRedirects } from './hub-file-download.js';
import { wantedFile } from './hub-file-kinds.js';
import { abortedError, DEFAULT_IDLE_TIMEOUT_MS, IdleWatch } from './idle-watch.js';
import { PullRecord } from './pull-record.js';

/** The Hugging Face hub, unless `endpoint` says otherwise (the CLI passes `HF_ENDPOINT` there). */
export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

/** haggle's choice: a listing of more pages than this is not a model repository's (a Link loop ends here). */
const MAX_LISTING_PAGES = 100;
/**
 * haggle's choice: the most bytes one page of the listing may take. The hub pages its listing (a Link
 * header to the next page), and a model repository's page of entries (path, size, oid, lfs) is well
 * under a megabyte; an endless or huge body from a broken or hostile `HF_ENDPOINT` stops here instead
 * of taking the machine's memory.
 */
export const MAX_LISTING_PAGE_BYTES = 8 * 1024 * 1024;
/** haggle's choice: more entries than this in all pages is not a model repository. */
const MAX_LISTING_ENTRIES = 100_000;

export interface PullOptions {
  /** The folder the repository's files go to (created). */
  out: string;
  /** Branch, tag or commit (default `main`); a branch or tag is resolved to its commit first. */
  revision?: string;
  /**
   * Milliseconds without a byte after which a request or download is given up as stalled (default
   * 60,000, haggle's choice); what arrived of a file is kept for a resume.
   */
  idleTimeoutMs?: number;
  /**
   * The hub's address (default https://huggingface.co). Neither this nor `token` is read from the
   * environment: the CLI passes `HF_ENDPOINT` and `HF_TOKEN` (`hubEnvironment()` reads them), code
   * passes what it means, so a library user's pull is not changed by a variable it never set.
   */
  endpoint?: string;
  /** For gated and private repositories (default none). Sent only to `endpoint`'s origin. */
  token?: string;
  signal?: AbortSignal;
  /**
   * Called as each file's bytes arrive (`resumedFrom` bytes were already on disk from an earlier try),
   * and about once a second while a file's bytes have stopped arriving (`stalledMs` set).
   */
  onProgress?: (event: PullProgress) => void;
}

/** Progress of one file of a pull. */
export interface PullProgress {
  file: string;
  bytes: number;
  total: number;
  resumedFrom: number;
  /** Set while no byte has arrived for this long (the download is waiting, not finished). */
  stalledMs?: number;
}

/** One file of a pulled repository. */
export interface PulledFile {
  path: string;
  size: number;
  /** The checksum the download matched (`sha256` for LFS files, `git-sha1` for git files), or `none`. */
  checksum: 'sha256' | 'git-sha1' | 'none';
  /** Already on disk with the listing's checksum: not downloaded again. */
  skipped: boolean;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  oid?: string;
  lfs?: { oid?: string; size?: number };
}

/** What every request of a pull shares: the hub, the token (for its origin only), the signals. */
interface HubAccess {
  endpoint: string;
  endpointOrigin: string;
  token: string | undefined;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
}

function hubAccess(options: Omit<PullOptions, 'out'>): HubAccess {
  const endpoint = (options.endpoint ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!(idleTimeoutMs > 0)) throw new RangeError(`idleTimeoutMs must be positive, got ${idleTimeoutMs}`);
  return {
    endpoint,
    endpointOrigin: new URL(endpoint).origin,
    token: options.token,
    signal: options.signal,
    idleTimeoutMs,
  };
}

function checkRepoId(repo: string): void {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.includes('..'))
    throw new HubDownloadError({
      url: repo,
      problem: 'not a repository id: give ORG/NAME, e.g. Qwen/Qwen3-4B',
    });
}

/** A full commit id, which needs no resolving. */
const isCommit = (revision: string): boolean => /^[0-9a-f]{40}$/.test(revision);

/**
 * The commit a branch or tag of a repository points at now, from the hub's
 * `/api/models/REPO/revision/REV` (its `sha`); a full commit id is returned as it is. A pull lists
 * and downloads at that commit, so every file comes from one commit even if the branch moves meanwhile,
 * and a cache folder can be named after it.
 */
export async function resolveHubRevision(
  repo: string,
  options: Omit<PullOptions, 'out'> = {},
): Promise<string> {
  checkRepoId(repo);
  const revision = options.revision ?? 'main';
  if (isCommit(revision)) return revision;
  const access = hubAccess(options);
  const url = `${access.endpoint}/api/models/${repo}/revision/${encodeURIComponent(revision)}`;
  const body = await readJson(url, access);
  const sha = (body as { sha?: unknown } | null)?.sha;
  if (typeof body !== 'object' || body === null || typeof sha !== 'string' || !isCommit(sha))
    throw new HubDownloadError({
      url,
      problem: "the answer has no commit id (sha): not the hub's API (check HF_ENDPOINT)",
    });
  return sha;
}

/**
 * Downloads a Hugging Face repository's model files through `fetch` from the hub's `resolve` URLs:
 * the revision resolved to its commit, the listing from `/api/models/REPO/tree/COMMIT`, then each
 * wanted file into `out`, resuming a `.part` file left by a dropped connection with an HTTP range
 * request, and checking each file's size and checksum (SHA-256 for LFS files, the git blob id for the
 * others) before it takes its name. A file on disk is kept only when its bytes hash to the listing's
 * checksum (`.haggle-pull.json` remembers what was verified, so unchanged files are not hashed again);
 * a file the hub changed, even at the same size, is downloaded again. Every size the listing claims is
 * checked against the most a file of its kind may be before anything is written, a body longer than
 * listed is an error, and a request that receives nothing for `idleTimeoutMs` is given up. The token
 * is sent as a bearer token to the hub's origin only; a 401 or 403 says to set `HF_TOKEN`.
 */
export async function pullRepository(repo: string, options: PullOptions): Promise<PulledFile[]> {
  checkRepoId(repo);
  const access = hubAccess(options);
  const commit = await resolveHubRevision(repo, options);
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });

  const entries = await listRepository(`${access.endpoint}/api/models/${repo}/tree/${commit}`, access);
  const files = entries.filter((e) => e.type === 'file' && wantedFile(e.path));
  if (files.length === 0)
    throw new HubDownloadError({
      url: `${access.endpoint}/${repo}`,
      problem: 'the repository has no config, safetensors or adapter files',
    });
  // Every claim checked before a byte is written: a listing may lie about one file of many.
  for (const file of files) {
    const kind = wantedFile(file.path) as { maxBytes: number; kind: string };
    const size = file.lfs?.size ?? file.size;
    if (size > kind.maxBytes)
      throw new HubDownloadError({
        url: file.path,
        problem: `the listing claims ${size} bytes, over the ${kind.maxBytes} that ${kind.kind} may take (haggle's limit): not a model repository's file (check HF_ENDPOINT)`,
      });
  }

  const record = PullRecord.open(out);
  record.commit = commit;
  const pulled: PulledFile[] = [];
  for (const file of files) {
    const target = join(out, file.path);
    if (!target.startsWith(out + sep))
      throw new HubDownloadError({ url: file.path, problem: 'a file name outside the folder' });
    const size = file.lfs?.size ?? file.size;
    const listed = expectedChecksum(
      { lfsSha256: file.lfs?.oid, gitOid: file.lfs ? undefined : file.oid },
      undefined,
    );
    if (await record.holds(file.path, target, size, listed, options.signal)) {
      pulled.push({ path: target, size, checksum: listed.kind as PulledFile['checksum'], skipped: true });
      continue;
    }
    const expected = await downloadHubFile({
      url: `${access.endpoint}/${repo}/resolve/${commit}/${file.path.split('/').map(encodeURIComponent).join('/')}`,
      target,
      size,
      listing: { lfsSha256: file.lfs?.oid, gitOid: file.lfs ? undefined : file.oid },
      ...access,
      onProgress: (bytes, resumedFrom, stalledMs) =>
        options.onProgress?.({
          file: target,
          bytes,
          total: size,
          resumedFrom,
          ...(stalledMs === undefined ? {} : { stalledMs }),
        }),
    });
    record.remember(file.path, target, expected);
    pulled.push({ path: target, size, checksum: expected.kind, skipped: false });
  }
  record.save();
  return pulled;
}

/** Every entry of the recursive tree listing, following the hub's `Link: <…>; rel="next"` pages. */
async function listRepository(first: string, access: HubAccess): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  let url: string | undefined = `${first}?recursive=true`;
  for (let page = 0; url; page++) {
    if (page === MAX_LISTING_PAGES)
      throw new HubDownloadError({
        url: first,
        problem: `the listing has more than ${MAX_LISTING_PAGES} pages`,
      });
    const { body, response } = await readListingPage(url, access);
    // One by one, not push(...body): a spread of a huge array overflows the call stack.
    for (const entry of body) {
      if (entries.length === MAX_LISTING_ENTRIES)
        throw new HubDownloadError({
          url: first,
          problem: `the listing has more than ${MAX_LISTING_ENTRIES} entries`,
        });
      entries.push(treeEntry(url, entry, entries.length));
    }
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    url = next ? new URL(next, url).href : undefined;
  }
  return entries;
}

/** One page's JSON array, read within `MAX_LISTING_PAGE_BYTES`, with its response (for the Link header). */
async function readListingPage(
  url: string,
  access: HubAccess,
): Promise<{ body: unknown[]; response: Response }> {
  const { body, response } = await readJsonWithResponse(url, access, 'the listing');
  if (!Array.isArray(body))
    throw new HubDownloadError({ url, problem: 'the listing is not a JSON array', status: response.status });
  return { body, response };
}

async function readJson(url: string, access: HubAccess): Promise<unknown> {
  return (await readJsonWithResponse(url, access, 'the answer')).body;
}

/**
 * A JSON answer of the hub's API, within `MAX_LISTING_PAGE_BYTES` and under the idle timeout (a hub
 * that stops sending mid-answer is given up, not waited on for ever).
 */
async function readJsonWithResponse(
  url: string,
  access: HubAccess,
  what: string,
): Promise<{ body: unknown; response: Response }> {
  const watch = new IdleWatch(url, access.idleTimeoutMs, access.signal);
  try {
    const { response } = await getFollowingRedirects(url, { ...access, signal: watch.signal });
    watch.touch();
    let text: string;
    try {
      text = await readLimited(response, MAX_LISTING_PAGE_BYTES, () => watch.touch());
    } catch (error) {
      if (error instanceof ResponseOverLimitError)
        throw new HubDownloadError({
          url,
          problem: `${what === 'the listing' ? 'a page of the listing' : what} is over ${MAX_LISTING_PAGE_BYTES} bytes: not the hub's ${what === 'the listing' ? 'listing' : 'API'} (check HF_ENDPOINT)`,
          status: response.status,
          cause: error,
        });
      if (watch.signal.aborted) throw abortedError(watch.signal);
      throw new HubDownloadError({
        url,
        problem: `${what} could not be read (${(error as Error).message})`,
        status: response.status,
        cause: error,
      });
    }
    try {
      return { body: JSON.parse(text), response };
    } catch (error) {
      throw new HubDownloadError({
        url,
        problem: `${what} is not JSON`,
        status: response.status,
        cause: error,
      });
    }
  } finally {
    watch.stop();
  }
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const isHex = (value: unknown, length: number): value is string =>
  typeof value === 'string' && value.length === length && /^[0-9a-f]+$/.test(value);

/**
 * An entry as the hub writes it, or a typed error: its path and size reach the file system and the
 * progress bar, its ids the checksum check, so nothing else is let through (haggle's choice).
 */
function treeEntry(url: string, value: unknown, index: number): TreeEntry {
  const bad = (what: string) =>
    new HubDownloadError({
      url,
      problem: `entry ${index} of the listing ${what}: not the hub's listing (check HF_ENDPOINT)`,
    });
  if (typeof value !== 'object' || value === null) throw bad('is not an object');
  const entry = value as Record<string, unknown>;
  if (typeof entry.type !== 'string' || typeof entry.path !== 'string') throw bad('has no type or path');
  if (entry.type !== 'file') return { type: entry.type, path: entry.path, size: 0 };
  if (!isCount(entry.size)) throw bad('has no size');
  if (entry.oid !== undefined && !isHex(entry.oid, 40)) throw bad('has an oid that is not a git blob id');
  if (entry.lfs === undefined) return { type: 'file', path: entry.path, size: entry.size, oid: entry.oid };
  const lfs = entry.lfs as Record<string, unknown> | null;
  if (typeof lfs !== 'object' || lfs === null || !isHex(lfs.oid, 64) || !isCount(lfs.size))
    throw bad('has an lfs record without a SHA-256 oid and a size');
  return {
    type: 'file',
    path: entry.path,
    size: entry.size,
    oid: entry.oid,
    lfs: { oid: lfs.oid, size: lfs.size },
  };
}
