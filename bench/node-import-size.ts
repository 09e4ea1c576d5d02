/**
 * What `import 'haggle'` loads under Node before any of it runs: the main entry's Node build
 * (dist/index.js) and every chunk it imports statically, transitively. Each layer a user reaches through
 * a subpath (`haggle/server`, `haggle/evaluation`, ...) should cost nothing here. Beside it, the same
 * walk from `haggle/node` and from the core build (dist/core.js, the browser's main entry), for scale.
 *
 *   nice -n 10 npm run build && npx tsx bench/node-import-size.ts
 *
 * Sizes are deterministic for a given build: no runs to repeat. Prints a table and one JSON line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const dist = resolve(new URL('..', import.meta.url).pathname, 'dist');
if (!existsSync(join(dist, 'index.js'))) {
  console.error('no dist/index.js: run npm run build first');
  process.exit(2);
}

/** Static imports of an ES module emitted by tsup (`import ... from "./x.js"`, `import "./x.js"`). */
const STATIC_IMPORT = /(?:^|[;\n])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.[^"']+)["']/g;

function closure(entry: string): { files: string[]; bytes: number } {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(STATIC_IMPORT)) visit(resolve(dirname(file), match[1] as string));
  };
  visit(join(dist, entry));
  const files = [...seen];
  return { files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

const rows = [
  { name: "import 'haggle' (Node build, dist/index.js)", entry: 'index.js' },
  { name: "import 'haggle/node' (dist/node.js)", entry: 'node.js' },
  { name: "core build (dist/core.js, the browser's 'haggle')", entry: 'core.js' },
].map((row) => ({ ...row, ...closure(row.entry) }));

console.log('| what is imported | files loaded | KB |');
console.log('| --- | ---: | ---: |');
for (const row of rows)
  console.log(`| ${row.name} | ${row.files.length} | ${Math.round(row.bytes / 1024)} |`);
console.log(
  JSON.stringify({
    bench: 'node-import-size',
    rows: rows.map((row) => ({ entry: row.entry, files: row.files.length, bytes: row.bytes })),
  }),
);
