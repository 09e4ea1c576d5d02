import type { LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';
import { expect } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { fromLanguageModel } from '../../src/ai-sdk/index.js';
import type { BackendWarning } from '../../src/backends/language-backend.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { simulate } from '../../src/simulation/node-simulate.js';
import type { SessionResult } from '../../src/simulation/session-result.js';
import { legalityProblems } from '../helpers/legal-run-checks.js';

/**
 * `sessions` sessions with one `NegotiationAgent` over `fromLanguageModel(model)` on both sides, and
 * what every provider package's suite checks of them: all played, no errors, 0 illegal turns, offers
 * from both roles, one request per turn (the server enforced the schema: no re-asks), and the
 * structured-output mode named in the warnings (`mode`, default the JSON-schema mode). Returns the
 * agent and the warnings for the suite's own checks.
 */
export async function playSelfSessions(
  model: LanguageModelV4 | LanguageModelV3,
  sessions: number,
  seed: number,
  mode: RegExp = /JSON-schema mode/,
): Promise<{ agent: NegotiationAgent; warnings: BackendWarning[]; results: SessionResult[] }> {
  const warnings: BackendWarning[] = [];
  const agent = new NegotiationAgent({
    backend: fromLanguageModel(model),
    sampling: { temperature: 1.0, maxTokens: 160 },
    onWarning: (warning) => warnings.push(warning),
  });
  const results: SessionResult[] = [];
  const run = simulate({ buyer: agent, seller: agent, sessions, concurrency: 8, seed });
  run.on('session-end', ({ result }) => results.push(result));
  const summary = await run.done();
  expect(summary.sessions).toBe(sessions);
  expect(summary.errors).toBe(0);
  expect(results).toHaveLength(sessions);
  expect(legalityProblems(results, new BestOfferRules())).toEqual([]);
  const offers = results.flatMap((r) => r.turns).filter((t) => t.turn.price !== null);
  expect(new Set(offers.map((t) => t.role))).toEqual(new Set(['buyer', 'seller']));
  expect(agent.usage.requests).toBe(results.reduce((sum, r) => sum + r.turns.length, 0));
  expect(warnings.some((w) => 'message' in w && mode.test(w.message))).toBe(true);
  return { agent, warnings, results };
}
