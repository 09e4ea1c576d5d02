// Every entry's exported names, values and types, as a snapshot under test/package/entry-names/: a change
// to the public surface is a visible diff in review, never a side effect. Also: the main entry stays at
// most 120 runtime names (haggle's choice, docs/entry-points.md), and one name means one thing in every
// entry (no two entries export different declarations under one name).
//
// After a deliberate change: HAGGLE_UPDATE_ENTRY_NAMES=1 npx vitest run test/package/entry-names.test.ts
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;
const snapshots = join(root, 'test', 'package', 'entry-names');
const MAX_MAIN_VALUES = 120;

/** Entry name (as a user imports it) -> its source file. */
const ENTRIES: Record<string, string> = {
  haggle: 'src/index.ts',
  'haggle (browsers, Deno, edge)': 'src/core.ts',
  'haggle/node': 'src/node/index.ts',
  'haggle/metrics': 'src/entries/metrics.ts',
  'haggle/decoding': 'src/entries/decoding.ts',
  'haggle/evaluation': 'src/entries/evaluation.ts',
  'haggle/env': 'src/entries/env.ts',
  'haggle/report': 'src/entries/report.ts',
  'haggle/server': 'src/entries/server.ts',
  'haggle/onnx': 'src/entries/onnx.ts',
  'haggle/testing': 'src/entries/testing.ts',
  'haggle/ai-sdk': 'src/entries/ai-sdk.ts',
};

interface Exported {
  name: string;
  kind: 'value' | 'type';
  /** Where the declaration behind the name is: one concept, one place. */
  declaredAt: string;
}

function readEntries(): Map<string, Exported[]> {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(
    Object.values(ENTRIES).map((file) => join(root, file)),
    parsed.options,
  );
  const checker = program.getTypeChecker();
  const out = new Map<string, Exported[]>();
  for (const [entry, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    if (!source) throw new Error(`${file} is not in the program`);
    const module = checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file} is not a module`);
    const names = checker.getExportsOfModule(module).map((symbol): Exported => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      const at = declaration
        ? `${declaration.getSourceFile().fileName.slice(root.length)}:${declaration.getStart()}`
        : '?';
      const isValue = (target.flags & ts.SymbolFlags.Value) !== 0;
      return { name: symbol.getName(), kind: isValue ? 'value' : 'type', declaredAt: at };
    });
    out.set(
      entry,
      names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    );
  }
  return out;
}

const entries = readEntries();
const fileOf = (entry: string) =>
  join(
    snapshots,
    `${entry === 'haggle (browsers, Deno, edge)' ? 'haggle-core' : entry.replace('/', '-')}.txt`,
  );
const render = (names: Exported[]) => `${names.map((n) => `${n.kind} ${n.name}`).join('\n')}\n`;

describe('the public surface of each entry', () => {
  it.each([...entries.keys()])('%s exports exactly the names in its snapshot', (entry) => {
    const actual = render(entries.get(entry) as Exported[]);
    const file = fileOf(entry);
    if (process.env.HAGGLE_UPDATE_ENTRY_NAMES === '1' || !existsSync(file)) {
      mkdirSync(snapshots, { recursive: true });
      if (process.env.CI && !existsSync(file)) throw new Error(`no snapshot for ${entry}: ${file}`);
      writeFileSync(file, actual);
    }
    const expected = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const lines = actual.split('\n').filter(Boolean);
    const added = lines.filter((line) => !expected.includes(line));
    const removed = expected.filter((line) => !lines.includes(line));
    expect(
      { added, removed },
      `${entry} changed: if that is meant, HAGGLE_UPDATE_ENTRY_NAMES=1 and commit the snapshot`,
    ).toEqual({ added: [], removed: [] });
  });

  it(`the main entry has at most ${MAX_MAIN_VALUES} runtime names`, () => {
    for (const entry of ['haggle', 'haggle (browsers, Deno, edge)']) {
      const values = (entries.get(entry) as Exported[]).filter((n) => n.kind === 'value');
      expect(values.length, entry).toBeLessThanOrEqual(MAX_MAIN_VALUES);
      expect(values.length, entry).toBeGreaterThan(50);
    }
  });

  it('one name is one declaration across every entry', () => {
    const seen = new Map<string, { entry: string; declaredAt: string }>();
    const clashes: string[] = [];
    for (const [entry, names] of entries) {
      for (const { name, declaredAt } of names) {
        const first = seen.get(name);
        if (!first) seen.set(name, { entry, declaredAt });
        // The core and the Node build of the main entry give two builds of two names on purpose.
        else if (first.declaredAt !== declaredAt && !['OpenAICompatibleBackend', 'simulate'].includes(name))
          clashes.push(`${name}: ${first.entry} (${first.declaredAt}) and ${entry} (${declaredAt})`);
      }
    }
    expect(clashes).toEqual([]);
  });
});
