import { createHash } from 'node:crypto';
import { canonicalJson } from '../internal/canonical-json.js';

// Kept in internal/ so the agent layer, which must not import node:crypto or this layer, shares it.
export { canonicalJson };

/** SHA-256 of the canonical JSON, hex. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
