import { basename, resolve } from 'node:path';
import type {
  BackendHealth,
  BackendStreamPart,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../backends/language-backend.js';
import { dtypePreference, findModelFiles, readModelShape } from './model-folder.js';
import type { OnnxBackend } from './onnx-backend.js';
import { describeOnnxBackend, type OnnxBackendDescription } from './onnx-description.js';
import type { OnnxLoadOptions } from './onnx-options.js';
import { assertOnnxRuntimeInstalled } from './runtime-package.js';

/**
 * An `OnnxBackend` for places that need a backend synchronously (the CLI's option parsing): the folder
 * and the presence of onnxruntime-node are checked now, so a wrong path or a missing runtime fails
 * before any work, and onnxruntime-node is imported and the model loaded on the first request, so
 * commands that never generate never load the native runtime.
 */
export class DeferredOnnxBackend implements LanguageBackend {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'onnx';
  readonly modelId: string;
  private loading: Promise<OnnxBackend> | undefined;
  /** The backend once loaded, for `health()`, which must answer at once. */
  private loaded: OnnxBackend | undefined;
  private readonly description: OnnxBackendDescription;

  constructor(
    private readonly folder: string,
    private options: OnnxLoadOptions = {},
  ) {
    // A missing onnxruntime-node fails the command now, not every session once it starts.
    assertOnnxRuntimeInstalled();
    const files = findModelFiles(folder, options.dtype, dtypePreference(options.device ?? 'cpu'));
    const shape = readModelShape(folder, files.dtype);
    this.modelId = options.modelId ?? basename(resolve(folder));
    // Described as asked, before loading: a run header is written before the first request loads it.
    this.description = describeOnnxBackend({
      modelId: this.modelId,
      device: options.device ?? 'cpu',
      dtype: files.dtype,
      shape,
      folder: resolve(folder),
    });
  }

  describe(): OnnxBackendDescription {
    return this.description;
  }

  /**
   * Adds load options before the model is loaded (`haggle serve` adds its compile budget and its log
   * of worker restarts to what the shared backend flags built). Ignored once loading has begun.
   */
  configure(options: Partial<OnnxLoadOptions>): void {
    if (!this.loading) this.options = { ...this.options, ...options };
  }

  /** The loaded backend (loads it on first use). */
  backend(): Promise<OnnxBackend> {
    this.loading ??= import('./onnx-backend.js')
      .then(({ OnnxBackend }) => OnnxBackend.load(this.folder, this.options))
      .then((backend) => {
        this.loaded = backend;
        return backend;
      });
    return this.loading;
  }

  /** `loading` until the model is loaded, then the loaded backend's health. */
  health(): BackendHealth {
    return this.loaded?.health() ?? { status: 'loading', detail: 'the model is not loaded yet' };
  }

  async doGenerate(options: GenerateOptions): Promise<GenerateResult> {
    return (await this.backend()).doGenerate(options);
  }

  /** The loaded backend's stream (`haggle serve` streams a local model token by token). */
  async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
    yield* (await this.backend()).doStream(options);
  }

  async dispose(): Promise<void> {
    const loading = this.loading;
    this.loading = undefined;
    this.loaded = undefined;
    if (loading) await (await loading.catch(() => undefined))?.dispose();
  }
}
