import type { Command } from 'commander';
import { CliUsageError } from './errors.js';

/** `--temperature` and `--top-p`: how an LLM side samples its tokens. */
export interface SamplingCliOptions {
  temperature?: number;
  topP?: number;
}

/** Parses a number option within [min, max] (or (min, max] when `minExclusive`), naming the option. */
function parseNumberOption(name: string, min: number, max: number, minExclusive = false) {
  return (raw: string): number => {
    const value = Number(raw);
    const aboveMin = minExclusive ? value > min : value >= min;
    if (raw.trim() === '' || !Number.isFinite(value) || !aboveMin || value > max) {
      const range = minExclusive ? `above ${min} and at most ${max}` : `from ${min} to ${max}`;
      throw new CliUsageError(`--${name} must be a number ${range}, got "${raw}"`);
    }
    return value;
  };
}

/**
 * Adds `--temperature` and `--top-p`. No default of their own: without them an agent samples as its
 * model profile says (the card's rollouts: temperature 1.0), and the run header records what was used.
 */
export function addSamplingOptions(command: Command): Command {
  return command
    .option(
      '--temperature <t>',
      "sampling temperature of the LLM sides, 0 to 2 (default: the model profile's, 1.0 for the card's model)",
      parseNumberOption('temperature', 0, 2),
    )
    .option(
      '--top-p <p>',
      "nucleus sampling of the LLM sides, in (0, 1] (default: the model profile's)",
      parseNumberOption('top-p', 0, 1, true),
    );
}

/** The sampling the options ask for, with only the keys given. */
export function samplingFrom(options: SamplingCliOptions): SamplingCliOptions {
  return {
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.topP !== undefined ? { topP: options.topP } : {}),
  };
}

/** The first sampling flag given, spelt as on the command line, or undefined. */
export function givenSamplingFlag(options: SamplingCliOptions): string | undefined {
  if (options.temperature !== undefined) return '--temperature';
  if (options.topP !== undefined) return '--top-p';
  return undefined;
}
