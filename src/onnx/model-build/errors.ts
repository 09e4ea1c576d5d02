import { HaggleError } from '../../contract/errors.js';

/**
 * A base checkpoint `haggle model build` cannot read: a missing or truncated file, a shard the index
 * names but the folder lacks, a tensor of the wrong shape or type. `file` (and `tensor`, when one is
 * at fault) say where; the message says what to fix.
 */
export class CheckpointFormatError extends HaggleError {
  static override readonly marker: string = 'haggle.error.CheckpointFormatError';
  readonly file: string;
  readonly tensor: string | undefined;

  constructor({
    file,
    problem,
    tensor,
    cause,
  }: {
    file: string;
    problem: string;
    tensor?: string;
    cause?: unknown;
  }) {
    super({
      code: 'checkpoint-format',
      message: `${file}${tensor ? ` (tensor ${tensor})` : ''}: ${problem}`,
      cause,
    });
    this.name = 'CheckpointFormatError';
    this.file = file;
    this.tensor = tensor;
  }
}

/**
 * A PEFT adapter the builder does not understand and will not guess at: not LoRA, DoRA, a module it
 * cannot map onto Qwen3's projections, a LoRA matrix whose shape does not fit its base weight.
 * Merging it anyway would give a model that silently differs from the one that was trained.
 */
export class UnsupportedAdapterError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsupportedAdapterError';
  readonly file: string;
  readonly tensor: string | undefined;

  constructor({
    file,
    problem,
    tensor,
    cause,
  }: {
    file: string;
    problem: string;
    tensor?: string;
    cause?: unknown;
  }) {
    super({
      code: 'unsupported-adapter',
      message: `${file}${tensor ? ` (tensor ${tensor})` : ''}: ${problem}`,
      cause,
    });
    this.name = 'UnsupportedAdapterError';
    this.file = file;
    this.tensor = tensor;
  }
}

/** The `out` folder of a build already holds something and `overwrite` was not given. */
export class BuildOutputExistsError extends HaggleError {
  static override readonly marker: string = 'haggle.error.BuildOutputExistsError';
  readonly folder: string;

  constructor(folder: string) {
    super({
      code: 'build-output-exists',
      message: `${folder} already exists and is not empty: give another --out, or --overwrite to replace it`,
    });
    this.name = 'BuildOutputExistsError';
    this.folder = folder;
  }
}

/** `--check` found a built export whose logits are outside its tolerance of the float64 reference. */
export class BuildCheckFailedError extends HaggleError {
  static override readonly marker: string = 'haggle.error.BuildCheckFailedError';
  readonly dtypes: string[];

  constructor({ folder, details }: { folder: string; details: string[] }) {
    super({
      code: 'build-check-failed',
      message:
        `${folder}: the built model's logits differ from the float64 reference by more than the tolerance:\n  ${details.join('\n  ')}\n` +
        'This is a bug in haggle (or an input it misread): please report it with haggle-model.json.',
    });
    this.name = 'BuildCheckFailedError';
    this.dtypes = details;
  }
}

/**
 * A download from the hub failed: an HTTP status, a dropped connection, a checksum or size that does
 * not match, a redirect loop. `url` says which; the token never appears in the message.
 */
export class HubDownloadError extends HaggleError {
  static override readonly marker: string = 'haggle.error.HubDownloadError';
  readonly url: string;
  readonly status: number | undefined;

  constructor({
    url,
    problem,
    status,
    cause,
  }: { url: string; problem: string; status?: number; cause?: unknown }) {
    super({ code: 'hub-download', message: `${url}: ${problem}`, cause });
    this.name = 'HubDownloadError';
    this.url = url;
    this.status = status;
  }
}

/** haggle's choice: how much of a value from a file an error may show. */
const QUOTE_CHARS = 40;

/**
 * A value read from a checkpoint's JSON (a `model_type`, a `dtype`) as an error shows it: JSON, cut to
 * a few dozen characters, so a message says what was found without carrying a file's content (a
 * 60,000-element `architectures` list, a long string) into a terminal or a log.
 */
export function quoteValue(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value);
  return text.length <= QUOTE_CHARS ? text : `${text.slice(0, QUOTE_CHARS)}… (${text.length} characters)`;
}
