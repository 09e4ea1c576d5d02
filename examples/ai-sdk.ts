// The Vercel AI SDK both ways.
// Run: npx tsx examples/ai-sdk.ts <model-folder> [<base-url> <model>]
//  1. createHaggle: haggle's local model as an AI SDK provider. `generateText` with `Output.object` (a zod
//     schema) is decoded under the schema token by token, so the object is valid by construction;
//     `streamText` hands out text and partial objects as the model decodes them.
//  2. fromLanguageModel: any AI SDK model as a haggle backend. With a base URL, @ai-sdk/openai's chat
//     model at that OpenAI-compatible server (`haggle serve`, vLLM, ...) plays a negotiation turn; a
//     hosted buyer is the same line with `anthropic('claude-...')` from @ai-sdk/anthropic.
// Without the real model, build the tiny test model first (random weights, real tokenizer):
//   npm run fixture:model -- --out .cache/tiny-qwen3 --seed 1
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, streamText } from 'ai';
import { generateContexts, NegotiationAgent } from 'haggle';
import { createHaggle, fromLanguageModel } from 'haggle/ai-sdk';
import { OnnxBackend } from 'haggle/onnx';
import { z } from 'zod';

const [folder, baseURL, served] = process.argv.slice(2);
if (!folder) {
  console.error('usage: ai-sdk.ts <model-folder> [<base-url> <model>]');
  process.exit(2);
}

const backend = await OnnxBackend.load(folder);
try {
  const haggle = createHaggle({ backend });
  const Counter = z.object({
    price: z.number().min(40).max(60),
    shipping: z.enum(['standard', 'express', 'pickup']),
    note: z.string().max(60),
  });
  const { output, usage, finishReason } = await generateText({
    model: haggle(),
    output: Output.object({ schema: Counter }),
    prompt: 'A buyer offered 35 for the lamp. Counter it.',
    maxOutputTokens: 200,
    providerOptions: { haggle: { seed: 7, temperature: 1 } },
  });
  console.log(
    `object: valid=${Counter.safeParse(output).success} price=${output.price} shipping=${output.shipping}`,
  );
  console.log(`finish: ${finishReason}, output tokens: ${usage.outputTokens}`);

  const stream = streamText({
    model: haggle(),
    prompt: 'Say hello to the buyer.',
    maxOutputTokens: 16,
    providerOptions: { haggle: { seed: 7 } },
  });
  let deltas = 0;
  for await (const _delta of stream.textStream) deltas++;
  console.log(`streamText: ${deltas} deltas, finish ${await stream.finishReason}`);

  // The same object streamed: partial objects arrive while the model is still decoding (each decoding
  // step's text is forwarded as it is sampled), and the last one is the finished, valid object.
  const streamed = streamText({
    model: haggle(),
    output: Output.object({ schema: Counter }),
    prompt: 'A buyer offered 35 for the lamp. Counter it.',
    maxOutputTokens: 200,
    providerOptions: { haggle: { seed: 7, temperature: 1 } },
  });
  let partials = 0;
  for await (const _partial of streamed.partialOutputStream) partials++;
  const final = await streamed.output;
  console.log(`partial objects: ${partials}, final valid=${Counter.safeParse(final).success}`);

  if (baseURL && served) {
    // The key is the server's business: haggle serve without --api-key takes any.
    const model = createOpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY ?? 'none' }).chat(served);
    const buyer = new NegotiationAgent({
      backend: fromLanguageModel(model),
      sampling: { temperature: 1.0, seed: 7, maxTokens: 160 },
    });
    const [context] = generateContexts({ count: 1, seed: 3 });
    if (!context) throw new Error('no context');
    const turn = await buyer.predict({ context, role: 'buyer' });
    console.log(`buyer turn: ${turn.action}${turn.price !== null ? ` at ${turn.price}` : ''}`);
    for (const warning of buyer.warnings)
      console.log(`note: ${'message' in warning ? warning.message : warning.setting}`);
  }
} finally {
  await backend.dispose();
}
