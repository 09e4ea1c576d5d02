import { writeFileSync } from 'node:fs';
import * as z from 'zod';
import { InvalidInputError } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import { readTextWithLimit } from '../internal/bounded-read.js';
import { maxInputBytes } from '../internal/environment.js';
import { deriveSeed } from '../internal/random.js';
import { parseScenario, ScenarioSchema } from '../multi-issue/scenario.js';
import {
  checkScenarioGeneratorOptions,
  generateScenario,
  type ScenarioGeneratorOptions,
} from '../multi-issue/scenario-generator.js';
import { contentHash } from './canonical-json.js';
import { SuiteFileError } from './errors.js';

/** The `format` of a suite file: marks a JSON file as a haggle suite. */
export const SUITE_FORMAT = 'haggle-suite';
/** The version of the suite file layout this haggle writes and reads. */
export const SUITE_VERSION = 1;

/**
 * A fixed set of negotiations: scenarios × opponents × seeds, and the protocol they are played by. Its
 * `id` is the SHA-256 of its content (canonical JSON, `id` excluded): format, version, name, seed, every
 * scenario (issue space and both utilities, so the generator's options enter through what they drew),
 * the opponents' names, `seedsPerPair`, and `firstMover` / `maxRounds` when not the defaults. Two papers
 * can state and check that they ran the same suite.
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
  /** Who proposes first; absent means the seller (the default, left out so older ids stay valid). */
  firstMover: z.enum(['seller', 'buyer']).optional(),
  /** Turns per negotiation; absent means 10 (the default, left out so older ids stay valid). */
  maxRounds: z.number().int().min(1).max(1000).optional(),
});
/** A fixed set of negotiations (scenarios × opponents × seeds) with an id that is the hash of its content. */
export type Suite = z.infer<typeof SuiteSchema>;

/**
 * The opponents of a suite when none are named: the CLI's names of the conceder and tit-for-tat
 * baselines, so `generateSuite({ seed })` and `haggle suite --seed` give the same suite and id.
 */
export const DEFAULT_SUITE_OPPONENTS: readonly string[] = ['utility-conceder', 'utility-tit-for-tat'];

/** The defaults a suite leaves unsaid: the seller moves first; at most 10 turns. */
export const DEFAULT_FIRST_MOVER: Role = 'seller';
/** Turns per negotiation when a suite states none (haggle's choice). */
export const DEFAULT_MAX_ROUNDS = 10;

/**
 * A suite's shape (scenarios × opponents × seeds), its protocol (who moves first, the round limit) and
 * how its scenarios are drawn (issues, price grid, reservation ranges). Every default is haggle's
 * choice; docs/evaluation.md says which part of a setup comes from the preprint's abstract.
 */
export interface GenerateSuiteOptions extends ScenarioGeneratorOptions {
  /** Who proposes first in every negotiation. Default 'seller' (the listing is the seller's opening). */
  firstMover?: Role;
  /** Turns per negotiation. Default 10. */
  maxRounds?: number;
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
  const firstMover = options.firstMover ?? DEFAULT_FIRST_MOVER;
  if (firstMover !== 'seller' && firstMover !== 'buyer')
    problems.push({ path: 'firstMover', message: "must be 'seller' or 'buyer'" });
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 1 || maxRounds > 1000)
    problems.push({ path: 'maxRounds', message: 'must be an integer from 1 to 1000' });
  problems.push(...checkScenarioGeneratorOptions(options));
  if (problems.length > 0) throw new InvalidInputError({ subject: 'GenerateSuiteOptions', issues: problems });
  const generator: ScenarioGeneratorOptions = {
    ...(options.issues !== undefined ? { issues: options.issues } : {}),
    ...(options.extraIssueWeights !== undefined ? { extraIssueWeights: options.extraIssueWeights } : {}),
    ...(options.priceSteps !== undefined ? { priceSteps: options.priceSteps } : {}),
    ...(options.reservation !== undefined ? { reservation: options.reservation } : {}),
  };

  const content: Omit<Suite, 'id'> = {
    format: SUITE_FORMAT,
    version: SUITE_VERSION,
    name: options.name ?? `suite-${count}x${opponents.length}x${seedsPerPair}-seed${seed}`,
    seed,
    scenarios: Array.from({ length: count }, (_, i) => generateScenario(seed, i, generator)),
    opponents,
    seedsPerPair,
    // Written only where they depart from the defaults, so a default suite keeps the id it always had.
    ...(firstMover !== DEFAULT_FIRST_MOVER ? { firstMover } : {}),
    ...(maxRounds !== DEFAULT_MAX_ROUNDS ? { maxRounds } : {}),
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
    throw new SuiteFileError({ path, message: `cannot read a suite: ${(error as Error).message}` });
  }
  const parsed = SuiteSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new SuiteFileError({
      path,
      message: `not a haggle suite: ${first?.path.join('.') || '(root)'}: ${first?.message}`,
    });
  }
  const suite = parsed.data;
  for (const scenario of suite.scenarios) parseScenario(scenario);
  const actual = suiteIdentity(suite);
  if (actual !== suite.id) {
    throw new SuiteFileError({
      path,
      message: `its content does not match its id (content hashes to ${actual}): the file was edited`,
    });
  }
  return suite;
}
