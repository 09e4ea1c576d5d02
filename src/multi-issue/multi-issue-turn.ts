import * as z from 'zod';
import type { Role } from '../contract/history.js';
import type { JsonSchema } from '../contract/json-schema.js';
import type { Issue, IssueSpace, Outcome } from './issue-space.js';
import type { SideUtility } from './utility.js';

/**
 * A turn in multi-issue bargaining (alternating offers over whole outcomes): propose an outcome, accept
 * the other side's standing proposal, or walk away. A short message may go with any of them.
 */
export const MULTI_ISSUE_ACTIONS = ['offer', 'accept', 'walk_away'] as const;
/** What a multi-issue turn does: `offer`, `accept` or `walk_away`. */
export type MultiIssueAction = (typeof MULTI_ISSUE_ACTIONS)[number];

/** Validates a multi-issue turn: action, offer (a value per issue) and message. */
export const MultiIssueTurnSchema = z.strictObject({
  action: z.enum(MULTI_ISSUE_ACTIONS),
  offer: z.record(z.string(), z.union([z.number(), z.string()])).nullable(),
  message: z.string().max(1000),
});
/** One turn of a multi-issue negotiation. */
export type MultiIssueTurn = z.infer<typeof MultiIssueTurnSchema>;

/** One multi-issue turn as it happened: who took it and what it was. */
export interface MultiIssueHistoryEntry {
  role: Role;
  turn: MultiIssueTurn;
}

/**
 * What a multi-issue negotiator sees: the issues, its OWN utility only (the other side's is private),
 * the history, and the deadline.
 */
export interface MultiIssueInput {
  space: IssueSpace;
  role: Role;
  utility: SideUtility;
  history: readonly MultiIssueHistoryEntry[];
  /** 0-based round (one turn per round). */
  round: number;
  /** Rounds after which the negotiation ends without agreement. */
  maxRounds: number;
  /** A short description of the item, for negotiators that talk. */
  title?: string;
}

/** Anything that takes multi-issue turns: an LLM agent or a baseline. */
export interface MultiIssueNegotiator {
  /** The next multi-issue turn for `input.role`. */
  predict(input: MultiIssueInput, options?: { signal?: AbortSignal; seed?: number }): Promise<MultiIssueTurn>;
  /** Plain data about this negotiator for tournament records. */
  describe(): { kind: string; [detail: string]: unknown };
}

function issueValueSchema(issue: Issue): JsonSchema {
  switch (issue.kind) {
    case 'price':
      return { type: 'number', minimum: issue.min, maximum: issue.max };
    case 'integer':
      return { type: 'integer', minimum: issue.min, maximum: issue.max };
    case 'options':
      return { type: 'string', enum: [...issue.options] };
  }
}

/**
 * The JSON Schema of a multi-issue turn for one scenario: an `offer` branch whose `offer` object has
 * exactly the scenario's issues with their ranges and options, and `accept` / `walk_away` branches with
 * `offer: null`. Generated per scenario, for the constrained decoder and for remote structured output.
 */
export function multiIssueTurnJsonSchema(
  space: IssueSpace,
  options: { canAccept?: boolean } = {},
): JsonSchema {
  const offer: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(space.issues.map((issue) => [issue.name, issueValueSchema(issue)])),
    required: space.issues.map((issue) => issue.name),
    additionalProperties: false,
  };
  const branch = (action: MultiIssueAction, offerSchema: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: {
      action: { const: action },
      offer: offerSchema,
      message: { type: 'string', maxLength: 1000 },
    },
    required: ['action', 'offer', 'message'],
    additionalProperties: false,
  });
  const branches = [branch('offer', offer)];
  if (options.canAccept !== false) branches.push(branch('accept', { type: 'null' }));
  branches.push(branch('walk_away', { type: 'null' }));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'MultiIssueTurn',
    oneOf: branches,
  };
}

/** The other side's latest proposal, which `accept` would take. */
export function standingProposal(history: readonly MultiIssueHistoryEntry[], role: Role): Outcome | null {
  const last = history[history.length - 1];
  if (!last || last.role === role || last.turn.action !== 'offer') return null;
  return last.turn.offer;
}
