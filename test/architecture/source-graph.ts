import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** `src/`'s modules and what each imports of `src/` (static, type-only, re-exports, `import()`, `require`). */
export interface SourceGraph {
  /** Paths relative to `src/`, with `/` separators. */
  readonly modules: readonly string[];
  readonly imports: ReadonlyMap<string, readonly string[]>;
}

export const SRC = resolve(new URL('../../src', import.meta.url).pathname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Reads every `.ts` file under `root` with TypeScript's own import scanner (no type-checking). */
export function sourceGraph(root: string = SRC): SourceGraph {
  const files = sourceFiles(root);
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const scanned = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = scanned.importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(root, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    imports.set(relative(root, file), [...new Set(targets)]);
  }
  return { modules: [...imports.keys()].sort(), imports };
}

/** Every import cycle, as the modules of each strongly connected component of two or more (Tarjan). */
export function importCycles(graph: SourceGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string) => {
    index.set(module, counter);
    low.set(module, counter++);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.imports.get(module) ?? []) {
      if (!graph.imports.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module) as number, index.get(target) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const module of graph.modules) if (!index.has(module)) visit(module);
  return cycles;
}
