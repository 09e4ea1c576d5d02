import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * A fenced code block of a Markdown file. The marker of a block that the docs test runs is the word
 * `runnable` after the language in its info string (```sh runnable, ```ts runnable): Markdown renderers
 * read only the first word, so readers see a plain sh or ts block. A `text output` block right after a
 * runnable block (only prose between them) is what that block must print, exactly. See docs/testing.md.
 */
export interface DocBlock {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  runnable: boolean;
  /** This block is the expected output of the runnable block before it. */
  output: boolean;
  /** The reason given in a `<!-- not runnable: … -->` comment right above the block, if any. */
  notRunnable?: string;
  /** For an `@example` of a doc comment: the name the comment documents. */
  subject?: string;
  code: string;
}

const FENCE = /^( {0,3})(`{3,})\s*([\w+-]*)\s*(.*)$/;
const NOT_RUNNABLE = /^<!--\s*not runnable:\s*(.+?)\s*-->$/;

/** Every fenced block of `markdown`, in order. Indented fences (inside list items) count too. */
export function docBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (!open) continue;
    const [, indent = '', ticks = '```', language = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as string;
      if (line.trim().startsWith(ticks) && line.trim().replace(/`/g, '') === '') break;
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line);
    }
    const words = info.split(/\s+/).filter(Boolean);
    let above = i - 1;
    while (above >= 0 && (lines[above] as string).trim() === '') above--;
    const reason = above >= 0 ? NOT_RUNNABLE.exec((lines[above] as string).trim())?.[1] : undefined;
    blocks.push({
      file,
      line: i + 1,
      language,
      runnable: words.includes('runnable'),
      output: words.includes('output'),
      ...(reason ? { notRunnable: reason } : {}),
      code: body.join('\n'),
    });
    i = j;
  }
  return blocks;
}

/**
 * The Markdown a user reads for what to type: README.md, every docs/*.md and every example's README
 * (examples/NAME/README.md), relative paths.
 */
export function docFiles(repoRoot: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
    ...readdirSync(join(repoRoot, 'examples'), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(repoRoot, 'examples', entry.name, 'README.md')),
      )
      .map((entry) => `examples/${entry.name}/README.md`)
      .sort(),
  ];
}

/**
 * An example's README is read in a clone: its commands name the example's files by their path in the
 * repository (examples/NAME/main.ts), so its blocks run in a clone-like folder, where README.md's and
 * docs/'s run in an empty one, as for a user of the installed package.
 */
export function runsInClone(file: string): boolean {
  return file.startsWith('examples/');
}

export function readDocBlocks(repoRoot: string, file: string): DocBlock[] {
  return docBlocks(file, readFileSync(join(repoRoot, file), 'utf8'));
}

const DOC_COMMENT = /\/\*\*([\s\S]*?)\*\//g;
const DECLARATION =
  /^\s*export\s+(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:class|function|const|interface|type)\s+(\w+)/;

/**
 * The fenced blocks under `@example` in the doc comments of src/ (what the API reference shows), as
 * runnable blocks: each is type-checked like a runnable ts block of the docs. `line` is the fence's line
 * in the source file, `subject` the exported name the comment documents.
 */
export function exampleBlocks(repoRoot: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  for (const path of sourceFiles(join(repoRoot, 'src'))) {
    const text = readFileSync(path, 'utf8');
    const file = relative(repoRoot, path);
    for (const comment of text.matchAll(DOC_COMMENT)) {
      const body = comment[1] as string;
      const example = body.indexOf('@example');
      if (example < 0) continue;
      const firstLine = text.slice(0, comment.index).split('\n').length;
      const exampleLine = body.slice(0, example).split('\n').length - 1;
      // The comment's lines without their ` * `, from the @example tag on.
      const lines = body
        .split('\n')
        .slice(exampleLine)
        .map((line) => line.replace(/^\s*\* ?/, ''));
      const after = text.slice((comment.index ?? 0) + comment[0].length).split('\n', 2)[1] ?? '';
      const subject = DECLARATION.exec(after)?.[1];
      for (const block of docBlocks(file, lines.join('\n'))) {
        blocks.push({
          ...block,
          line: firstLine + exampleLine + block.line - 1,
          runnable: block.language === 'ts' || block.language === 'typescript',
          ...(subject ? { subject } : {}),
        });
      }
    }
  }
  return blocks;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
