import { createHash, type Hash } from 'node:crypto';

/**
 * What a downloaded file's bytes must hash to. The hub states it two ways, and haggle reads both:
 * an LFS file (every safetensors file) by the SHA-256 of its content, in the tree listing's
 * `lfs.oid` and in the `X-Linked-Etag` header of its `resolve` URL; a plain git file (configs,
 * tokenizer) by its git blob id, the SHA-1 of `blob SIZE\0` + content, in the listing's `oid` and in
 * the `ETag` header. (Observed in the hub's own JavaScript client's tests: an LFS file's etag is a
 * 64-hex SHA-256, a plain file's a 40-hex SHA-1.)
 */
export type ExpectedChecksum =
  | { kind: 'sha256'; hex: string }
  | { kind: 'git-sha1'; hex: string }
  | { kind: 'none' };

/** An ETag as the hub writes it (`"abc…"`, maybe weak `W/"abc…"`) to lowercase hex, if it is hex. */
export function etagHex(etag: string | null | undefined): string | undefined {
  const hex = etag?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
  return hex && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(hex) ? hex : undefined;
}

/**
 * The checksum a file must match: the header's value when the hub sent one (it describes the bytes
 * being served now), else the listing's. haggle's choice: a file with neither is still size-checked.
 */
export function expectedChecksum(
  listing: { lfsSha256?: string | undefined; gitOid?: string | undefined },
  header: string | undefined,
): ExpectedChecksum {
  if (header?.length === 64) return { kind: 'sha256', hex: header };
  if (listing.lfsSha256) return { kind: 'sha256', hex: listing.lfsSha256.toLowerCase() };
  if (header?.length === 40) return { kind: 'git-sha1', hex: header };
  if (listing.gitOid && /^[0-9a-f]{40}$/i.test(listing.gitOid))
    return { kind: 'git-sha1', hex: listing.gitOid.toLowerCase() };
  return { kind: 'none' };
}

/** A running hash of a file of `size` bytes, fed in order, for the expected checksum's kind. */
export function checksumHash(expected: ExpectedChecksum, size: number): Hash | undefined {
  if (expected.kind === 'sha256') return createHash('sha256');
  if (expected.kind === 'git-sha1') return createHash('sha1').update(`blob ${size}\0`);
  return undefined;
}
