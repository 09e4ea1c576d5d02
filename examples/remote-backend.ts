// For anyone with the model on a GPU server: negotiate through any OpenAI-compatible server (vLLM with
// the LoRA, SGLang, llama.cpp's server, or another machine's `haggle serve`).
// Run: npx tsx examples/remote-backend.ts http://localhost:8000/v1 negotiator [vllm|sglang|llama.cpp|openai|none]
// The key, if the server wants one, comes from $HAGGLE_API_KEY; it never appears in errors or records.
import {
  type DialectName,
  generateContexts,
  NegotiationAgent,
  OpenAICompatibleBackend,
  PopulationAgent,
  RemoteBackendError,
  simulate,
} from 'haggle';

const [baseURL, model = 'negotiator', dialect = 'vllm'] = process.argv.slice(2);
if (!baseURL) {
  console.error('usage: remote-backend.ts <base-url> [model] [dialect]');
  process.exit(2);
}

const backend = new OpenAICompatibleBackend({
  baseURL, // or several replicas: [url1, url2]
  model, // on vLLM, the name given in --lora-modules
  dialect: dialect as DialectName,
  apiKey: process.env.HAGGLE_API_KEY,
  timeoutMs: 30_000, // per attempt; a stuck request is retried
  totalTimeoutMs: 120_000, // per turn, retries included
  retry: { maxRetries: 4 },
});
const buyer = new NegotiationAgent({
  backend,
  sampling: { temperature: 1.0 }, // the card evaluates at 1.0; greedy decoding loops
  guardrails: { buyer: { maxPrice: 500 } },
  onWarning: (warning) => console.log(`backend warning: ${JSON.stringify(warning)}`),
});

const [context] = generateContexts({ count: 1, seed: 3 });
if (!context) throw new Error('no context');
try {
  const turn = await buyer.predict({
    context,
    history: [],
    role: 'buyer',
    legalActions: ['offer', 'offer_with_message'],
  });
  console.log(
    `opening turn for "${context.item.title}" (list ${context.listPrice}): ${turn.action} at ${turn.price}`,
  );

  const run = simulate({ buyer, seller: new PopulationAgent(), sessions: 8, concurrency: 4, seed: 7 });
  const summary = await run.done();
  // dealRate stands on the sessions that finished; it is null when every session failed.
  const dealRate = summary.dealRate === null ? '—' : `${(summary.dealRate * 100).toFixed(1)}%`;
  console.log(`sessions: ${summary.sessions}, deal rate: ${dealRate}, errors: ${summary.errors}`);
} catch (error) {
  // Which replica, which status, how many attempts; never the key.
  if (error instanceof RemoteBackendError)
    console.error(`${error.name} from ${error.replica}: ${error.message}`);
  throw error;
}
