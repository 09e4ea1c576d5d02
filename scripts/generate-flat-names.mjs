// Writes src/node/flat-names.ts: every name of the layers that left the main entry for a subpath
// (decoding, evaluation, report, server), re-exported from the main entry's Node build and marked
// deprecated with its subpath, so that imports from before the subpaths keep working under Node.
// Run it after a merge that adds names to those layers' index files, so no import from 'haggle' breaks:
//   node scripts/generate-flat-names.mjs && npx biome check --write src/node/flat-names.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const LAYERS = ['decoding', 'evaluation', 'report', 'server'];
const files = ['src/core.ts', ...LAYERS.map((layer) => `src/${layer}/index.ts`)].map((file) =>
  join(root, file),
);
const program = ts.createProgram(files, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

/** The names a module exports, and whether each is a type only (so re-exported with `type`). */
function exportsOf(file) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const typeOnlyExport = (symbol.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d));
    return { name: symbol.name, typeOnly: typeOnlyExport || !(target.flags & ts.SymbolFlags.Value) };
  });
}

const core = new Set(exportsOf(files[0]).map(({ name }) => name));
let out = `// The main entry's flat names from before the subpaths: kept in the Node build so that existing
// imports work, each marked deprecated with the subpath to import it from instead. Browsers, Deno and
// edge runtimes get the main entry without them. Drop in 0.3 (haggle's choice: one minor release of notice).
// Written by scripts/generate-flat-names.mjs; scripts/mark-deprecated-types.mjs puts the marks into dist.
`;
for (const layer of LAYERS) {
  const names = exportsOf(join(root, `src/${layer}/index.ts`))
    .filter(({ name }) => !core.has(name))
    .sort((a, b) => a.name.localeCompare(b.name));
  out += '\nexport {\n';
  for (const { name, typeOnly } of names) {
    out += `  /** @deprecated Import from \`haggle/${layer}\`. */\n  ${typeOnly ? 'type ' : ''}${name},\n`;
  }
  out += `} from '../${layer}/index.js';\n`;
}
writeFileSync(join(root, 'src/node/flat-names.ts'), out);
console.log('src/node/flat-names.ts written');
