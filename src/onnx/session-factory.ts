import { basename, dirname } from 'node:path';
import * as ort from 'onnxruntime-node';
import type { BackendWarning } from '../backends/language-backend.js';
import { ModelFolderError } from '../prompt/errors.js';
import { cudaProviderInstalled } from './cuda-provider.js';
import { CUDA_INSTALL_COMMAND, OnnxDeviceUnavailableError, onnxModelFolderError } from './errors.js';
import type { OnnxDevice } from './onnx-options.js';

export interface CreatedSession {
  session: ort.InferenceSession;
  device: OnnxDevice;
  warnings: BackendWarning[];
}

/**
 * Creates the session on the device asked for. onnxruntime-node ships the CPU provider only unless
 * installed with `ONNXRUNTIME_NODE_INSTALL=cuda12`; asking for a provider it lacks throws at session
 * creation, which is where the fallback to the CPU happens (with a warning) or, with
 * `fallback: false`, a typed error that says how to install the provider.
 */
export async function createSession(
  modelPath: string,
  device: OnnxDevice,
  options: { fallback: boolean; intraOpNumThreads: number | undefined },
): Promise<CreatedSession> {
  const base: ort.InferenceSession.SessionOptions = {
    graphOptimizationLevel: 'all',
    ...(options.intraOpNumThreads ? { intraOpNumThreads: options.intraOpNumThreads } : {}),
  };
  if (device === 'cpu') {
    return {
      // No CPU arena: onnxruntime's arena keeps the peak of every intermediate it ever held (a
      // 30k-token prompt's attention scores: hundreds of MB) for the life of the session; without it
      // those blocks go back to the system once the prompt is done.
      session: await open(modelPath, { ...base, enableCpuMemArena: false, executionProviders: ['cpu'] }),
      device,
      warnings: [],
    };
  }
  // Keep the KV cache on the device between steps where the provider allows it.
  const provider: ort.InferenceSession.ExecutionProviderConfig =
    device === 'cuda' ? { name: 'cuda' } : { name: 'webgpu' };
  try {
    // A build without the CUDA provider is known before onnxruntime tries (and logs in red) to load it.
    if (device === 'cuda' && cudaProviderInstalled() === false) {
      throw new Error(
        'onnxruntime-node was installed without its CUDA provider (no libonnxruntime_providers_cuda)',
      );
    }
    // Quiet: a missing provider is reported once, as our warning or error, not as a native log line.
    const session = await open(modelPath, {
      ...base,
      executionProviders: [provider],
      logSeverityLevel: options.fallback ? 4 : 3,
    });
    return { session, device, warnings: [] };
  } catch (error) {
    // A broken folder is not a missing provider: say so rather than fall back.
    if (error instanceof ModelFolderError) throw error;
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    if (!options.fallback) throw new OnnxDeviceUnavailableError({ device, reason, cause: error });
    const session = await open(modelPath, { ...base, executionProviders: ['cpu'] });
    const hint = device === 'cuda' ? ` Install the CUDA provider with \`${CUDA_INSTALL_COMMAND}\`.` : '';
    return {
      session,
      device: 'cpu',
      warnings: [
        {
          type: 'fallback',
          message: `The ${device} execution provider is not available (${reason}); running on the CPU.${hint}`,
        },
      ],
    };
  }
}

/** onnxruntime's words when a graph's external data file is not where the graph says it is. */
const MISSING_DATA = /External data path does not exist: "([^"]+)"/;
/**
 * An onnxruntime older than the graph's contrib operators (1.21 and before: `GroupQueryAttention`
 * takes at most 9 inputs, without the `attention_bias` haggle's q4 and q8 exports pass it).
 */
const OPERATOR_TOO_NEW = /schema\(com\.microsoft::(\w+):\d+\) has input size (\d+) not in range/;

/**
 * The typed error for a graph the installed onnxruntime cannot load because its contrib operators are
 * newer than the runtime, or undefined when `error` is something else.
 */
export function runtimeTooOldError(modelPath: string, error: unknown): ModelFolderError | undefined {
  const match = OPERATOR_TOO_NEW.exec(error instanceof Error ? error.message : String(error));
  if (!match) return undefined;
  return onnxModelFolderError(
    dirname(modelPath),
    `${basename(modelPath)} uses onnxruntime's ${match[1]} with ${match[2]} inputs, which the installed ` +
      "onnxruntime-node does not know: upgrade it (`npm install onnxruntime-node@latest`; haggle's q4 and q8 " +
      "exports need 1.22 or later), or load another dtype of the folder (`dtype: 'fp32'`)",
    error,
  );
}

/**
 * Creates the session; a graph whose external data file (the weights of an export over the 2 GB
 * protobuf limit) is missing becomes a `ModelFolderError` naming the file.
 */
async function open(
  modelPath: string,
  options: ort.InferenceSession.SessionOptions,
): Promise<ort.InferenceSession> {
  try {
    return await ort.InferenceSession.create(modelPath, options);
  } catch (error) {
    const tooOld = runtimeTooOldError(modelPath, error);
    if (tooOld) throw tooOld;
    const missing = MISSING_DATA.exec(error instanceof Error ? error.message : String(error));
    if (!missing) throw error;
    throw onnxModelFolderError(
      dirname(modelPath),
      `${basename(missing[1] as string)} is missing: ${basename(modelPath)} keeps its weights in external data ` +
        'files beside it; copy every file of the export',
      error,
    );
  }
}
