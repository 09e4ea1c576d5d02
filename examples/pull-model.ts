// A Hugging Face repository's model files onto disk, in TypeScript: config, safetensors weights,
// tokenizer, adapter files; each checked against the hub's checksum, resumable, a token for gated
// repositories and another endpoint for a mirror (passed here from HF_TOKEN and HF_ENDPOINT, the
// variables the hub's own clients read: the library reads no environment variable itself). Then `haggle model build --base OUT` (or buildModel) reads it.
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

const files = await pullRepository(repo, {
  out,
  signal: controller.signal,
  endpoint: process.env.HF_ENDPOINT || undefined,
  token: process.env.HF_TOKEN || undefined,
});
for (const file of files)
  console.log(
    `${file.skipped ? 'kept      ' : 'downloaded'} ${file.path.slice(out.length + 1)} (${file.size} bytes${file.skipped ? '' : `, ${file.checksum} checked`})`,
  );
