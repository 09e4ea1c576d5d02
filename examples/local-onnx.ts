// For anyone with the model exported to ONNX: run it in your own Node process, no server.
// Run: npx tsx examples/local-onnx.ts <model-folder> [cuda|cpu]
// Without a device it takes CUDA where onnxruntime-node has its CUDA provider, and the CPU otherwise.
// Without the real model, build the tiny test model first (random weights, real tokenizer):
//   npm run fixture:model -- --out .cache/tiny-qwen3 --seed 1
//   npx tsx examples/local-onnx.ts .cache/tiny-qwen3
import { generateContexts, NegotiationAgent, PopulationAgent, Session } from 'haggle';
import { cudaProviderInstalled, OnnxBackend } from 'haggle/onnx';

const [folder, asked] = process.argv.slice(2);
if (!folder) {
  console.error('usage: local-onnx.ts <model-folder> [cuda|cpu]');
  process.exit(2);
}

// onnxruntime-node ships the CPU provider only unless installed for CUDA: look before asking. Asked for
// CUDA without it, the backend runs on the CPU and says so in a warning (`fallback: false` throws).
const device = asked ?? (cudaProviderInstalled() ? 'cuda' : 'cpu');
const backend = await OnnxBackend.load(folder, { device: device as 'cuda' | 'cpu' });
console.log(`loaded ${backend.modelId} on ${backend.device} (${backend.dtype})`);
for (const warning of backend.loadWarnings) {
  console.log(`warning: ${warning.type}: ${'message' in warning ? warning.message : warning.setting}`);
}

try {
  const agent = new NegotiationAgent({
    backend,
    sampling: { temperature: 1.0, seed: 7, maxTokens: 256 }, // the card evaluates at 1.0
    guardrails: { seller: { minPrice: 40 } },
  });
  const [context] = generateContexts({ count: 1, seed: 3 });
  if (!context) throw new Error('no context');

  // One turn, abortable: a local model honours the signal between decoding steps.
  const turn = await agent.predict(
    { context, history: [], role: 'buyer' },
    { signal: AbortSignal.timeout(60_000) },
  );
  console.log(`opening turn: ${turn.action}${turn.price === null ? '' : ` at ${turn.price}`}`);

  // A whole session: the model buys from the population seller; the decode loop runs in a worker
  // thread, so the session's events keep flowing on this one.
  const session = new Session({ context, buyer: agent, seller: new PopulationAgent(), seed: 1 });
  let events = 0;
  session.on('turn', () => {
    events++;
  });
  const { outcome } = await session.run();
  console.log(
    `session: ${outcome.status} (${outcome.reason}) after ${outcome.turns} turns, ${events} turn events`,
  );
  // Every turn sends the whole conversation again; the backend's prefix cache (on by default) prefills
  // only what is new. `agent.usage` adds up what the backend reported for each request.
  const { promptTokens, cachedPromptTokens } = agent.usage;
  console.log(`prompt tokens: ${promptTokens}, of which ${cachedPromptTokens} came from the prefix cache`);
} finally {
  await backend.dispose(); // releases the onnxruntime session and stops the worker
}
