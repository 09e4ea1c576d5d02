// A Hugging Face repository's model files onto disk, in TypeScript: config, safetensors weights,
// tokenizer, adapter files; each checked against the hub's checksum, resumable, HF_TOKEN for gated
// repositories, HF_ENDPOINT for a mirror. Then `haggle model build --base OUT` (or buildModel) reads it.
// Run: npx tsx examples/pull-model.ts <ORG/NAME> <out-folder>
// The test (test/examples/pull-model.test.ts) runs this against a loopback server in the hub's layout:
// the real hub is not reachable from this project's machines.
import { pullRepository } from 'haggle/onnx';

const [repo, out] = process.argv.slice(2);
if (!repo || !out) {
  console.error('usage: pull-model.ts <ORG/NAME> <out-folder>');
  process.exit(2);
}

// Ctrl-C stops the download; the part file stays, and running this again resumes it.
const controller = new AbortController();
process.once('SIGINT', () => controller.abort(new Error('interrupted')));

const files = await pullRepository(repo, { out, signal: controller.signal });
for (const file of files)
  console.log(
    `${file.skipped ? 'kept      ' : 'downloaded'} ${file.path.slice(out.length + 1)} (${file.size} bytes${file.skipped ? '' : `, ${file.checksum} checked`})`,
  );
