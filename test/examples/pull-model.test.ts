import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { tempFolder } from '../onnx/model-build/checkpoints.js';
import { startLoopbackHub } from '../onnx/model-build/loopback-hub.js';
import { runExampleOutput } from './run-example.js';

const root = tempFolder('example-pull-model');
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('pull-model: downloads a repository from HF_ENDPOINT, checked, and keeps it on a second run', async () => {
  const repo = join(root, 'repo');
  mkdirSync(repo);
  writeFileSync(join(repo, 'adapter_config.json'), '{"peft_type": "LORA", "r": 8}\n');
  writeFileSync(join(repo, 'adapter_model.safetensors'), Buffer.alloc(50_000, 7));
  writeFileSync(join(repo, 'README.md'), '# left out\n');
  const hub = await startLoopbackHub({ repos: { 'acme/lora': repo } });
  vi.stubEnv('HF_ENDPOINT', hub.endpoint);
  vi.stubEnv('HF_TOKEN', undefined);
  try {
    const out = join(root, 'out');
    const first = await runExampleOutput('pull-model.ts', 'acme/lora', out);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(
      'downloaded adapter_config.json (30 bytes, git-sha1 checked)\n' +
        'downloaded adapter_model.safetensors (50000 bytes, sha256 checked)\n',
    );
    expect(readFileSync(join(out, 'adapter_model.safetensors')).equals(Buffer.alloc(50_000, 7))).toBe(true);
    const second = await runExampleOutput('pull-model.ts', 'acme/lora', out);
    expect(second.stdout).toBe(
      'kept       adapter_config.json (30 bytes)\nkept       adapter_model.safetensors (50000 bytes)\n',
    );
  } finally {
    vi.unstubAllEnvs();
    await hub.close();
  }
}, 60_000);
