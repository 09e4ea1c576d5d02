import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** README.md and every docs/*.md of the repository, relative paths. */
export function docFiles(repoRoot: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(repoRoot, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

export function readDocBlocks(repoRoot: string, file: string): DocBlock[] {
  return docBlocks(file, readFileSync(join(repoRoot, file), 'utf8'));
}
