import { priceWithinBounds } from '../../../src/contract/guardrails.js';
import type { Role } from '../../../src/contract/index.js';
import {
  ACTIONS,
  type Action,
  type Guardrails,
  TurnSchema,
  turnJsonSchema,
} from '../../../src/contract/index.js';
import {
  type CompiledGrammar,
  compileSchema,
  decodeConstrained,
  TokenSampler,
} from '../../../src/decoding/index.js';
import { Random } from '../../../src/internal/random.js';
import type { Qwen3 } from './qwen3.js';

/** One kind of turn request: the schema options an agent would use, compiled once. */
export interface TurnVariant {
  name: string;
  role: Role;
  guardrails: Guardrails;
  actions: readonly Action[];
  labels: readonly string[] | null;
  grammar: CompiledGrammar;
}

export const KNOWN_LABELS = [
  'build_rapport',
  'request_information',
  'justify_with_market_data',
  'invoke_compromise',
];

/** Variants covering guardrails on either side, narrowed action sets, known and open labels, short messages. */
export function turnVariants(q: Qwen3): TurnVariant[] {
  const specs: Array<Omit<TurnVariant, 'grammar'> & { maxMessageLength?: number }> = [
    { name: 'open', role: 'seller', guardrails: {}, actions: ACTIONS, labels: null },
    {
      name: 'seller-floor',
      role: 'seller',
      guardrails: { seller: { minPrice: 40 } },
      actions: ACTIONS,
      labels: null,
    },
    {
      name: 'buyer-budget',
      role: 'buyer',
      guardrails: { buyer: { maxPrice: 99.99 } },
      actions: ACTIONS,
      labels: null,
    },
    {
      name: 'both-bounds',
      role: 'seller',
      guardrails: { seller: { minPrice: 12.5, maxPrice: 13.25 } },
      actions: ['offer', 'offer_with_message', 'decline'],
      labels: KNOWN_LABELS,
    },
    {
      name: 'no-accept',
      role: 'buyer',
      guardrails: { buyer: { minPrice: 0, maxPrice: 1000 } },
      actions: ['offer', 'offer_with_message', 'message_only', 'no_response', 'decline'],
      labels: null,
      maxMessageLength: 40,
    },
    { name: 'known-labels', role: 'buyer', guardrails: {}, actions: ACTIONS, labels: KNOWN_LABELS },
  ];
  return specs.map((spec) => ({
    ...spec,
    grammar: compileSchema(
      turnJsonSchema({
        role: spec.role,
        guardrails: spec.guardrails,
        actions: spec.actions,
        maxMessageLength: spec.maxMessageLength,
        profile: spec.labels
          ? {
              id: 'test-known',
              labels: { kind: 'known', values: [...spec.labels] },
              responseTimeUnit: 'hours',
              template: 'qwen3_nothink',
              sampling: { temperature: 1 },
            }
          : undefined,
      }),
      q.vocabulary,
    ),
  }));
}

export interface RandomTurnsResult {
  turns: number;
  failures: Array<{ variant: string; text: string; problem: string }>;
  tokens: number;
  forwardPasses: number;
  finishedByBudget: number;
  actions: Record<string, number>;
}

/**
 * Decodes `turns` turns from random logits: per step, a window at a random offset into a fixed
 * buffer of normals whose spread (0.5 to 8) is drawn per turn; a per-turn token budget drawn from
 * minTokens to maxTokens (default 16 to 400). Jump-forward on every other turn. Checks that each text parses and passes TurnSchema, the variant's actions,
 * labels and guardrails.
 */
export async function runRandomTurns(
  q: Qwen3,
  variants: readonly TurnVariant[],
  options: { turns: number; temperature: number; seed: number; minTokens?: number; maxTokens?: number },
): Promise<RandomTurnsResult> {
  const size = q.vocabulary.tokens.length;
  const random = new Random(options.seed);
  // Buffers of scaled normals; a step's logits are a window at a random offset (no copy per step).
  const spreads = [0.5, 1, 2, 4, 8];
  const buffers = spreads.map((spread) => {
    const buffer = new Float32Array(size * 2);
    for (let i = 0; i < buffer.length; i++) buffer[i] = spread * random.normal();
    return buffer;
  });
  const result: RandomTurnsResult = {
    turns: 0,
    failures: [],
    tokens: 0,
    forwardPasses: 0,
    finishedByBudget: 0,
    actions: {},
  };
  for (let turn = 0; turn < options.turns; turn++) {
    const variant = variants[turn % variants.length] as TurnVariant;
    const noise = random.pick(buffers);
    const decoded = await decodeConstrained({
      grammar: variant.grammar,
      sampler: new TokenSampler({ temperature: options.temperature, seed: options.seed * 1_000_003 + turn }),
      maxTokens: random.int(options.minTokens ?? 16, options.maxTokens ?? 400),
      encode: turn % 2 === 0 ? q.encode : undefined,
      nextLogits: () => {
        const offset = random.int(0, size - 1);
        return noise.subarray(offset, offset + size);
      },
    });
    result.turns++;
    result.tokens += decoded.tokens.length;
    result.forwardPasses += decoded.forwardPasses;
    if (decoded.finishReason === 'budget') result.finishedByBudget++;
    const problem = checkTurn(decoded.text, variant);
    if (problem) result.failures.push({ variant: variant.name, text: decoded.text, problem });
    else {
      const action = (JSON.parse(decoded.text) as { action: string }).action;
      result.actions[action] = (result.actions[action] ?? 0) + 1;
    }
  }
  return result;
}

/** Why `text` is not a valid turn for `variant`, or null. */
export function checkTurn(text: string, variant: Omit<TurnVariant, 'grammar'>): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `does not parse: ${(error as Error).message}`;
  }
  const parsed = TurnSchema.safeParse(value);
  if (!parsed.success) return `fails TurnSchema: ${parsed.error.message}`;
  const turn = parsed.data;
  if (!variant.actions.includes(turn.action)) return `action ${turn.action} not allowed`;
  const bounds = variant.guardrails[variant.role] ?? {};
  if (turn.price !== null && !priceWithinBounds(turn.price, bounds))
    return `price ${turn.price} outside guardrails`;
  if (variant.labels && turn.message_labels.some((l) => !variant.labels?.includes(l))) return 'unknown label';
  return null;
}
