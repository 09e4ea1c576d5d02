import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { HaggleError, InvalidInputError } from '../contract/errors.js';
import { maxInputBytes, readTextWithLimit } from '../internal/bounded-read.js';
import { deriveSeed } from '../internal/random.js';
import { contentHash } from './canonical-json.js';
import { parseScenario, ScenarioSchema } from './scenario.js';
import { generateScenario } from './scenario-generator.js';

/** The `format` of a suite file: marks a JSON file as a haggle suite. */
export const SUITE_FORMAT = 'haggle-suite';
/** The version of the suite file layout this haggle writes and reads. */
export const SUITE_VERSION = 1;

/**
 * A fixed set of negotiations: scenarios × opponents × seeds. Its `id` is the SHA-256 of its content
 * (canonical JSON, `id` excluded), so two papers can state and check that they ran the same suite.
 */
export const SuiteSchema = z.strictObject({
  format: z.literal(SUITE_FORMAT),
  version: z.literal(SUITE_VERSION),
  id: z.string().regex(/^[0-9a-f]{64}$/),
  name: z.string().min(1),
  seed: z.number().int().min(0),
  scenarios: z.array(ScenarioSchema).min(1),
  opponents: z.array(z.string().min(1)).min(1),
  seedsPerPair: z.number().int().min(1),
});
/** A fixed set of negotiations (scenarios × opponents × seeds) with an id that is the hash of its content. */
export type Suite = z.infer<typeof SuiteSchema>;

/**
 * The opponents of a suite when none are named: the CLI's names of the conceder and tit-for-tat
 * baselines, so `generateSuite({ seed })` and `haggle suite --seed` give the same suite and id.
 */
export const DEFAULT_SUITE_OPPONENTS: readonly string[] = ['utility-conceder', 'utility-tit-for-tat'];

/** Options of `generateSuite`: how many scenarios, which opponents, seeds per pair and the seed. */
export interface GenerateSuiteOptions {
  /** Default 48. */
  scenarios?: number;
  /** Names of the opponents every arm meets. Default `DEFAULT_SUITE_OPPONENTS`. */
  opponents?: readonly string[];
  /** Seeds per scenario and opponent. Default 12 (48 × 2 × 12 = 1,152 negotiations). */
  seedsPerPair?: number;
  seed?: number;
  name?: string;
}

/** One negotiation of a suite, as a tournament plays it against an arm. */
export interface SuiteMatch {
  index: number;
  scenarioId: string;
  opponent: string;
  /** Seed of this negotiation, the same for every arm: arms are compared on identical matches. */
  seed: number;
}

export class SuiteFileError extends HaggleError {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super('suite-file', `${path}: ${message}`);
    this.name = 'SuiteFileError';
  }
}

/** The id of a suite: the SHA-256 of its canonical JSON, `id` left out. */
export function suiteIdentity(suite: Omit<Suite, 'id'> | Suite): string {
  const { id: _id, ...content } = suite as Suite;
  return contentHash(content);
}

/** Generates a suite from a seed: the same options always give the same suite and id. */
export function generateSuite(options: GenerateSuiteOptions = {}): Suite {
  const count = options.scenarios ?? 48;
  const opponents = [...(options.opponents ?? DEFAULT_SUITE_OPPONENTS)];
  const seedsPerPair = options.seedsPerPair ?? 12;
  const seed = options.seed ?? 0;
  const problems: { path: string; message: string }[] = [];
  if (!Number.isInteger(count) || count < 1 || count > 10_000)
    problems.push({ path: 'scenarios', message: 'must be an integer from 1 to 10000' });
  if (opponents.length === 0 || new Set(opponents).size !== opponents.length)
    problems.push({ path: 'opponents', message: 'must be a non-empty list of distinct names' });
  if (!Number.isInteger(seedsPerPair) || seedsPerPair < 1 || seedsPerPair > 10_000)
    problems.push({ path: 'seedsPerPair', message: 'must be an integer from 1 to 10000' });
  if (!Number.isSafeInteger(seed) || seed < 0)
    problems.push({ path: 'seed', message: 'must be a non-negative integer' });
  if (problems.length > 0) throw new InvalidInputError('GenerateSuiteOptions', problems);

  const content: Omit<Suite, 'id'> = {
    format: SUITE_FORMAT,
    version: SUITE_VERSION,
    name: options.name ?? `suite-${count}x${opponents.length}x${seedsPerPair}-seed${seed}`,
    seed,
    scenarios: Array.from({ length: count }, (_, i) => generateScenario(seed, i)),
    opponents,
    seedsPerPair,
  };
  return { ...content, id: suiteIdentity(content) };
}

/** Every negotiation of the suite (or of some of its opponents), in a fixed order: scenario, opponent, seed. */
export function suiteMatches(suite: Suite, onlyOpponents?: readonly string[]): SuiteMatch[] {
  const matches: SuiteMatch[] = [];
  suite.scenarios.forEach((scenario, s) => {
    suite.opponents.forEach((opponent, o) => {
      // Seeds use the opponent's position in the suite, so a subset of opponents keeps its matches.
      if (onlyOpponents && !onlyOpponents.includes(opponent)) return;
      for (let k = 0; k < suite.seedsPerPair; k++) {
        matches.push({
          index: matches.length,
          scenarioId: scenario.id,
          opponent,
          seed: deriveSeed(suite.seed, s, o, k),
        });
      }
    });
  });
  return matches;
}

/** Writes a suite to a JSON file. */
export function saveSuite(path: string, suite: Suite): void {
  writeFileSync(path, `${JSON.stringify(suite, null, 2)}\n`);
}

/** Loads a suite and checks it: the schema, every scenario's utilities, and that its id matches its content. */
export function loadSuite(path: string): Suite {
  let raw: unknown;
  try {
    // Bounded (64 MiB by default, HAGGLE_MAX_INPUT_MIB) and tolerant of a UTF-8 byte-order mark.
    raw = JSON.parse(readTextWithLimit(path, maxInputBytes()));
  } catch (error) {
    throw new SuiteFileError(path, `cannot read a suite: ${(error as Error).message}`);
  }
  const parsed = SuiteSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new SuiteFileError(
      path,
      `not a haggle suite: ${first?.path.join('.') || '(root)'}: ${first?.message}`,
    );
  }
  const suite = parsed.data;
  for (const scenario of suite.scenarios) parseScenario(scenario);
  const actual = suiteIdentity(suite);
  if (actual !== suite.id) {
    throw new SuiteFileError(
      path,
      `its content does not match its id (content hashes to ${actual}): the file was edited`,
    );
  }
  return suite;
}
