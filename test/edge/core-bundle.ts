import { build, type Metafile } from 'esbuild';

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
  const result = await build({
    stdin: { contents: APP, loader: 'js', resolveDir: repoRoot, sourcefile: 'app.js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    alias: { haggle: `${repoRoot}src/core.ts` },
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle');
  return { code: output.text, metafile: result.metafile };
}
