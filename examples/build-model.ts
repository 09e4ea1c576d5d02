// From a Hugging Face checkpoint and the card's LoRA adapter to a negotiation turn, in TypeScript only:
// build the ONNX folder (the adapter merged in), load it, predict.
// Run: npx tsx examples/build-model.ts <base-folder> <adapter-folder> <out-folder> [fp32|fp16|q4f16]
//   <base-folder>: Qwen/Qwen3-4B as downloaded (config.json, safetensors shards + index, tokenizer)
//   <adapter-folder>: the card's adapter (adapter_config.json, adapter_model.safetensors)
// The test (test/examples/build-model.test.ts) writes a small random checkpoint and adapter in those
// formats and runs this on them.
import { generateContexts, NegotiationAgent } from 'haggle';
import { buildModel, OnnxBackend } from 'haggle/onnx';

const [base, adapter, out, dtype = 'fp32'] = process.argv.slice(2);
if (!base || !adapter || !out) {
  console.error('usage: build-model.ts <base-folder> <adapter-folder> <out-folder> [fp32|fp16|q4f16]');
  process.exit(2);
}

// Ctrl-C stops the build between tensors and removes what it had written.
const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('interrupted')));

const built = await buildModel({
  base,
  adapter,
  out,
  dtype: dtype as 'fp32' | 'fp16' | 'q4f16',
  overwrite: true,
  signal: controller.signal,
});
const record = built.record;
console.log(
  `built ${record.files[dtype as 'fp32']} from base ${record.base.sha256.slice(0, 12)} + adapter ` +
    `${record.adapter?.sha256.slice(0, 12)} (r ${record.adapter?.r}, alpha ${record.adapter?.loraAlpha}, ` +
    `${record.adapter?.mergedProjections} projections merged)`,
);
for (const warning of built.warnings) console.log(`warning: ${warning}`);

const backend = await OnnxBackend.load(out, { device: 'cpu', dtype: dtype as 'fp32' });
try {
  const agent = new NegotiationAgent({ backend, sampling: { temperature: 1.0, seed: 7, maxTokens: 256 } });
  const [context] = generateContexts({ count: 1, seed: 3 });
  if (!context) throw new Error('no context');
  const turn = await agent.predict({ context, history: [], role: 'buyer' });
  console.log(`opening turn: ${turn.action}${turn.price === null ? '' : ` at ${turn.price}`}`);
} finally {
  await backend.dispose();
}
