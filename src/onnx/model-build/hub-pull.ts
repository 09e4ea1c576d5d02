import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { HaggleAbortError } from '../../contract/errors.js';
import { type Environment, processEnvironment } from '../../internal/environment.js';
import { ResponseOverLimit, readLimited } from '../../internal/limited-body.js';
import { downloadHubFile, getFollowingRedirects } from './hub-file-download.js';
import { HubDownloadError } from './model-build-errors.js';

/** The Hugging Face hub, unless `HF_ENDPOINT` (as the hub's own clients read it) or `endpoint` says otherwise. */
export const DEFAULT_HUB_ENDPOINT = 'https://huggingface.co';

/**
 * The files a build needs from a model or adapter repository (haggle's choice: weights in safetensors,
 * configs, tokenizer and chat template; not READMEs, pickles or other exports).
 */
const WANTED = [
  /^config\.json$/,
  /^generation_config\.json$/,
  /^model(-\d+-of-\d+)?\.safetensors$/,
  /^model\.safetensors\.index\.json$/,
  /^tokenizer\.json$/,
  /^tokenizer_config\.json$/,
  /^special_tokens_map\.json$/,
  /^added_tokens\.json$/,
  /^vocab\.json$/,
  /^merges\.txt$/,
  /^chat_template\.jinja$/,
  /^adapter_config\.json$/,
  /^adapter_model\.safetensors$/,
];

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
  /** Branch, tag or commit (default `main`). */
  revision?: string;
  /** The hub's address (default `HF_ENDPOINT`, else https://huggingface.co). */
  endpoint?: string;
  /** For gated and private repositories (default `HF_TOKEN`). Sent only to `endpoint`'s origin. */
  token?: string;
  /** Where `HF_ENDPOINT` and `HF_TOKEN` are read (default the process's environment). */
  env?: Environment;
  signal?: AbortSignal;
  /** Called as each file's bytes arrive: `resumedFrom` bytes were already on disk from an earlier try. */
  onProgress?: (event: PullProgress) => void;
}

/** Progress of one file of a pull. */
export interface PullProgress {
  file: string;
  bytes: number;
  total: number;
  resumedFrom: number;
}

/** One file of a pulled repository. */
export interface PulledFile {
  path: string;
  size: number;
  /** The checksum the download matched (`sha256` for LFS files, `git-sha1` for git files), or `none`. */
  checksum: 'sha256' | 'git-sha1' | 'none';
  /** Already complete on disk (same size): not downloaded again. */
  skipped: boolean;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  oid?: string;
  lfs?: { oid?: string; size?: number };
}

/**
 * Downloads a Hugging Face repository's model files through `fetch` from the hub's `resolve` URLs:
 * the listing from `/api/models/REPO/tree/REVISION`, then each wanted file into `out`, resuming a
 * `.part` file left by a dropped connection with an HTTP range request, and checking each file's
 * size and checksum (SHA-256 for LFS files, the git blob id for the others) before it takes its
 * name. A file already complete (same size) is kept. The token is sent as a bearer token to the hub's
 * origin only; a 401 or 403 says to set `HF_TOKEN`.
 */
export async function pullRepository(repo: string, options: PullOptions): Promise<PulledFile[]> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.includes('..'))
    throw new HubDownloadError(repo, 'not a repository id: give ORG/NAME, e.g. Qwen/Qwen3-4B');
  const env = options.env ?? processEnvironment();
  const endpoint = (options.endpoint ?? env.HF_ENDPOINT ?? DEFAULT_HUB_ENDPOINT).replace(/\/+$/, '');
  const endpointOrigin = new URL(endpoint).origin;
  const revision = encodeURIComponent(options.revision ?? 'main');
  const access = { endpointOrigin, token: options.token ?? env.HF_TOKEN, signal: options.signal };
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });

  const files = (await listRepository(`${endpoint}/api/models/${repo}/tree/${revision}`, access)).filter(
    (e) => e.type === 'file' && WANTED.some((pattern) => pattern.test(e.path)),
  );
  if (files.length === 0)
    throw new HubDownloadError(
      `${endpoint}/${repo}`,
      'the repository has no config, safetensors or adapter files',
    );

  const pulled: PulledFile[] = [];
  for (const file of files) {
    const target = join(out, file.path);
    if (!target.startsWith(out + sep))
      throw new HubDownloadError(file.path, 'a file name outside the folder');
    const size = file.lfs?.size ?? file.size;
    if (existsSync(target) && statSync(target).size === size) {
      pulled.push({ path: target, size, checksum: 'none', skipped: true });
      continue;
    }
    const expected = await downloadHubFile({
      url: `${endpoint}/${repo}/resolve/${revision}/${file.path.split('/').map(encodeURIComponent).join('/')}`,
      target,
      size,
      listing: { lfsSha256: file.lfs?.oid, gitOid: file.lfs ? undefined : file.oid },
      ...access,
      onProgress: (bytes, resumedFrom) =>
        options.onProgress?.({ file: target, bytes, total: size, resumedFrom }),
    });
    pulled.push({ path: target, size, checksum: expected.kind, skipped: false });
  }
  return pulled;
}

/** Every entry of the recursive tree listing, following the hub's `Link: <…>; rel="next"` pages. */
async function listRepository(
  first: string,
  access: Parameters<typeof getFollowingRedirects>[1],
): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  let url: string | undefined = `${first}?recursive=true`;
  for (let page = 0; url; page++) {
    if (page === MAX_LISTING_PAGES)
      throw new HubDownloadError(first, `the listing has more than ${MAX_LISTING_PAGES} pages`);
    const { response } = await getFollowingRedirects(url, access);
    const body = await readListingPage(url, response, access.signal);
    // One by one, not push(...body): a spread of a huge array overflows the call stack.
    for (const entry of body) {
      if (entries.length === MAX_LISTING_ENTRIES)
        throw new HubDownloadError(first, `the listing has more than ${MAX_LISTING_ENTRIES} entries`);
      entries.push(treeEntry(url, entry, entries.length));
    }
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    url = next ? new URL(next, url).href : undefined;
  }
  return entries;
}

/** One page's JSON array, read within `MAX_LISTING_PAGE_BYTES`. */
async function readListingPage(
  url: string,
  response: Response,
  signal: AbortSignal | undefined,
): Promise<unknown[]> {
  let body: unknown;
  try {
    body = JSON.parse(await readLimited(response, MAX_LISTING_PAGE_BYTES));
  } catch (error) {
    if (error instanceof ResponseOverLimit)
      throw new HubDownloadError(
        url,
        `a page of the listing is over ${MAX_LISTING_PAGE_BYTES} bytes: not the hub's listing (check HF_ENDPOINT)`,
        response.status,
        { cause: error },
      );
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    throw new HubDownloadError(url, 'the listing is not JSON', response.status, { cause: error });
  }
  if (!Array.isArray(body))
    throw new HubDownloadError(url, 'the listing is not a JSON array', response.status);
  return body;
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
    new HubDownloadError(
      url,
      `entry ${index} of the listing ${what}: not the hub's listing (check HF_ENDPOINT)`,
    );
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
