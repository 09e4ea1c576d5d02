import { HaggleError } from '../contract/errors.js';

/**
 * An AI SDK package that a setting needs is not installed: a provider package such as
 * `@ai-sdk/anthropic` for an experiment participant with `"provider": "anthropic"`. The message names
 * the install command; haggle never installs anything itself.
 */
export class AiSdkPackageMissingError extends HaggleError {
  static override readonly marker: string = 'haggle.error.AiSdkPackageMissingError';
  /** The npm package to install, e.g. `@ai-sdk/anthropic`. */
  readonly packageName: string;
  /** The command that installs it. */
  readonly installCommand: string;

  constructor(args: { packageName: string; neededFor: string; cause?: unknown }) {
    const installCommand = `npm install ${args.packageName}`;
    super(
      'ai-sdk-package-missing',
      `${args.neededFor} needs the package ${args.packageName}, which is not installed: run \`${installCommand}\` in your project`,
      { cause: args.cause },
    );
    this.name = 'AiSdkPackageMissingError';
    this.packageName = args.packageName;
    this.installCommand = installCommand;
  }
}

/** A model that does not implement the AI SDK language model specification this haggle speaks. */
export class UnsupportedLanguageModelError extends HaggleError {
  static override readonly marker: string = 'haggle.error.UnsupportedLanguageModelError';
  /** The `specificationVersion` the model declared, if any. */
  readonly specificationVersion: unknown;

  constructor(specificationVersion: unknown) {
    super(
      'unsupported-language-model',
      `fromLanguageModel takes an AI SDK language model of specification "v4" (ai 7, @ai-sdk/provider 4, ` +
        `@ai-sdk/* providers 4); this one declares ${JSON.stringify(specificationVersion ?? null)}. ` +
        'Upgrade the provider package (npm install ai@7 @ai-sdk/<provider>@latest).',
    );
    this.name = 'UnsupportedLanguageModelError';
    this.specificationVersion = specificationVersion;
  }
}
