import { readFile } from 'node:fs/promises';

/**
 * Client schemas that all differ, for the memory checks of `haggle serve` (test/cli/serve-memory.test.ts
 * and bench/serve-schemas.ts): each one is new to every cache keyed by a schema (the vetter's verdicts,
 * the compiled grammars, the pattern automata), so what the server holds after N of them shows whether
 * those caches are bounded. Four families in turn, shaped like what clients send: a turn-like object,
 * a string with a pattern, an array of records, numbers with bounds and an enum. Deterministic in `i`.
 */
export function distinctSchema(i: number): Record<string, unknown> {
  switch (i % 4) {
    case 0:
      return {
        type: 'object',
        properties: {
          action: { enum: ['offer', 'accept', `decline_${i}`] },
          price: { type: 'number', minimum: i % 100, maximum: 100 + i },
          [`note_${i}`]: { type: 'string', maxLength: 8 + (i % 32) },
        },
        required: ['action', 'price', `note_${i}`],
        additionalProperties: false,
      };
    case 1:
      return { type: 'string', pattern: `^[A-Z]{2}-[0-9]{${1 + (i % 6)}}-${i}$` };
    case 2:
      return {
        type: 'array',
        maxItems: 1 + (i % 5),
        items: {
          type: 'object',
          properties: { [`item_${i}`]: { type: 'integer', minimum: 0, maximum: i }, ok: { type: 'boolean' } },
          required: [`item_${i}`],
        },
      };
    default:
      return {
        type: 'object',
        properties: {
          quantity: { type: 'integer', minimum: i, maximum: i + 1000 },
          unit: { enum: [`unit_${i}`, `pack_${i}`, 'piece'] },
        },
        required: ['quantity', 'unit'],
      };
  }
}

/** The resident memory of process `pid` in KiB (`VmRSS` in /proc/PID/status: every thread's). */
export async function residentKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}
