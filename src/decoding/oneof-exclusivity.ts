import { UnsupportedSchemaError } from './errors.js';
import type { Schema } from './schema-keywords.js';

/** What a branch can be, for the oneOf exclusivity check: its types and, per property, its values. */
function branchTypes(schema: unknown): Set<string> | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Schema;
  const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
  if (values) return new Set(values.map(jsonTypeOf));
  if (s.type === undefined) return null;
  const list = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
  return new Set(list.map((t) => (t === 'integer' ? 'number' : t)));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value === 'number' ? 'number' : typeof value;
}

function valuesOf(schema: unknown): Set<string> | null {
  if (typeof schema !== 'object' || schema === null) return null;
  const s = schema as Schema;
  const values = s.const !== undefined ? [s.const] : Array.isArray(s.enum) ? s.enum : null;
  return values ? new Set(values.map((v) => JSON.stringify(v))) : null;
}

/**
 * oneOf means exactly one branch matches. The grammar reads branches as alternatives, which is right
 * only when no value can match two of them; so every pair must be provably disjoint: by type, by
 * const/enum, or by a property required in both whose const/enum values do not overlap.
 */
export function checkExclusive(branches: unknown[], path: string, resolve: (ref: string) => unknown): void {
  const deref = (b: unknown): unknown =>
    typeof b === 'object' && b !== null && typeof (b as Schema).$ref === 'string'
      ? resolve((b as Schema).$ref as string)
      : b;
  const list = branches.map(deref);
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      if (!disjoint(list[i], list[j], deref)) {
        throw new UnsupportedSchemaError(
          'oneOf',
          path,
          `branches ${i} and ${j} may both match; exclusivity cannot be enforced (anyOf would be)`,
        );
      }
    }
  }
}

function disjoint(a: unknown, b: unknown, deref: (b: unknown) => unknown): boolean {
  const ta = branchTypes(a);
  const tb = branchTypes(b);
  if (ta && tb && ![...ta].some((t) => tb.has(t))) return true;
  const va = valuesOf(a);
  const vb = valuesOf(b);
  if (va && vb && ![...va].some((v) => vb.has(v))) return true;
  // The property argument holds only when both branches admit objects alone.
  if (ta?.size !== 1 || !ta.has('object') || tb?.size !== 1 || !tb.has('object')) return false;
  const sa = a as Schema;
  const sb = b as Schema;
  const pa = (sa.properties ?? {}) as Record<string, unknown>;
  const pb = (sb.properties ?? {}) as Record<string, unknown>;
  const ra = Array.isArray(sa.required) ? sa.required : [];
  const rb = Array.isArray(sb.required) ? sb.required : [];
  for (const name of Object.keys(pa)) {
    if (!(name in pb) || !ra.includes(name) || !rb.includes(name)) continue;
    const x = valuesOf(deref(pa[name]));
    const y = valuesOf(deref(pb[name]));
    if (x && y && ![...x].some((v) => y.has(v))) return true;
  }
  return false;
}
