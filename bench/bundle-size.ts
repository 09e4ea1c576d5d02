/**
 * Browser bundle size of the main entry: what an app pays to ship haggle to a page or an edge worker.
 * Bundles small apps with esbuild exactly as a user's bundler would (`platform: 'browser'`, minified,
 * `haggle` resolved through package.json's exports to the built `dist/`), beside a peer in the same run:
 * the openai-node client (`openai`, a dev dependency), a familiar reference for an HTTP LLM client.
 *
 *   npm run build && npx tsx bench/bundle-size.ts
 *
 * Prints a table, the packages that weigh most in the first row (from esbuild's metafile), and one
 * JSON line. Sizes are deterministic for a given build and lock file: no runs to repeat.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { bundleForBrowser } from '../scripts/browser-bundle.mjs';

const repoRoot = new URL('..', import.meta.url).pathname;

const APPS = [
  {
    name: 'NegotiationAgent + OpenAICompatibleBackend',
    code: "export { NegotiationAgent, OpenAICompatibleBackend } from 'haggle';",
  },
  { name: "the whole main entry (export * from 'haggle')", code: "export * from 'haggle';" },
  { name: 'peer: openai client (openai@6)', code: "export { default } from 'openai';" },
];

interface Row {
  name: string;
  minifiedBytes: number;
  gzipBytes: number;
  weights: [string, number][];
}

/** Bytes each package (or haggle's own dist) contributes to the minified output. */
function weightsOf(metafile: Metafile): [string, number][] {
  const byPackage = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
      const owner = match?.[1] ?? (file.startsWith('dist/') ? 'haggle (dist)' : file);
      byPackage.set(owner, (byPackage.get(owner) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage].sort((a, b) => b[1] - a[1]);
}

async function measure(name: string, code: string): Promise<Row> {
  const { bytes, metafile } = await bundleForBrowser({ code, resolveDir: repoRoot });
  const nodeInputs = Object.keys(metafile.inputs).filter((input) => input.startsWith('node:'));
  if (nodeInputs.length > 0) throw new Error(`${name}: the browser bundle reaches ${nodeInputs.join(', ')}`);
  return {
    name,
    minifiedBytes: bytes.length,
    gzipBytes: gzipSync(bytes, { level: 9 }).length,
    weights: weightsOf(metafile),
  };
}

if (!existsSync(join(repoRoot, 'dist', 'core.js'))) {
  console.error('bench/bundle-size.ts measures the built package: run `npm run build` first.');
  process.exit(1);
}

const rows: Row[] = [];
for (const app of APPS) rows.push(await measure(app.name, app.code));

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const width = Math.max(...rows.map((row) => row.name.length));
console.log(`| ${'bundle'.padEnd(width)} | minified KB | min+gzip KB |`);
console.log(`| ${'-'.repeat(width)} | ----------: | ----------: |`);
for (const row of rows) {
  console.log(
    `| ${row.name.padEnd(width)} | ${kb(row.minifiedBytes).padStart(11)} | ${kb(row.gzipBytes).padStart(11)} |`,
  );
}
const [first] = rows;
if (first) {
  console.log(`\nWhat weighs in "${first.name}" (minified KB):`);
  for (const [owner, bytes] of first.weights.slice(0, 6)) console.log(`  ${owner.padEnd(24)} ${kb(bytes)}`);
}
console.log(
  JSON.stringify({
    bench: 'bundle-size',
    esbuild: (await import('esbuild')).version,
    rows: rows.map(({ name, minifiedBytes, gzipBytes, weights }) => ({
      name,
      minifiedBytes,
      gzipBytes,
      top: Object.fromEntries(weights.slice(0, 6)),
    })),
  }),
);
