import { writeFileSync } from 'node:fs';
import { readTournamentFile } from '../evaluation/tournament-file.js';
import { RunFileError } from '../simulation/errors.js';
import type { SessionRecord } from '../simulation/run-file.js';
import { SessionRecordSchema } from '../simulation/session-record-schema.js';

/** The header format of a best-offer environment's run file (`haggle env serve --env best-offer-*`). */
export const BEST_OFFER_EPISODES_FORMAT = 'haggle-best-offer-episodes';

/** The command that turns a best-offer run file into sessions, named in every refusal of one. */
export const BEST_OFFER_SESSIONS_COMMAND = 'haggle env sessions FILE --out SESSIONS.jsonl';

/**
 * The `Session` results inside a best-offer environment's run file, as session lines (`type: 'session'`,
 * `index` the episode's line order) that `haggle report`, `haggle show` and `haggle compare` read. A best-offer episode
 * is a Best Offer thread, not a multi-issue match, so the tournament's analysis (`haggle analyse`) does
 * not apply to it; the simulation's metrics do.
 */
export function bestOfferSessions(path: string): SessionRecord[] {
  const { header, records } = readTournamentFile(path);
  if ((header?.format as string | undefined) !== BEST_OFFER_EPISODES_FORMAT)
    throw new RunFileError({
      path,
      message: `is not a best-offer environment's run file (its header's format is ${JSON.stringify(header?.format ?? null)}, not "${BEST_OFFER_EPISODES_FORMAT}"); multi-issue run files are read by \`haggle analyse\` directly`,
    });
  return records.map((record, index) => {
    const session = (record as unknown as { session?: unknown }).session;
    const line = { ...(session as object), type: 'session', index };
    if (!SessionRecordSchema.safeParse(line).success)
      throw new RunFileError({ path, message: `episode line ${index + 2} holds no valid session result` });
    return line as SessionRecord;
  });
}

/** Writes `bestOfferSessions(from)` to `to`, one JSON line each; returns how many. */
export function writeBestOfferSessions(from: string, to: string): number {
  const sessions = bestOfferSessions(from);
  writeFileSync(to, sessions.map((session) => `${JSON.stringify(session)}\n`).join(''));
  return sessions.length;
}
