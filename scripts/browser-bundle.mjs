// One definition of "bundled as a browser app's bundler would": esbuild, platform browser, ES modules,
// the repo's own tsconfig ignored (its `paths` map 'haggle' to the Node source, which no user has).
// Shared by bench/bundle-size.ts (sizes), scripts/check-package.mjs (the core reaches no `node:` module)
// and test/edge (a bundle run in Chromium and Deno), so that the three measure the same thing.
import { build } from 'esbuild';

/**
 * @param {{ code: string, resolveDir: string, minify?: boolean, target?: string, alias?: Record<string, string> }} app
 * @returns {Promise<{ bytes: Uint8Array, text: string, metafile: import('esbuild').Metafile }>}
 */
export async function bundleForBrowser({ code, resolveDir, minify = true, target, alias }) {
  const result = await build({
    stdin: { contents: code, loader: 'js', resolveDir, sourcefile: 'app.js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify,
    write: false,
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: {},
    ...(target ? { target } : {}),
    ...(alias ? { alias } : {}),
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle');
  return { bytes: output.contents, text: output.text, metafile: result.metafile };
}
