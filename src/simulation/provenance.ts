import { HAGGLE_VERSION } from '../internal/haggle-version.js';

/**
 * Where and with what a run was produced, apart from the settings that decide its sessions. A run
 * header keeps the two apart: `config` (seed, rules, negotiators, contexts) must match exactly for
 * `--resume` to continue a file; `provenance` (haggle's version, the Node version, the platform, the
 * servers a backend talked to) may legitimately differ when a run is resumed on another machine or
 * after an upgrade, so a resume never compares it: the file keeps the provenance of the run that
 * started it, and the CLI prints what changed (haggle's choice: a warning rather than a refusal, because
 * a patch upgrade or a moved server must not strand a half-finished run).
 */
export interface RunProvenance {
  /** haggle's version, exactly as its package.json says. */
  haggle: string;
  /** `process.version`, e.g. `v20.19.0`; `unknown` outside Node. */
  node: string;
  /** `process.platform` and `process.arch`, e.g. `linux` and `x64`. */
  platform: string;
  arch: string;
  /**
   * The `location` parts of the negotiators' descriptions (server URLs without credentials or query,
   * model folders), by role; left out when no negotiator has one.
   */
  locations?: Record<string, unknown[]>;
}

/** The provenance of a run started now, in this process, with these negotiator descriptions. */
export function currentProvenance(negotiators: Record<string, unknown> = {}): RunProvenance {
  const processInfo = (globalThis as { process?: { version?: string; platform?: string; arch?: string } })
    .process;
  const locations: Record<string, unknown[]> = {};
  for (const [role, description] of Object.entries(negotiators)) {
    const found = collectLocations(description);
    if (found.length > 0) locations[role] = found;
  }
  return {
    haggle: HAGGLE_VERSION,
    node: processInfo?.version ?? 'unknown',
    platform: processInfo?.platform ?? 'unknown',
    arch: processInfo?.arch ?? 'unknown',
    ...(Object.keys(locations).length > 0 ? { locations } : {}),
  };
}

/** A description without its `location` entries (at any depth): what decides sessions, not where. */
export function withoutLocations<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutLocations) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => key !== 'location')
        .map(([key, child]) => [key, withoutLocations(child)]),
    ) as T;
  }
  return value;
}

function collectLocations(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const child of value) collectLocations(child, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'location') found.push(child);
      else collectLocations(child, found);
    }
  }
  return found;
}

/** Two headers describe the same run when everything but their provenance is equal. */
export function sameRunSettings(a: object, b: object): boolean {
  const settings = (header: object) => JSON.stringify({ ...header, provenance: undefined });
  return settings(a) === settings(b);
}

/**
 * What differs between the provenance on file and this process's, one phrase each
 * (`haggle 0.1.0 -> 0.2.0`); empty when nothing does or the file has none to compare.
 */
export function provenanceChanges(onFile: RunProvenance | undefined, now: RunProvenance): string[] {
  if (!onFile) return [];
  const changes: string[] = [];
  for (const key of ['haggle', 'node', 'platform', 'arch'] as const) {
    if (onFile[key] !== now[key]) changes.push(`${key} ${onFile[key]} -> ${now[key]}`);
  }
  if (JSON.stringify(onFile.locations ?? {}) !== JSON.stringify(now.locations ?? {}))
    changes.push('backend locations (server URLs or model folders)');
  return changes;
}
