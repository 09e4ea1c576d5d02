// node-llama-cpp, the peer of bench/local-peers.ts, installed on demand into a git-ignored folder.
//
// Why not a devDependency (haggle's choice, measured on this machine with npm 11, 2026-12-07): npm
// installs every one of its optional platform packages that matches linux-x64, CUDA and Vulkan builds
// included; `npm install node-llama-cpp@3.22.1` added 124 packages and 725 MB in 59 s (the CUDA-ext
// build alone is 358 MB), which every `npm ci` in CI would pay for a benchmark no test runs. Installed
// here with only the CPU build (`@node-llama-cpp/linux-x64`), `--omit=optional` and `--ignore-scripts`
// (its postinstall would look for or build binaries), it is 117 packages and 85 MB in about 12 s, once.
// The tests never load it; `getLlama({ build: 'never' })` keeps it from building or downloading a
// binary, and it is only ever given a local GGUF path, so it never downloads a model.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_LLAMA_CPP_VERSION = '3.22.1';

/** The parts of node-llama-cpp's API the bench uses (its types live in the on-demand install). */
export interface LlamaModule {
  getLlama(options: { gpu: false; build: 'never'; logLevel?: string; maxThreads?: number }): Promise<Llama>;
  LlamaCompletion: new (options: { contextSequence: LlamaSequence }) => LlamaCompletion;
}
export interface Llama {
  loadModel(options: { modelPath: string; gpuLayers?: number; useMmap?: boolean }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
  dispose(): Promise<void>;
  readonly cpuMathCores: number;
}
export interface LlamaModel {
  createContext(options: {
    contextSize: number;
    sequences: number;
    threads?: number;
    batchSize?: number;
  }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
export interface LlamaContext {
  getSequence(): LlamaSequence;
  dispose(): Promise<void>;
}
export interface LlamaSequence {
  controlledEvaluate(
    input: (
      | number
      | [
          number,
          { generateNext?: { logits?: { filter: { tokens: readonly number[]; includeTop?: number } } } },
        ]
    )[],
  ): Promise<({ next: { logits?: Map<number, number> } } | undefined)[]>;
  clearHistory(): Promise<void>;
  dispose(): void;
}
export interface LlamaCompletion {
  generateCompletionWithMeta(
    input: number[],
    options: {
      grammar?: unknown;
      maxTokens?: number;
      temperature?: number;
      seed?: number;
      onToken?: (tokens: number[]) => void;
    },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
  dispose(): void;
}

/** Installs node-llama-cpp (CPU build only) under `folder` unless it is there; returns its module. */
export async function loadNodeLlamaCpp(folder: string): Promise<LlamaModule> {
  const packageJson = join(folder, 'node_modules', 'node-llama-cpp', 'package.json');
  const installed = existsSync(packageJson)
    ? (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
    : undefined;
  if (installed !== NODE_LLAMA_CPP_VERSION) {
    if (process.platform !== 'linux' || process.arch !== 'x64')
      throw new Error('bench/local-peers.ts installs the linux-x64 CPU build of node-llama-cpp only');
    mkdirSync(folder, { recursive: true });
    console.error(`installing node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (CPU build only) into ${folder} ...`);
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        folder,
        '--no-save',
        '--no-package-lock',
        '--ignore-scripts',
        '--omit=optional',
        '--no-audit',
        '--no-fund',
        `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
        `@node-llama-cpp/linux-x64@${NODE_LLAMA_CPP_VERSION}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
  }
  const entry = join(folder, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  return (await import(pathToFileURL(entry).href)) as LlamaModule;
}
