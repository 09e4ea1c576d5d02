import type { Command } from 'commander';
import { readRunFile, type SessionRecord } from '../simulation/run-file.js';
import {
  formatHours,
  formatTranscript,
  outcomeSentence,
  sessionTranscript,
} from '../simulation/transcript.js';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { parseIntegerOption } from './options.js';

interface ShowCliOptions {
  session?: string;
  limit: number;
  json?: boolean;
}

/**
 * `haggle show RUN.jsonl --session ID` prints one session as a dialogue. Without `--session` it lists
 * the sessions (one line each: id, outcome, turns, item), so the reader can pick one; haggle's choice
 * over printing the first session, which is rarely the interesting one.
 */
export function registerShowCommand(program: Command, io: CliIo): void {
  program
    .command('show')
    .description('print a session of a run file as a readable dialogue, or list the sessions')
    .argument('<run>', 'run file (JSONL) written by simulate, or real sessions in that format')
    .option('--session <id>', 'the session to print: its id (e.g. s12) or its index in the run')
    .option(
      '--limit <count>',
      'sessions listed without --session',
      parseIntegerOption('limit', 1, 1_000_000),
      20,
    )
    .option('--json', 'print the transcript (or the list) as JSON')
    .action((run: string, options: ShowCliOptions) => {
      const { sessions } = readRunFile(run);
      if (options.session === undefined) {
        listSessions(run, sessions, options, io);
        return;
      }
      const session = findSession(sessions, options.session);
      if (!session) {
        const ids = sessions.slice(0, 3).map((s) => s.sessionId);
        const some =
          ids.length > 0 ? `; its sessions are ${ids.join(', ')}${sessions.length > 3 ? ', ...' : ''}` : '';
        throw new CliUsageError(
          `${run} holds no session "${options.session}"${some} (or pass an index from 0 to ${sessions.length - 1})`,
        );
      }
      const transcript = sessionTranscript(session);
      io.stdout.write(options.json ? `${JSON.stringify(transcript)}\n` : `${formatTranscript(transcript)}\n`);
    });
}

/** By id first (real sessions carry their own ids), then by index in the run. */
function findSession(sessions: readonly SessionRecord[], wanted: string): SessionRecord | undefined {
  const byId = sessions.find((session) => session.sessionId === wanted);
  if (byId) return byId;
  if (!/^\d+$/.test(wanted)) return undefined;
  const index = Number(wanted);
  return sessions.find((session) => session.index === index);
}

function listSessions(
  run: string,
  sessions: readonly SessionRecord[],
  options: ShowCliOptions,
  io: CliIo,
): void {
  const shown = sessions.slice(0, options.limit);
  if (options.json) {
    const rows = shown.map((session) => ({
      index: session.index,
      sessionId: session.sessionId,
      outcome: session.outcome,
      title: session.context.item.title,
    }));
    io.stdout.write(`${JSON.stringify(rows)}\n`);
    return;
  }
  const lines = shown.map((session) => {
    const transcript = sessionTranscript(session);
    return `${session.sessionId.padEnd(8)} ${outcomeSentence(transcript).padEnd(70)} ${transcript.title}`;
  });
  const more = sessions.length - shown.length;
  const durations = sessions.map((s) => s.outcome.elapsedHours);
  const longest = durations.length > 0 ? formatHours(Math.max(...durations)) : '–';
  io.stdout.write(
    `${[
      `${run}: ${sessions.length} session${sessions.length === 1 ? '' : 's'} (longest ${longest})`,
      ...lines,
      ...(more > 0 ? [`... ${more} more (--limit to list more)`] : []),
      sessions.length > 0
        ? `print one as a dialogue: haggle show ${run} --session ${sessions[0]?.sessionId}`
        : 'no sessions on file',
    ].join('\n')}\n`,
  );
}
