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
import { dirname } from 'node:path';
import { HubDownloadError } from './errors.js';
import { checksumHash, type ExpectedChecksum, etagHex, expectedChecksum } from './hub-checksum.js';
import { abortedError, IdleWatch } from './idle-watch.js';

/**
 * Redirects followed for one file. The hub answers an LFS file's `resolve` URL with one redirect to
 * its storage; haggle's choice: a few more for renamed repositories, then stop (a loop ends here).
 */
const MAX_REDIRECTS = 5;

export interface FileDownload {
  /** The `resolve` URL on the hub. */
  url: string;
  target: string;
  /** The size the listing gives (the content's, for an LFS file). */
  size: number;
  /** The listing's checksums, used where the `resolve` response has no ETag. */
  listing: { lfsSha256?: string | undefined; gitOid?: string | undefined };
  /** The hub's origin: the only one the token is sent to. */
  endpointOrigin: string;
  token: string | undefined;
  signal: AbortSignal | undefined;
  /** Milliseconds without a byte (waiting for the answer, or within the body) before giving up. */
  idleTimeoutMs: number;
  /** As bytes arrive, and about once a second while none do (`stalledMs` set). */
  onProgress: ((bytes: number, resumedFrom: number, stalledMs?: number) => void) | undefined;
}

/**
 * Downloads one file into `target` through `TARGET.part`: a part left by a dropped connection is
 * resumed with an HTTP range request; the whole file is checked against the hub's checksum and size
 * before it is renamed into place, and a file that fails the check is removed, never left behind.
 * Returns the checksum it matched.
 */
export async function downloadHubFile(file: FileDownload): Promise<ExpectedChecksum> {
  const part = `${file.target}.part`;
  mkdirSync(dirname(file.target), { recursive: true });
  let have = existsSync(part) ? statSync(part).size : 0;
  // A part as long as the file (or longer) was never renamed: it cannot be resumed, so start over.
  if (have >= file.size && have > 0) {
    rmSync(part);
    have = 0;
  }
  // Where the download stands, for the stall notices the watch sends between chunks.
  const progress = { bytes: have, resumedFrom: have };
  const watch = new IdleWatch(file.url, file.idleTimeoutMs, file.signal, (silentMs) =>
    file.onProgress?.(progress.bytes, progress.resumedFrom, silentMs),
  );
  try {
    return await download(file, part, progress, watch);
  } finally {
    watch.stop();
  }
}

/** The download itself, every request and read under `watch`; `have` bytes of the part are kept. */
async function download(
  file: FileDownload,
  part: string,
  progress: { bytes: number; resumedFrom: number },
  watch: IdleWatch,
): Promise<ExpectedChecksum> {
  let have = progress.resumedFrom;
  const signal = watch.signal;
  const { response, etag } = await getFollowingRedirects(
    file.url,
    { ...file, signal },
    {
      // Bytes as stored: a compressed transfer would not match sizes, ranges nor checksums.
      'accept-encoding': 'identity',
      ...(have > 0 ? { range: `bytes=${have}-` } : {}),
    },
  );
  watch.touch();
  const expected = expectedChecksum(file.listing, etag);
  if (have > 0 && !resumesAt(response, have)) {
    // The server sent the whole file (200) or another range: start the part over.
    rmSync(part);
    have = 0;
  }
  progress.bytes = progress.resumedFrom = have;
  const hash = checksumHash(expected, file.size);
  if (hash && have > 0)
    for await (const chunk of createReadStream(part)) {
      // Hashing what is on disk is work, not a stall.
      watch.touch();
      hash.update(chunk as Buffer);
    }

  const fd = openSync(part, have > 0 ? 'a' : 'w');
  let bytes = have;
  let oversize = false;
  try {
    if (!response.body)
      throw new HubDownloadError({
        url: file.url,
        problem: 'the response has no body',
        status: response.status,
      });
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      watch.touch();
      // Writes stop at the listed size: a longer body is an error, never a larger part file.
      // Leaving the loop cancels the body, which frees the connection.
      if (bytes + chunk.length > file.size) {
        oversize = true;
        break;
      }
      let done = 0;
      while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
      hash?.update(chunk);
      bytes += chunk.length;
      progress.bytes = bytes;
      file.onProgress?.(bytes, have);
    }
  } catch (error) {
    if (signal.aborted) throw abortedError(signal);
    if (error instanceof HubDownloadError) throw error;
    // The connection dropped mid-body (undici's "terminated"): the part stays for a resume.
    throw new HubDownloadError({
      url: file.url,
      problem: `the connection dropped at ${bytes} of ${file.size} bytes (${(error as Error).message}): run the same command again to resume`,
      cause: error,
    });
  } finally {
    closeSync(fd);
  }
  if (oversize) {
    rmSync(part);
    throw new HubDownloadError({
      url: file.url,
      problem: `more than the ${file.size} bytes the listing gives: the file was removed`,
    });
  }
  if (bytes !== file.size)
    throw new HubDownloadError({
      url: file.url,
      problem: `the download ended at ${bytes} of ${file.size} bytes: run the same command again to resume`,
    });
  const digest = hash?.digest('hex');
  if (expected.kind !== 'none' && digest !== expected.hex) {
    rmSync(part);
    throw new HubDownloadError({
      url: file.url,
      problem: `${expected.kind === 'sha256' ? 'SHA-256' : 'git blob SHA-1'} ${digest} differs from the hub's ${expected.hex}: the file was removed, download it again`,
    });
  }
  renameSync(part, file.target);
  return expected;
}

/** A 206 whose Content-Range starts where the part file ends. */
function resumesAt(response: Response, have: number): boolean {
  if (response.status !== 206) return false;
  return Number(/^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1]) === have;
}

/**
 * GETs `url`, following redirects by hand so that the token goes only to the hub's own origin (never
 * to the storage an LFS file redirects to) and the hub's ETag headers are read on the way. An error
 * status is thrown as a `HubDownloadError` after its body is cancelled, so no connection stays busy.
 */
export async function getFollowingRedirects(
  url: string,
  access: { endpointOrigin: string; token: string | undefined; signal: AbortSignal | undefined },
  extraHeaders: Record<string, string> = {},
): Promise<{ response: Response; etag: string | undefined }> {
  const first = url;
  let etag: string | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const own = new URL(url).origin === access.endpointOrigin;
    const headers: Record<string, string> = {
      ...extraHeaders,
      ...(own && access.token ? { authorization: `Bearer ${access.token}` } : {}),
    };
    const response = await fetchOnce(url, headers, access.signal);
    // The storage's own ETag (an S3 MD5) is not the hub's checksum: read the hub's responses only.
    if (own) etag ??= etagHex(response.headers.get('x-linked-etag') ?? response.headers.get('etag'));
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location)
        throw new HubDownloadError({
          url,
          problem: 'a redirect without a Location',
          status: response.status,
        });
      url = new URL(location, url).href;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw statusError(first, response.status);
    }
    return { response, etag };
  }
  throw new HubDownloadError({
    url: first,
    problem: `more than ${MAX_REDIRECTS} redirects: a redirect loop`,
  });
}

/** One request, no redirects followed; a network failure becomes a `HubDownloadError`. */
async function fetchOnce(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<Response> {
  try {
    return await fetch(url, { headers, redirect: 'manual', ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal);
    throw new HubDownloadError({
      url,
      problem: `could not connect (${(error as Error).message})`,
      cause: error,
    });
  }
}

/** An HTTP error status, said as what to do about it. */
function statusError(url: string, status: number): HubDownloadError {
  const why =
    status === 401 || status === 403
      ? 'the repository is gated or private: accept its terms on the hub and set HF_TOKEN to a token that may read it'
      : status === 404
        ? 'not found: check the repository id and the revision'
        : `the hub answered HTTP ${status}`;
  return new HubDownloadError({ url, problem: why, status });
}
