import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { hubEnvironment } from '../internal/environment.js';
import { describeCheck } from '../onnx/model-build/build-check.js';
import { buildModel } from '../onnx/model-build/build-model.js';
import { BuildCheckFailedError } from '../onnx/model-build/errors.js';
import { pullRepository, resolveHubRevision } from '../onnx/model-build/hub-pull.js';
import { MODEL_DTYPES, type ModelDtype } from '../onnx/model-build/stored-weights.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { ProgressBar } from './progress-bar.js';

interface ModelBuildCliOptions {
  base: string;
  downloadDir: string;
  adapter?: string;
  out: string;
  dtype: string;
  check?: boolean;
  overwrite?: boolean;
  idleTimeout: string;
}

/** `--idle-timeout SECONDS` in milliseconds, or a usage error. */
function idleTimeoutMs(value: string): number {
  const seconds = Number(value);
  if (!(seconds > 0) || !Number.isFinite(seconds))
    throw new CliUsageError(`--idle-timeout must be a positive number of seconds, got ${value}`);
  return Math.round(seconds * 1000);
}

const IDLE_TIMEOUT_HELP = 'seconds without a byte from the hub before a download is given up (resumable)';

/**
 * `haggle model build --base DIR [--adapter DIR] --out DIR [--dtype fp32|fp16|q4f16|q4|q8[,...]] [--check]`:
 * a Hugging Face Qwen3 checkpoint (and a PEFT LoRA adapter, merged) to the ONNX folder that
 * `--backend onnx --model DIR` loads, without Python.
 */
export function registerModelCommand(program: Command, io: CliIo, signal: AbortSignal): void {
  const model = program
    .command('model')
    .description('pull and build a local ONNX model folder for --backend onnx');
  registerModelPullCommand(model, io, signal);
  model
    .command('build')
    .description(
      'turn a Hugging Face Qwen3 checkpoint (and a PEFT LoRA adapter, merged in) into the ONNX folder --backend onnx loads',
    )
    .requiredOption(
      '--base <dir>',
      'the base checkpoint folder: config.json, *.safetensors (+ index), tokenizer files',
    )
    .option('--adapter <dir>', 'a PEFT LoRA adapter folder: adapter_config.json, adapter_model.safetensors')
    .requiredOption('-o, --out <dir>', 'the model folder to write')
    .option(
      '--dtype <list>',
      'fp32, fp16, q4f16, q4 or q8 (4- or 8-bit weights, float32 activations: for CPUs), or several separated by commas',
      'fp32',
    )
    .option('--check', 'compare each export with a float64 reference forward pass; exit 1 if one is off')
    .option('--overwrite', 'replace a non-empty --out')
    .option(
      '--download-dir <dir>',
      'where hf:ORG/NAME[@REVISION] repositories are pulled to (each in ORG--NAME/COMMIT)',
      join(homedir(), '.cache', 'haggle', 'hub'),
    )
    .option('--idle-timeout <seconds>', IDLE_TIMEOUT_HELP, '60')
    .exitOverride()
    // Commander's own messages become main.ts's one line, as for the top-level verbs.
    .configureOutput({ outputError: () => {} })
    .action(async (options: ModelBuildCliOptions) => {
      const dtypes = options.dtype.split(',').map((d) => d.trim());
      for (const dtype of dtypes)
        if (!MODEL_DTYPES.includes(dtype as ModelDtype))
          throw new CliUsageError(
            `--dtype must be fp32, fp16, q4f16, q4 or q8 (or several, comma-separated); got ${dtype}`,
          );
      const idle = idleTimeoutMs(options.idleTimeout);
      // hf:ORG/NAME[@REVISION]: the revision (default main) resolved to its commit, pulled (resumable,
      // checksummed) into a folder named after that commit, then built from the local copy. A new
      // commit on the hub is a new folder; files of the old one are never mistaken for it.
      const local = async (source: string) => {
        if (!source.startsWith('hf:')) return source;
        const [repo, revision = 'main'] = source.slice(3).split('@') as [string, string?];
        const commit = await resolveHubRevision(repo, {
          ...hubEnvironment(),
          revision,
          signal,
          idleTimeoutMs: idle,
        });
        const folder = join(options.downloadDir, repo.replace('/', '--'), commit);
        await pullWithProgress(repo, folder, io, signal, commit, idle);
        return folder;
      };
      const base = await local(options.base);
      const adapter = options.adapter ? await local(options.adapter) : undefined;
      let bar: ProgressBar | undefined;
      const result = await buildModel({
        base,
        out: options.out,
        dtype: dtypes as ModelDtype[],
        ...(adapter ? { adapter } : {}),
        ...(options.check ? { check: true } : {}),
        ...(options.overwrite ? { overwrite: true } : {}),
        signal,
        onProgress: (event) => {
          if (event.phase === 'hash') io.stderr.write(`haggle: hashing ${event.file}\n`);
          if (event.phase === 'tensor') {
            bar ??= new ProgressBar(io.stderr, `build ${event.dtype}`, { unit: 'tensors' });
            bar.update(event.index + 1, event.total, event.name);
          }
          if (event.phase === 'written') {
            bar?.finish();
            bar = undefined;
            io.stderr.write(
              `haggle: wrote ${event.file} (+ _data): ${(event.bytes / 2 ** 30).toFixed(2)} GiB in ${(event.ms / 1000).toFixed(1)} s\n`,
            );
          }
          if (event.phase === 'check')
            io.stderr.write(`haggle: checking ${event.dtype} against the float64 reference\n`);
        },
      });
      for (const warning of result.warnings) io.stderr.write(`haggle: warning: ${warning}\n`);
      for (const check of result.checks) io.stdout.write(`${describeCheck(check)}\n`);
      io.stdout.write(
        `built ${result.out} (${result.record.dtypes.join(', ')}${result.record.adapter ? `; adapter merged into ${result.record.adapter.mergedProjections} projections` : ''}): haggle predict --backend onnx --model ${result.out}\n`,
      );
      const failed = result.checks.filter((check) => !check.ok);
      if (failed.length > 0)
        throw new BuildCheckFailedError({ folder: result.out, details: failed.map(describeCheck) });
    });
}

/** `haggle model pull REPO --out DIR`: a hub repository's model files, resumable and checksummed. */
export function registerModelPullCommand(model: Command, io: CliIo, signal: AbortSignal): void {
  model
    .command('pull')
    .description("download a Hugging Face repository's model files (config, safetensors, tokenizer, adapter)")
    .argument('<repo>', 'ORG/NAME, e.g. Qwen/Qwen3-4B')
    .requiredOption('-o, --out <dir>', 'the folder to download into')
    .option('--revision <rev>', 'branch, tag or commit (pulled at the commit it points to now)', 'main')
    .option('--idle-timeout <seconds>', IDLE_TIMEOUT_HELP, '60')
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .action(async (repo: string, options: { out: string; revision: string; idleTimeout: string }) => {
      const idle = idleTimeoutMs(options.idleTimeout);
      const commit = await resolveHubRevision(repo, {
        ...hubEnvironment(),
        revision: options.revision,
        signal,
        idleTimeoutMs: idle,
      });
      const pulled = await pullWithProgress(repo, options.out, io, signal, commit, idle);
      const fresh = pulled.filter((file) => !file.skipped).length;
      io.stdout.write(
        `pulled ${repo} at ${commit} into ${options.out}: ${fresh} downloaded, ${pulled.length - fresh} already there\n`,
      );
    });
}

async function pullWithProgress(
  repo: string,
  out: string,
  io: CliIo,
  signal: AbortSignal,
  commit: string,
  idleTimeoutMs: number,
) {
  let bar: ProgressBar | undefined;
  let current = '';
  // Off a terminal, one line when a file stops receiving bytes (the bar itself is silent there).
  let saidStalled = false;
  const pulled = await pullRepository(repo, {
    ...hubEnvironment(),
    out,
    signal,
    revision: commit,
    idleTimeoutMs,
    onProgress: (event) => {
      if (event.file !== current) {
        bar?.finish();
        current = event.file;
        bar = new ProgressBar(io.stderr, `pull ${basename(event.file)}`, { unit: 'bytes' });
      }
      if (event.stalledMs === undefined) {
        saidStalled = false;
        bar?.update(event.bytes, event.total);
        return;
      }
      const waiting = `stalled: no byte for ${Math.floor(event.stalledMs / 1000)} s (gives up after ${idleTimeoutMs / 1000} s)`;
      if (bar?.enabled) bar.update(event.bytes, event.total, waiting);
      else if (!saidStalled) io.stderr.write(`haggle: pull ${basename(event.file)}: ${waiting}\n`);
      saidStalled = true;
    },
  });
  bar?.finish();
  return pulled;
}
