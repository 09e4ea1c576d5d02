// Run by `npm run build` after tsup. The Node build of the main entry keeps the flat names of the other
// layers (src/node/flat-names.ts), each marked `@deprecated` with the subpath to use; the declaration
// bundler (rollup-plugin-dts, inside tsup) drops JSDoc on re-exported names, so this puts the marks back
// into dist/index.d.ts and dist/index.d.cts, where editors read them. It fails the build when a flat name
// is missing from those files, or when one of the files is not in the shape it expects.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Flat name -> the subpath that now holds it, read from the source that keeps them. */
export function flatNames() {
  const source = readFileSync(join(root, 'src/node/flat-names.ts'), 'utf8');
  const names = new Map();
  for (const block of source.matchAll(/export \{([^}]*)\} from '\.\.\/([a-z-]+)\/index\.js';/g)) {
    for (const line of block[1].split('\n')) {
      const name = line
        .trim()
        .replace(/^type /, '')
        .replace(/,$/, '');
      if (/^[A-Za-z_$][\w$]*$/.test(name)) names.set(name, `haggle/${block[2]}`);
    }
  }
  if (names.size === 0) throw new Error('src/node/flat-names.ts lists no names');
  return names;
}

function mark(file, names) {
  const path = join(root, 'dist', file);
  const marked = new Set();
  const text = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => {
      const match = /^export \{ (.*) \} from '([^']+)';$/.exec(line);
      if (!match) return line;
      const specifiers = match[1].split(', ');
      if (!specifiers.some((spec) => names.has(spec.split(' as ').pop()))) return line;
      const body = specifiers.map((spec) => {
        const name = spec.split(' as ').pop();
        if (!names.has(name)) return `  ${spec},`;
        marked.add(name);
        return `  /** @deprecated Import from \`${names.get(name)}\`; the main entry drops it in 0.3. */\n  ${spec},`;
      });
      return `export {\n${body.join('\n')}\n} from '${match[2]}';`;
    })
    .join('\n');
  const missing = [...names.keys()].filter((name) => !marked.has(name));
  if (missing.length > 0) throw new Error(`${file} does not re-export ${missing.join(', ')}`);
  writeFileSync(path, text);
  return marked.size;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = flatNames();
  for (const file of ['index.d.ts', 'index.d.cts']) {
    console.log(`${file}: ${mark(file, names)} flat names marked deprecated`);
  }
}
