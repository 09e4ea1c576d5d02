import type { OnnxBackend } from '../../src/onnx/index.js';

/** A negotiation turn's shape, kept to what every constrained decoder here accepts (no `pattern`). */
export const TURN_SCHEMA = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'offer_with_message', 'accept', 'decline'] },
    price: { type: 'number', minimum: 0, maximum: 10000 },
    message: { type: 'string', maxLength: 60 },
  },
  required: ['action', 'price', 'message'],
  additionalProperties: false,
};

/** A typical turn's prompt: a listing, two offers and the instruction, about 150 tokens (qwen3_nothink style). */
export const TURN_PROMPT =
  '<|im_start|>system\nYou are the seller in an online marketplace negotiation (eBay Best Offer). ' +
  'Reply with one JSON object: action, price and a short message.<|im_end|>\n' +
  '<|im_start|>user\nListing: Nikon F3 35mm film camera body, serviced in 2024, light brassing on the ' +
  'top plate, original box. List price 120.00 USD. Seller: 1,204 ratings, 99.6% positive. Buyer: ' +
  '38 ratings, 100% positive.\nBuyer (day 1): offer 80.00 USD, "Would you take 80? I can pay today."\n' +
  'Seller (day 1): counter 110.00 USD.\nBuyer (day 2): offer 95.00 USD, "Meet me at 95?"<|im_end|>\n' +
  '<|im_start|>assistant\n';

export interface TurnMeasurement {
  /** Prompt tokens of the turn. */
  promptTokens: number;
  /** Time to first token: a fresh request's prefill and first decoding step (maxTokens 1). */
  timeToFirstTokenMs: number;
  batch1: { turns: number; tokens: number; tokensPerSecond: number; msPerTurn: number } | null;
  batch8: { turns: number; tokens: number; tokensPerSecond: number; msPerTurn: number } | null;
  /** Set when a part was left out to keep to the time budget. */
  skipped: string[];
}

/**
 * Tokens per second for a typical turn at batch 1 (one request after another) and batch 8 (eight at
 * once), and the time to first token, on a loaded backend (prefix cache off, so every turn pays its
 * prefill as a new conversation's would). Stops adding turns when `deadline` (ms, performance.now())
 * would be passed, and says what it left out.
 */
export async function measureTurns(
  backend: OnnxBackend,
  options: { maxTokens: number; turns: number; deadline: number },
): Promise<TurnMeasurement> {
  const generate = (seed: number, maxTokens = options.maxTokens) =>
    backend.doGenerate({
      prompt: { messages: [], text: TURN_PROMPT },
      responseFormat: { type: 'json', schema: TURN_SCHEMA },
      seed,
      maxTokens,
      temperature: 1,
    });
  const skipped: string[] = [];
  // Warm-up: grammar compilation and the provider's first runs at batch 1 and 8.
  await generate(1000, 2);
  await Promise.all(Array.from({ length: 8 }, (_, i) => generate(1001 + i, 2)));
  let started = performance.now();
  const first = await generate(7, 1);
  // (The warm-up and this first token are not cut short: without them there is nothing to report.)
  const timeToFirstTokenMs = performance.now() - started;
  const promptTokens = first.usage.promptTokens;

  // One batch-1 turn, then a round of eight, then more batch-1 turns while there is time: with
  // little time left both batch sizes get a figure.
  let tokens = 0;
  let turns = 0;
  let batch1Ms = 0;
  const oneTurn = async () => {
    const t = performance.now();
    tokens += (await generate(turns)).usage.completionTokens;
    batch1Ms += performance.now() - t;
    turns++;
  };
  await oneTurn();
  let batch8: TurnMeasurement['batch8'] = null;
  // A round of eight takes a few batch-1 turns' time on a memory-bound device.
  if (performance.now() + 3 * batch1Ms > options.deadline) {
    skipped.push('batch 8: left out (time budget)');
  } else {
    started = performance.now();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => generate(100 + i)));
    const seconds = (performance.now() - started) / 1000;
    const total = results.reduce((n, r) => n + r.usage.completionTokens, 0);
    batch8 = { turns: 8, tokens: total, tokensPerSecond: total / seconds, msPerTurn: (seconds * 1000) / 8 };
  }
  while (turns < options.turns) {
    if (performance.now() + batch1Ms / turns > options.deadline) {
      skipped.push(`batch 1: ${options.turns - turns} of ${options.turns} turns left out (time budget)`);
      break;
    }
    await oneTurn();
  }
  const batch1 = { turns, tokens, tokensPerSecond: tokens / (batch1Ms / 1000), msPerTurn: batch1Ms / turns };
  return { promptTokens, timeToFirstTokenMs, batch1, batch8, skipped };
}
