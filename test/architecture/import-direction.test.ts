import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, type SourceGraph, SRC, sourceGraph } from './source-graph.js';

/**
 * The layers of src/, top first, as docs/DESIGN's "Layers (imports only point downwards)" gives them:
 * a module may import its own layer and the layers below it, never one above. Written here once; a new
 * folder under src/ must be placed in this list before its test passes.
 */
const LAYERS = [
  'cli',
  'server',
  'env',
  'report',
  'evaluation',
  'ai-sdk',
  'multi-issue',
  'onnx',
  'simulation',
  'agent',
  'baselines',
  'backends',
  'decoding',
  'prompt',
  'rules',
  'contract',
  'internal',
] as const;

/**
 * The package's entry points: they assemble layers (any but the CLI), and no layer imports them.
 * `index.ts` and `core.ts` are the main entry's two builds, `entries/` the subpaths, `node/` and
 * `testing/` the Node-only pieces and the mock backend that entries export.
 */
const ENTRY_POINTS = new Set(['index', 'core', 'entries', 'node', 'testing']);

/** The folder (or top-level file, less `.ts`) of a module of src/. */
const topOf = (module: string) => (module.split('/')[0] as string).replace(/\.ts$/, '');

function rankOf(module: string): number {
  const top = topOf(module);
  const rank = LAYERS.indexOf(top as (typeof LAYERS)[number]);
  if (rank < 0) throw new Error(`src/${top} is in no layer: add it to LAYERS in ${import.meta.url}`);
  return rank;
}

/** Each import that runs up the layers or into an entry point, as "from -> to". */
function wrongWay(graph: SourceGraph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph.imports) {
    const fromEntry = ENTRY_POINTS.has(topOf(from));
    for (const to of targets) {
      if (ENTRY_POINTS.has(topOf(to))) {
        if (!fromEntry) found.push(`${from} -> ${to} (a layer imports an entry point)`);
        continue;
      }
      if (fromEntry) {
        if (topOf(to) === 'cli') found.push(`${from} -> ${to} (an entry point imports the CLI)`);
        continue;
      }
      if (rankOf(to) < rankOf(from)) found.push(`${from} -> ${to} (${topOf(from)} is below ${topOf(to)})`);
    }
  }
  return found.sort();
}

/**
 * The decoder's roles under src/decoding/, lowest first, as docs/decoding.md's "Architecture" gives them:
 * a module may import its own role and the roles below it, type-only imports included. `errors.ts` sits
 * below every role; `testing/` (the tests' hooks) and `index.ts` (the layer's entry) above them all.
 */
const DECODER_ROLES = [
  'errors',
  'vocabulary',
  'regex',
  'grammar',
  'schema',
  'mask',
  'compiler',
  'sampling',
  'matcher',
  'testing',
  'index',
] as const;

/** The role of a module of src/decoding/ (its folder, or its file name less `.ts`), or null outside. */
function roleOf(module: string): string | null {
  if (!module.startsWith('decoding/')) return null;
  return (module.split('/')[1] as string).replace(/\.ts$/, '');
}

function roleRank(module: string): number {
  const role = roleOf(module) as string;
  const rank = DECODER_ROLES.indexOf(role as (typeof DECODER_ROLES)[number]);
  if (rank < 0)
    throw new Error(`src/decoding/${role} has no role: add it to DECODER_ROLES in ${import.meta.url}`);
  return rank;
}

/** Each import between decoder roles that runs up the order, as "from -> to". */
function decoderWrongWay(graph: SourceGraph): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph.imports) {
    if (roleOf(from) === null) continue;
    for (const to of targets) {
      if (roleOf(to) === null || roleOf(to) === roleOf(from)) continue;
      if (roleRank(to) > roleRank(from))
        found.push(`${from} -> ${to} (${roleOf(from)} is below ${roleOf(to)})`);
    }
  }
  return found.sort();
}

describe("import direction: the decoder's roles only import downwards", () => {
  const graph = sourceGraph();

  it('places every module of src/decoding/ in a role', () => {
    const decoding = graph.modules.filter((module) => roleOf(module) !== null);
    // A scanner that found no decoder module would pass the check below.
    expect(decoding.length).toBeGreaterThan(50);
    for (const module of decoding) expect(roleRank(module)).toBeGreaterThanOrEqual(0);
  });

  it('has no import that runs up the roles, type-only imports included', () => {
    expect(decoderWrongWay(graph)).toEqual([]);
  });

  it('catches an upward import when there is one', () => {
    const imports = new Map(graph.imports);
    imports.set('decoding/vocabulary/token-trie.ts', [
      ...(imports.get('decoding/vocabulary/token-trie.ts') ?? []),
      'decoding/matcher/grammar-matcher.ts',
    ]);
    expect(decoderWrongWay({ modules: graph.modules, imports })).toContain(
      'decoding/vocabulary/token-trie.ts -> decoding/matcher/grammar-matcher.ts (vocabulary is below matcher)',
    );
  });
});

describe('import direction: layers only import downwards, and no module imports itself back', () => {
  const graph = sourceGraph();

  it('reads the whole source tree', () => {
    // A scanner that found nothing would pass every check below.
    expect(graph.modules.length).toBeGreaterThan(300);
    expect(graph.imports.get('agent/negotiation-agent.ts')).toContain('backends/language-backend.ts');
  });

  it('has no import that runs up the layers or into an entry point', () => {
    expect(wrongWay(graph)).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(importCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('catches an upward import and a cycle when there is one', () => {
    const imports = new Map(graph.imports);
    imports.set('contract/turn.ts', [
      ...(imports.get('contract/turn.ts') ?? []),
      'agent/negotiation-agent.ts',
    ]);
    imports.set('internal/random.ts', ['internal/sha256.ts']);
    imports.set('internal/sha256.ts', ['internal/random.ts']);
    const broken = { modules: graph.modules, imports };
    expect(wrongWay(broken)).toContain(
      'contract/turn.ts -> agent/negotiation-agent.ts (contract is below agent)',
    );
    expect(importCycles(broken).map((cycle) => cycle.join(' -> '))).toContain(
      'internal/random.ts -> internal/sha256.ts',
    );
  });
});

describe('decoder test hooks: in decoding/testing/, which the library never imports', () => {
  it('no module outside decoding/testing/ imports it', () => {
    const graph = sourceGraph();
    const hooks = graph.modules.filter((module) => module.startsWith('decoding/testing/'));
    // A scanner that found no hook would pass the check below.
    expect(hooks).toContain('decoding/testing/reference-mask.ts');
    const importers = [...graph.imports]
      .filter(
        ([from, targets]) =>
          !from.startsWith('decoding/testing/') && targets.some((to) => hooks.includes(to)),
      )
      .map(([from]) => from);
    expect(importers).toEqual([]);
  });
});

describe('environment variables: read in one module of the library', () => {
  it('reads process.env only in src/internal/environment.ts and the CLI', () => {
    const readers = sourceGraph()
      .modules.filter((module) => !module.startsWith('cli/') && module !== 'internal/environment.ts')
      .filter((module) => /\bprocess\.env\b/.test(codeOf(readFileSync(join(SRC, module), 'utf8'))));
    expect(readers).toEqual([]);
  });
});

/** The text of a module without its comments (a doc example may show `process.env`). */
function codeOf(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}
