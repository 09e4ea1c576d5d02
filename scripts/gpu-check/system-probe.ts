import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { cudaProviderInstalled } from '../../src/onnx/cuda-provider.js';
import { CUDA_INSTALL_COMMAND } from '../../src/onnx/errors.js';

export interface GpuInfo {
  name: string;
  driver: string;
  memoryMiB: number;
  /** Peak memory bandwidth from the vendor's spec sheet, when the GPU is one gpu-check knows. */
  specBandwidthGBs: number | null;
}

export interface SystemProbe {
  /** GPUs nvidia-smi lists; empty when there is none or no nvidia-smi. */
  gpus: GpuInfo[];
  /** Why `gpus` is empty, in words. */
  gpuAbsentReason: string | null;
  /** Vulkan (what Dawn, onnxruntime's WebGPU, runs on under Linux). */
  vulkan: { available: boolean; detail: string };
  /** Execution providers this onnxruntime-node build has, and whether each is bundled. */
  onnxruntimeBackends: { name: string; bundled: boolean }[];
  /** Whether the CUDA provider library is installed, and the command that installs it if not. */
  cudaProvider: { installed: boolean | null; installCommand: string };
}

/**
 * Peak bandwidths (GB/s) from NVIDIA's data sheets, for the ratio to the bandwidth limit. Facts from
 * the vendor, matched on the name nvidia-smi prints; other GPUs need `--bandwidth-gbs`.
 */
const SPEC_BANDWIDTH: [RegExp, number][] = [
  [/H200/, 4800],
  [/H100.*(SXM|HBM3)/, 3350],
  [/H100.*PCIe/, 2000],
  [/H100/, 3350],
  [/A100.*80GB/, 2039],
  [/A100/, 1555],
  [/L40S/, 864],
  [/L4\b/, 300],
  [/A10G/, 600],
  [/A10\b/, 600],
  [/T4\b/, 320],
  [/RTX 4090/, 1008],
  [/RTX 3090/, 936],
];

export function specBandwidth(name: string): number | null {
  for (const [pattern, bandwidth] of SPEC_BANDWIDTH) if (pattern.test(name)) return bandwidth;
  return null;
}

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch {
    return null;
  }
}

export function probeSystem(): SystemProbe {
  const smi = run('nvidia-smi', [
    '--query-gpu=name,driver_version,memory.total',
    '--format=csv,noheader,nounits',
  ]);
  const gpus: GpuInfo[] = (smi ?? '')
    .split('\n')
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter((parts) => parts.length >= 3 && parts[0])
    .map(([name, driver, memory]) => ({
      name: name as string,
      driver: driver as string,
      memoryMiB: Number(memory),
      specBandwidthGBs: specBandwidth(name as string),
    }));
  const gpuAbsentReason =
    gpus.length > 0
      ? null
      : smi === null
        ? existsSync('/dev/nvidiactl')
          ? '/dev/nvidiactl exists but nvidia-smi did not run'
          : 'no NVIDIA GPU: nvidia-smi is not installed or failed, and there is no /dev/nvidiactl'
        : 'nvidia-smi lists no GPU';
  const summary = run('vulkaninfo', ['--summary']);
  const loader = /libvulkan\.so\.1/.test(run('ldconfig', ['-p']) ?? '');
  const vulkan = summary
    ? {
        available: true,
        detail: (summary.match(/deviceName\s*=\s*(.+)/g) ?? []).join('; ') || 'vulkaninfo ran',
      }
    : loader
      ? { available: true, detail: 'libvulkan.so.1 is installed (no vulkaninfo to list devices)' }
      : {
          available: false,
          detail: 'no Vulkan loader (libvulkan.so.1) and no vulkaninfo: WebGPU (Dawn) has no adapter',
        };
  return {
    gpus,
    gpuAbsentReason,
    vulkan,
    onnxruntimeBackends: ort.listSupportedBackends(),
    cudaProvider: { installed: cudaProviderInstalled() ?? null, installCommand: CUDA_INSTALL_COMMAND },
  };
}
