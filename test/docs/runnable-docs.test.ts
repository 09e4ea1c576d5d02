import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { type DocBlock, docFiles, exampleBlocks, readDocBlocks, runsInClone } from './doc-blocks.js';
import { cloneLikeFolder, filesWritten, notIgnored, runShellBlock } from './shell-blocks.js';

// Docs that cannot drift: every fenced block of README.md, docs/*.md and examples/*/README.md marked
// `runnable` runs here, against the built package (dist/), as a reader would run it. Shell blocks run
// verbatim (`npx haggle` is bin/haggle.js, `npx esbuild` the clone's), each doc file in its own scratch
// folder (a clone-like one for an example's README), block after block, so a later block may use the
// files an earlier one wrote. The count of blocks run and of those not runnable, with their reasons, is
// printed. TypeScript blocks are type-checked together (one tsc run) with
// 'haggle' resolved through the package's exports; those followed by a `text output` block are also
// run (from the sources, through tsx), and must print exactly that, as must a shell block followed by one. Every sh or ts block is either runnable or says why
// not in a `<!-- not runnable: … -->` comment above it. The marker is documented in docs/testing.md.
// The `@example` blocks of the sources' doc comments (what the API reference shows) are type-checked
// in the same tsc run, and the main entry points must have one.

const run = promisify(execFile);
const repoRoot = new URL('../..', import.meta.url).pathname;
const scratch = join(repoRoot, '.cache', 'doc-blocks');
const CODE_LANGUAGES = ['sh', 'bash', 'ts', 'typescript'];

const blocks = docFiles(repoRoot).flatMap((file) => readDocBlocks(repoRoot, file));
const examples = exampleBlocks(repoRoot);
/** The names a reader meets first: each shows an example in the API reference. */
const MAIN_ENTRY_POINTS = [
  'NegotiationAgent',
  'Session',
  'simulate',
  'OpenAICompatibleBackend',
  'OnnxBackend',
  'PopulationAgent',
  'runTournament',
  'writeReport',
  'OpenAIServer',
];
const where = (block: DocBlock) => `${block.file}:${block.line}`;

if (!existsSync(join(repoRoot, 'dist', 'cli.js')) || !existsSync(join(repoRoot, 'dist', 'index.d.ts')))
  throw new Error(
    'the runnable docs run against the built package: run `npm run build` first (npm test does)',
  );
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.concurrent('runnable docs', () => {
  it('every sh or ts block is marked runnable or says why not; the count is printed', () => {
    const code = blocks.filter((block) => CODE_LANGUAGES.includes(block.language));
    const runnable = code.filter((block) => block.runnable);
    const explained = code.filter((block) => !block.runnable && block.notRunnable);
    const silent = code.filter((block) => !block.runnable && !block.notRunnable).map(where);
    const other = blocks.filter((block) => !CODE_LANGUAGES.includes(block.language));
    // Why the others do not run, most common reason first: what a reader of the log checks.
    const reasons = new Map<string, string[]>();
    for (const block of explained)
      reasons.set(block.notRunnable as string, [
        ...(reasons.get(block.notRunnable as string) ?? []),
        where(block),
      ]);
    console.log(
      `doc blocks: ${runnable.length} runnable, ${explained.length} not runnable (with a reason), ` +
        `${other.length} not code (output, json, text); sh/ts blocks by file:\n` +
        docFiles(repoRoot)
          .map((file) => {
            const mine = code.filter((block) => block.file === file);
            const ran = mine.filter((block) => block.runnable).length;
            return mine.length === 0 ? '' : `  ${file}: ${ran} of ${mine.length} runnable\n`;
          })
          .join('') +
        `not runnable, by reason (${reasons.size} reasons):\n` +
        [...reasons]
          .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
          .map(([reason, at]) => `  ${at.length} × ${reason}: ${at.join(', ')}\n`)
          .join(''),
    );
    expect(silent, 'sh/ts blocks neither runnable nor explained').toEqual([]);
    expect(runnable.length).toBeGreaterThan(10);
  });

  // One scratch folder per doc file (a clone-like one for an example's README); its shell blocks in order.
  const shellFiles = [...new Set(blocks.filter(isRunnableShell).map((block) => block.file))];
  it.each(shellFiles)(
    '%s: its runnable shell blocks exit 0 against the built CLI and print their text output',
    async (file) => {
      const dir = join(scratch, file.replace(/[/.]/g, '_'));
      mkdirSync(dir, { recursive: true });
      const copied = runsInClone(file) ? cloneLikeFolder(repoRoot, dir) : new Set<string>();
      for (const block of blocks.filter((b) => b.file === file && isRunnableShell(b))) {
        const { failure, stdout } = await runShellBlock(repoRoot, block, dir);
        expect(
          failure,
          `${where(block)} failed (exit ${failure?.code}): ${failure?.stderr?.slice(-2000)}`,
        ).toBe(undefined);
        // A `text output` block after a shell block is what its commands print on stdout, exactly.
        const output = expectedOutput(block);
        if (output !== undefined) expect(stdout.trimEnd(), `${where(block)} printed`).toBe(output.trimEnd());
      }
      // What the commands wrote, had a reader typed them in a clone, is git-ignored: never committed by mistake.
      expect(
        notIgnored(repoRoot, filesWritten(dir, copied)),
        `${file}: written and not in .gitignore`,
      ).toEqual([]);
    },
    120_000,
  );

  it('the main entry points have an @example in their doc comment, in TypeScript', () => {
    const documented = new Set(examples.filter((block) => block.runnable).map((block) => block.subject));
    expect(MAIN_ENTRY_POINTS.filter((name) => !documented.has(name))).toEqual([]);
    expect(examples.filter((block) => !block.runnable).map(where), '@example blocks not in ts').toEqual([]);
  });

  it('runnable ts blocks and @example blocks type-check against the built package (strict)', async () => {
    const dir = join(scratch, 'ts');
    mkdirSync(dir, { recursive: true });
    const names = [...tsBlocks(), ...examples].map((block) => {
      const name = `${block.file.replace(/[/.]/g, '_')}_${block.line}.ts`;
      // A snippet without import or export is still a module, as every block a reader pastes is.
      const isModule = /^\s*(import|export)\s/m.test(block.code);
      writeFileSync(join(dir, name), `${block.code}\n${isModule ? '' : 'export {};\n'}`);
      return name;
    });
    writeFileSync(join(dir, 'doc-globals.d.ts'), DOC_GLOBALS);
    // 'haggle' resolves as in a reader's project: node_modules/haggle (this repository), its package.json
    // exports, the built declarations in dist/ (npm test builds before it tests).
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    symlinkSync(repoRoot, join(dir, 'node_modules', 'haggle'), 'dir');
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.json',
        compilerOptions: {
          paths: {},
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
          // What `strict` gives a reader; the repository's own extra index check is not theirs.
          noUncheckedIndexedAccess: false,
        },
        include: [...names, 'doc-globals.d.ts'],
      }),
    );
    const result = await run(
      process.execPath,
      [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', dir],
      { cwd: repoRoot, timeout: 120_000 },
    ).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 120_000);

  const withOutput = tsBlocks().flatMap((block) => {
    const output = expectedOutput(block);
    return output === undefined ? [] : [{ block, output }];
  });
  it.each(withOutput.map(({ block, output }) => [where(block), block, output] as const))(
    '%s prints what the doc says',
    async (_where, block, output) => {
      const file = join(scratch, `run_${block.file.replace(/[/.]/g, '_')}_${block.line}.ts`);
      writeFileSync(file, block.code);
      // From the repository root, so tsx maps 'haggle' to the sources through tsconfig.json's paths.
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
        cwd: repoRoot,
        timeout: 60_000,
      });
      expect(stdout.trimEnd()).toBe(output.trimEnd());
    },
    60_000,
  );
});

function isRunnableShell(block: DocBlock): boolean {
  return block.runnable && (block.language === 'sh' || block.language === 'bash');
}

function tsBlocks(): DocBlock[] {
  return blocks.filter(
    (block) => block.runnable && (block.language === 'ts' || block.language === 'typescript'),
  );
}

/** The `text output` block right after `block` in the same file, if there is one. */
function expectedOutput(block: DocBlock): string | undefined {
  const next = blocks[blocks.indexOf(block) + 1];
  return next && next.file === block.file && next.output ? next.code : undefined;
}

/**
 * The values the docs' snippets take as given (the listing, the conversation so far, a signal, a
 * backend, the agent or session of the block above, ...), declared for the type check only: a block
 * that declares its own shadows them. The list is in docs/testing.md.
 */
const DOC_GLOBALS = `import type {
  HistoryEntry,
  LanguageBackend,
  ListingContext,
  NegotiationAgent,
  Negotiator,
  Rules,
  Session,
  SessionResult,
} from 'haggle';
import type { MockLanguageBackend } from 'haggle/testing';
declare global {
  const context: ListingContext;
  const contexts: ListingContext[];
  const history: HistoryEntry[];
  const signal: AbortSignal;
  const backend: LanguageBackend;
  const buyer: Negotiator;
  const seller: Negotiator;
  const rules: Rules;
  const agent: NegotiationAgent;
  const session: Session;
  const sessions: SessionResult[];
  const mock: MockLanguageBackend;
  const expect: typeof import('vitest').expect;
  /** decoding.md: a token id, and your model's forward pass. */
  const tokenId: number;
  const model: { forward(tokens: readonly number[]): Promise<Float32Array> };
}
export {};
`;
