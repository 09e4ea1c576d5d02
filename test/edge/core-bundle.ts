import type { Metafile } from 'esbuild';
import { bundleForBrowser } from '../../scripts/browser-bundle.mjs';

const repoRoot = new URL('../..', import.meta.url).pathname;

/** What a page or a Deno script does with the core: one `agent.predict` against a remote server. */
const APP = `
import { NegotiationAgent, OpenAICompatibleBackend } from 'haggle';

export async function predictOnce(baseURL, model, context) {
  const backend = new OpenAICompatibleBackend({ baseURL, model, endpoint: 'completions' });
  const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 5, maxTokens: 160 } });
  const turn = await agent.predict({ context, history: [], role: 'buyer' });
  return { turn, requests: agent.usage.requests };
}
`;

export interface CoreBundle {
  /** An ES module exporting `predictOnce(baseURL, model, context)`. */
  code: string;
  metafile: Metafile;
}

/**
 * Bundles a small app on `haggle` the way a browser app's bundler does: esbuild, `platform: 'browser'`,
 * with `haggle` taken from the source of the build that package.json gives browsers (src/core.ts).
 * esbuild fails the build on any `node:` import it reaches, which is the point.
 */
export async function bundleCoreApp(): Promise<CoreBundle> {
  const { text, metafile } = await bundleForBrowser({
    code: APP,
    resolveDir: repoRoot,
    minify: false,
    target: 'es2022',
    alias: { haggle: `${repoRoot}src/core.ts` },
  });
  return { code: text, metafile };
}
