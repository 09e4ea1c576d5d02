import type { Action } from '../contract/action.js';
import type { Role } from '../contract/history.js';
import type { NegotiatorDescription } from '../contract/negotiator.js';
import { Random } from '../internal/random.js';
import type { EndReason, SessionOutcome } from './outcome.js';
import type { SessionResult } from './session-result.js';

/**
 * A session as a dialogue a person can read: who said what, when, at what price, and how it ended.
 * Plain data, so `haggle show` prints it and the HTML report renders the same thing.
 */
export interface TranscriptTurn {
  /** 1-based, as a reader counts. */
  number: number;
  role: Role;
  action: Action;
  price: number | null;
  labels: string[];
  message: string;
  /** Simulated hours from the session start to this turn. */
  elapsedHours: number;
  /** Hours since the previous turn (since the start for the first). */
  waitedHours: number;
  /** The rule this turn broke, if it broke one (it then had no effect). */
  violation?: string;
}

/** One session as the report shows it: its turns with their times, and its outcome. */
export interface Transcript {
  sessionId: string;
  /** Position in the run, when the session came from a run file. */
  index?: number;
  seed: number;
  title: string;
  category?: string;
  listPrice: number;
  currency: string;
  negotiators: { buyer: string; seller: string };
  turns: TranscriptTurn[];
  outcome: SessionOutcome;
  error?: string;
}

/** A negotiator in a few words: `population`, `llm openai-compatible qwen3-4b-...`. */
export function negotiatorLabel(description: NegotiatorDescription | undefined): string {
  if (!description) return 'unknown';
  const parts = [description.kind];
  if (typeof description.provider === 'string') parts.push(description.provider);
  if (typeof description.modelId === 'string') parts.push(description.modelId);
  if (typeof description.strategy === 'string') parts.push(description.strategy);
  return parts.join(' ');
}

export function sessionTranscript(session: SessionResult & { index?: number }): Transcript {
  let previous = 0;
  const turns = session.turns.map((entry, i): TranscriptTurn => {
    const waitedHours = entry.elapsedHours - previous;
    previous = entry.elapsedHours;
    return {
      number: i + 1,
      role: entry.role,
      action: entry.turn.action,
      price: entry.turn.price,
      labels: [...entry.turn.message_labels],
      message: entry.turn.message,
      elapsedHours: entry.elapsedHours,
      waitedHours,
      ...(entry.violation ? { violation: entry.violation } : {}),
    };
  });
  const { context } = session;
  return {
    sessionId: session.sessionId,
    ...(typeof session.index === 'number' ? { index: session.index } : {}),
    seed: session.seed,
    title: context.item.title,
    ...(context.item.category ? { category: context.item.category } : {}),
    listPrice: context.listPrice,
    currency: context.currency,
    negotiators: {
      buyer: negotiatorLabel(session.negotiators?.buyer),
      seller: negotiatorLabel(session.negotiators?.seller),
    },
    turns,
    outcome: session.outcome,
    ...(session.error ? { error: `${session.error.name}: ${session.error.message}` } : {}),
  };
}

/** `2.00 USD`-style money; the currency code rather than a symbol, since a run may mix currencies. */
export function formatMoney(value: number, currency: string): string {
  return `${value.toFixed(2)} ${currency}`;
}

/**
 * Simulated time, readably: `25 min`, `3 h`, `5.5 h`, `2 d 4 h`. Each unit is rounded before it is
 * shown, and a rounding that reaches the next unit carries into it: 59.7 min is `1.0 h`, 23.97 h is
 * `1 d`, 47.6 h is `2 d` (never `60 min`, `24.0 h` or `1 d 24 h`). The one formatter of durations for
 * `haggle show` and the HTML report.
 */
export function formatHours(hours: number): string {
  const minutes = Math.round(hours * 60);
  if (minutes < 60) return `${minutes} min`;
  const tenths = Math.round(hours * 10);
  if (tenths < 24 * 10) return Number.isInteger(hours) ? `${hours} h` : `${(tenths / 10).toFixed(1)} h`;
  const whole = Math.round(hours);
  const days = Math.floor(whole / 24);
  const rest = whole - days * 24;
  return rest === 0 ? `${days} d` : `${days} d ${rest} h`;
}

const REASON_WORDS: Record<EndReason, string> = {
  accepted: 'an offer was accepted',
  declined: 'an offer was declined',
  'no-response': 'a side did not respond',
  expired: 'an offer expired',
  'turn-cap': 'the turn limit was reached',
  'illegal-turn': 'a side broke a rule',
  error: 'a negotiator failed',
  aborted: 'the run was stopped',
};

/** One sentence: `deal at 100.00 USD (83% of list) after 4 turns, 1 d 2 h`. */
export function outcomeSentence(transcript: Transcript): string {
  const { outcome, listPrice, currency } = transcript;
  const span = `after ${outcome.turns} turn${outcome.turns === 1 ? '' : 's'}, ${formatHours(outcome.elapsedHours)}`;
  if (outcome.status === 'deal' && outcome.price !== null) {
    const share = Math.round((outcome.price / listPrice) * 1000) / 10;
    return `deal at ${formatMoney(outcome.price, currency)} (${share}% of list) ${span}`;
  }
  return `no deal (${outcome.reason}: ${REASON_WORDS[outcome.reason]}) ${span}`;
}

/** The transcript as terminal text: a heading, one block per turn, the outcome. */
export function formatTranscript(transcript: Transcript): string {
  const where = transcript.index !== undefined ? ` (#${transcript.index} in the run)` : '';
  const lines = [
    `session ${transcript.sessionId}${where} · seed ${transcript.seed}`,
    `${transcript.title}${transcript.category ? ` [${transcript.category}]` : ''} · list ${formatMoney(transcript.listPrice, transcript.currency)}`,
    `buyer: ${transcript.negotiators.buyer} · seller: ${transcript.negotiators.seller}`,
    '',
  ];
  const roleWidth = 6;
  for (const turn of transcript.turns) {
    const price = turn.price === null ? '' : ` ${formatMoney(turn.price, transcript.currency)}`;
    const labels = turn.labels.length > 0 ? ` [${turn.labels.join(', ')}]` : '';
    const broke = turn.violation ? ` (broke a rule: ${turn.violation})` : '';
    lines.push(
      `${String(turn.number).padStart(3)}. ${formatHours(turn.elapsedHours).padStart(8)}  ${turn.role.padEnd(roleWidth)} ${turn.action}${price}${labels}${broke}`,
    );
    if (turn.message !== '')
      lines.push(`${' '.repeat(16 + roleWidth)}“${turn.message.replace(/\s+/g, ' ')}”`);
  }
  if (transcript.turns.length === 0) lines.push('   (no turns)');
  lines.push('', `outcome: ${outcomeSentence(transcript)}`);
  if (transcript.error) lines.push(`error: ${transcript.error}`);
  return lines.join('\n');
}

export interface SampleOptions {
  /** How many sessions to pick at most. */
  count: number;
  /** Seed of the pick: the same seed and sessions give the same sample. */
  seed: number;
}

/**
 * A sample stratified by how sessions ended (`outcome.reason`): every kind of ending present gets a
 * session before any gets a second, then the rest go round the kinds, most common first, each kind's
 * sessions in a seeded shuffle. A rare ending (an error, an expiry) is never crowded out by deals.
 * Returned in run order.
 */
export function stratifiedSample<T extends SessionResult>(
  sessions: readonly T[],
  options: SampleOptions,
): T[] {
  const strata = new Map<string, number[]>();
  sessions.forEach((session, position) => {
    const key = session.outcome.reason;
    let list = strata.get(key);
    if (!list) {
      list = [];
      strata.set(key, list);
    }
    list.push(position);
  });
  const random = new Random(options.seed);
  const order = [...strata.entries()]
    .sort(([a, x], [b, y]) => y.length - x.length || a.localeCompare(b))
    .map(([, positions]) => shuffle(positions, random));
  const picked: number[] = [];
  for (let round = 0; picked.length < options.count; round++) {
    let any = false;
    for (const positions of order) {
      if (picked.length >= options.count) break;
      const position = positions[round];
      if (position === undefined) continue;
      picked.push(position);
      any = true;
    }
    if (!any) break;
  }
  return picked.sort((a, b) => a - b).map((position) => sessions[position] as T);
}

function shuffle(items: number[], random: Random): number[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [out[i], out[j]] = [out[j] as number, out[i] as number];
  }
  return out;
}
