import type { Metafile } from 'esbuild';

/** An app bundled as a browser app's bundler would (see browser-bundle.mjs). */
export function bundleForBrowser(app: {
  code: string;
  resolveDir: string;
  minify?: boolean;
  target?: string;
  alias?: Record<string, string>;
}): Promise<{ bytes: Uint8Array; text: string; metafile: Metafile }>;
