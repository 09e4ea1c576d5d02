import type { RunProvenance } from '../simulation/provenance.js';
import { escapeHtml } from './html.js';

/** What a run's header says produced it, as a definition list. */
export function renderProvenance(provenance: RunProvenance | undefined): string {
  if (!provenance)
    return '<p class="note">No provenance: the file was written without it (or holds real sessions).</p>';
  const items: [string, string][] = [
    ['haggle', provenance.haggle],
    ['Node', provenance.node],
    ['platform', `${provenance.platform} ${provenance.arch}`],
  ];
  for (const [role, locations] of Object.entries(provenance.locations ?? {})) {
    items.push([`${role} ran at`, locations.map((location) => JSON.stringify(location)).join('; ')]);
  }
  return `<dl class="provenance" data-provenance>${items.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd data-field="${escapeHtml(key)}">${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/** The fields of a negotiator description a reader looks for first, then the whole of it. */
export function renderNegotiator(role: string, description: unknown): string {
  const d = (description ?? {}) as Record<string, unknown>;
  const backend = (d.backend ?? {}) as Record<string, unknown>;
  const sampling = (d.sampling ?? {}) as Record<string, unknown>;
  const fields: [string, unknown][] = [
    ['kind', d.kind],
    ['backend', backend.provider ?? d.provider],
    ['model', backend.modelId ?? d.modelId],
    ['dialect', backend.dialect],
    ['endpoint', backend.endpoint],
    ['device', backend.device],
    ['profile', d.profile],
    [
      'template',
      d.template === undefined ? undefined : `${d.template}${d.templateHash ? ` (${d.templateHash})` : ''}`,
    ],
    ['turn schema', d.turnSchemaHash],
    ['temperature', sampling.temperature],
    ['max tokens', sampling.maxTokens],
    ['strategy', d.strategy],
  ];
  const shown = fields.filter(([, value]) => value !== undefined && value !== null);
  const list = shown
    .map(
      ([key, value]) => `<span class="field"><b>${escapeHtml(key)}</b> ${escapeHtml(String(value))}</span>`,
    )
    .join(' ');
  return `<dt>${escapeHtml(role)}</dt><dd data-negotiator="${escapeHtml(role)}">${list}<details><summary>full description</summary><code>${escapeHtml(JSON.stringify(description))}</code></details></dd>`;
}
