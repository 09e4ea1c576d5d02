import { CliUsageError } from './errors.js';

/**
 * haggle's choice: `haggle evaluate` asks for `--yes` before it plans more than 100,000 matches. An
 * experiment file is easy to get wrong by an order of magnitude (or to receive from someone else), and
 * a tournament that size runs for hours against a server and writes gigabytes; a deliberate one costs
 * a flag. Suites made by `haggle suite` stay far below it (200 scenarios x 2 opponents x 50 seeds x 2
 * arms is 40,000).
 */
export const LARGE_TOURNAMENT_MATCHES = 100_000;

/** Refuses a tournament of more than `LARGE_TOURNAMENT_MATCHES` matches unless `--yes` was given. */
export function confirmLargeTournament(matches: number, yes: boolean | undefined): void {
  if (matches <= LARGE_TOURNAMENT_MATCHES || yes) return;
  throw new CliUsageError(
    `this tournament plans ${matches.toLocaleString('en-US')} matches, more than ` +
      `${LARGE_TOURNAMENT_MATCHES.toLocaleString('en-US')}: check the arms, opponents, scenarios and seeds ` +
      '(every arm plays every opponent on every scenario, once per seed and role), or pass --yes to run it anyway',
  );
}
