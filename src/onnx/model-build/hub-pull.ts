import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { HaggleAbortError, HaggleError } from '../../contract/errors.js';
import { hubEnvironment } from '../../internal/environment.js';

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

/** A download from the hub failed: HTTP status, a checksum, the listing. The token never appears. */
export class HubDownloadError extends HaggleError {
  readonly url: string;
  readonly status: number | undefined;

  constructor(url: string, problem: string, status?: number, options?: { cause?: unknown }) {
    super('hub-download', `${url}: ${problem}`, options);
    this.name = 'HubDownloadError';
    this.url = url;
    this.status = status;
  }
}

export interface PullOptions {
  /** The folder the repository's files go to (created). */
  out: string;
  /** Branch, tag or commit (default `main`). */
  revision?: string;
  /** The hub's address (default `HF_ENDPOINT`, else https://huggingface.co). */
  endpoint?: string;
  /** For gated and private repositories (default `HF_TOKEN`). Sent only to `endpoint`. */
  token?: string;
  signal?: AbortSignal;
  onProgress?: (event: { file: string; bytes: number; total: number; resumedFrom: number }) => void;
}

export interface PulledFile {
  path: string;
  size: number;
  /** The SHA-256 the hub gave (LFS files) and that the download matched; undefined when it gave none. */
  sha256: string | undefined;
  /** Already complete on disk (same size): not downloaded again. */
  skipped: boolean;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  lfs?: { oid?: string; sha256?: string; size?: number };
}

/**
 * Downloads a Hugging Face repository's model files through `fetch` from the hub's `resolve` URLs:
 * the listing from `/api/models/REPO/tree/REVISION`, then each wanted file into `out`, resuming a
 * `.part` file left by an interrupted download with an HTTP range request, and checking each LFS
 * file's SHA-256 (the hub gives one for every LFS file, which safetensors weights are) and every
 * file's size. A file already complete (same size) is kept. `HF_TOKEN` is sent as a bearer token
 * for gated repositories; a 401 or 403 says to set it.
 */
export async function pullRepository(repo: string, options: PullOptions): Promise<PulledFile[]> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo) || repo.includes('..'))
    throw new HubDownloadError(repo, 'not a repository id: give ORG/NAME, e.g. Qwen/Qwen3-4B');
  const endpoint = (options.endpoint ?? hubEnvironment().endpoint ?? DEFAULT_HUB_ENDPOINT).replace(
    /\/+$/,
    '',
  );
  const revision = encodeURIComponent(options.revision ?? 'main');
  const token = options.token ?? hubEnvironment().token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const out = resolve(options.out);
  mkdirSync(out, { recursive: true });

  const entries: TreeEntry[] = [];
  let listing: string | undefined = `${endpoint}/api/models/${repo}/tree/${revision}?recursive=true`;
  while (listing) {
    const response = await get(listing, headers, options.signal);
    const page = (await response.json()) as unknown;
    if (!Array.isArray(page))
      throw new HubDownloadError(listing, 'the listing is not a JSON array', response.status);
    entries.push(...(page as TreeEntry[]));
    // The hub pages long listings with a Link header (rel="next").
    listing = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
  }
  const files = entries.filter((e) => e.type === 'file' && WANTED.some((pattern) => pattern.test(e.path)));
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
    const sha256 = file.lfs?.oid ?? file.lfs?.sha256;
    if (existsSync(target) && statSync(target).size === size) {
      pulled.push({ path: target, size, sha256, skipped: true });
      continue;
    }
    const url = `${endpoint}/${repo}/resolve/${revision}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
    await download(url, target, size, sha256, headers, options);
    pulled.push({ path: target, size, sha256, skipped: false });
  }
  return pulled;
}

async function get(url: string, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { headers, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    throw new HubDownloadError(url, `could not connect (${(error as Error).message})`, undefined, {
      cause: error,
    });
  }
  if (!response.ok) throw statusError(url, response.status);
  return response;
}

function statusError(url: string, status: number): HubDownloadError {
  const why =
    status === 401 || status === 403
      ? 'the repository is gated or private: accept its terms on the hub and set HF_TOKEN to a token that may read it'
      : status === 404
        ? 'not found: check the repository id and the revision'
        : `the hub answered HTTP ${status}`;
  return new HubDownloadError(url, why, status);
}

async function download(
  url: string,
  target: string,
  size: number,
  sha256: string | undefined,
  headers: Record<string, string>,
  options: PullOptions,
): Promise<void> {
  const part = `${target}.part`;
  mkdirSync(dirname(target), { recursive: true });
  const hash = createHash('sha256');
  let have = existsSync(part) ? statSync(part).size : 0;
  if (have > size) {
    rmSync(part);
    have = 0;
  }
  const signal = options.signal;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { ...headers, ...(have > 0 ? { range: `bytes=${have}-` } : {}) },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    throw new HubDownloadError(url, `could not connect (${(error as Error).message})`, undefined, {
      cause: error,
    });
  }
  if (!response.ok) throw statusError(url, response.status);
  // 206: the server resumes where the part file ends; 200: it sends everything, so start over.
  if (response.status !== 206 && have > 0) {
    rmSync(part);
    have = 0;
  }
  if (have > 0) for await (const chunk of createReadStream(part)) hash.update(chunk as Buffer);
  const fd = openSync(part, have > 0 ? 'a' : 'w');
  let bytes = have;
  try {
    if (!response.body) throw new HubDownloadError(url, 'the response has no body', response.status);
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      let done = 0;
      while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
      hash.update(chunk);
      bytes += chunk.length;
      if (bytes > size) throw new HubDownloadError(url, `more than the ${size} bytes the listing gives`);
      options.onProgress?.({ file: target, bytes, total: size, resumedFrom: have });
    }
  } catch (error) {
    if (signal?.aborted) throw new HaggleAbortError(signal.reason);
    throw error;
  } finally {
    closeSync(fd);
  }
  // The part file stays for a resume when the connection ended early; a wrong file does not.
  if (bytes !== size)
    throw new HubDownloadError(
      url,
      `the download ended at ${bytes} of ${size} bytes: run the same command again to resume`,
    );
  const digest = hash.digest('hex');
  if (sha256 && digest !== sha256) {
    rmSync(part);
    throw new HubDownloadError(
      url,
      `SHA-256 ${digest} differs from the hub's ${sha256}: the file was removed, download it again`,
    );
  }
  renameSync(part, target);
}
