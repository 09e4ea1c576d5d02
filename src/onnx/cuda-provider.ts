import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Whether onnxruntime-node has its CUDA provider beside its binding. It ships the CPU provider only
 * unless installed with `ONNXRUNTIME_NODE_INSTALL=cuda12`; asking a build without the provider for CUDA
 * makes onnxruntime print a red native "Failed to load library" line before it throws, which a
 * newcomer on a CPU machine takes for a crash. Looking first lets haggle say it once, in its own words.
 * `undefined` when the package cannot be located (then session creation decides, as before).
 */
export function cudaProviderInstalled(): boolean | undefined {
  let binding: string;
  try {
    binding = createRequire(import.meta.url).resolve('onnxruntime-node');
  } catch {
    return undefined;
  }
  let root = dirname(binding);
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const folder = join(root, 'bin', 'napi-v6', process.platform, process.arch);
  if (!existsSync(folder)) return undefined;
  const library =
    process.platform === 'win32' ? 'onnxruntime_providers_cuda.dll' : 'libonnxruntime_providers_cuda.so';
  return existsSync(join(folder, library));
}
