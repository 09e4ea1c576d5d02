import { HaggleError } from './errors.js';

/**
 * A package that a feature needs and haggle does not install is missing where haggle can import it:
 * an optional peer dependency (onnxruntime-node for `haggle/onnx`) or a package a setting names (an
 * `@ai-sdk/*` provider for an experiment participant). The message gives the command that installs it;
 * haggle never installs anything itself.
 */
export class OptionalDependencyMissingError extends HaggleError {
  static override readonly marker: string = 'haggle.error.OptionalDependencyMissingError';
  /** The npm package that is missing, e.g. `onnxruntime-node`. */
  readonly packageName: string;
  /** The command that installs it, e.g. `npm install onnxruntime-node`. */
  readonly installCommand: string;

  constructor(args: {
    /** The package to install (a version range may follow, e.g. `@ai-sdk/openai@3`). */
    packageName: string;
    /** What needs it, as the message's subject: `haggle/onnx (OnnxBackend)`. */
    neededFor: string;
    /** Whether haggle lists it as an optional peer dependency (the message then says why npm left it out). */
    optionalPeer?: boolean;
    cause?: unknown;
  }) {
    const installCommand = `npm install ${args.packageName}`;
    super(
      'optional-dependency-missing',
      `${args.neededFor} needs the ${args.optionalPeer ? 'optional ' : ''}package ${args.packageName}, which is not installed: run \`${installCommand}\` in your project` +
        (args.optionalPeer
          ? ' (haggle lists it as an optional peer dependency, so npm does not install it for you).'
          : '.'),
      { cause: args.cause },
    );
    this.name = 'OptionalDependencyMissingError';
    this.packageName = args.packageName;
    this.installCommand = installCommand;
  }
}
