import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeHfCheckpoint, writeLoraAdapter } from '../../../scripts/fixture-model/hf-checkpoint.js';
import { runCli } from '../../../src/cli/main.js';
import { TurnSchema } from '../../../src/contract/turn.js';
import { HubDownloadError, pullRepository } from '../../../src/onnx/model-build/hub-pull.js';
import { captureIo } from '../../helpers/capture-io.js';
import { SMALL_QWEN3, tempFolder } from './checkpoints.js';
import { startLoopbackHub } from './loopback-hub.js';

const root = tempFolder('hub-pull');
const base = join(root, 'served-base');
const adapter = join(root, 'served-adapter');

beforeAll(() => {
  writeHfCheckpoint(base, { shape: SMALL_QWEN3, seed: 8, dtype: 'BF16', shards: 2 });
  writeFileSync(join(base, 'README.md'), '# not wanted');
  writeLoraAdapter(adapter, SMALL_QWEN3, { rank: 8, alpha: 16, seed: 9 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('pullRepository against a loopback hub (the real hub is not reachable from these machines)', () => {
  it('downloads the model files, pages the listing, checks sizes and SHA-256, and keeps what is complete', async () => {
    const hub = await startLoopbackHub({ repos: { 'Qwen/Qwen3-Small': base }, pageSize: 3 });
    try {
      const out = join(root, 'pulled');
      const pulled = await pullRepository('Qwen/Qwen3-Small', { out, endpoint: hub.endpoint, token: '' });
      expect(pulled.map((f) => f.path.slice(out.length + 1)).sort()).toEqual([
        'config.json',
        'generation_config.json',
        'model-00001-of-00002.safetensors',
        'model-00002-of-00002.safetensors',
        'model.safetensors.index.json',
        'tokenizer.json',
        'tokenizer_config.json',
      ]);
      expect(existsSync(join(out, 'README.md'))).toBe(false);
      for (const file of pulled) {
        expect(readFileSync(file.path)).toEqual(readFileSync(join(base, file.path.slice(out.length + 1))));
        if (file.path.endsWith('.safetensors')) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
      }
      expect(hub.requests.filter((r) => r.path.includes('/tree/'))).toHaveLength(3);
      const again = await pullRepository('Qwen/Qwen3-Small', { out, endpoint: hub.endpoint, token: '' });
      expect(again.every((f) => f.skipped)).toBe(true);
    } finally {
      await hub.close();
    }
  });

  it('resumes a dropped download with a range request and ends with the right bytes', async () => {
    const hub = await startLoopbackHub({ repos: { 'o/adapter': adapter }, cutAfter: 10_000 });
    try {
      const out = join(root, 'resumed');
      const first = await pullRepository('o/adapter', { out, endpoint: hub.endpoint, token: '' }).catch(
        (e: unknown) => e,
      );
      expect(first).toBeInstanceOf(HubDownloadError);
      expect((first as Error).message).toMatch(/run the same command again to resume/);
      const part = join(out, 'adapter_model.safetensors.part');
      expect(statSync(part).size).toBe(10_000);
      await pullRepository('o/adapter', { out, endpoint: hub.endpoint, token: '' });
      expect(hub.requests.at(-1)?.range).toBe('bytes=10000-');
      expect(readFileSync(join(out, 'adapter_model.safetensors'))).toEqual(
        readFileSync(join(adapter, 'adapter_model.safetensors')),
      );
      expect(existsSync(part)).toBe(false);
    } finally {
      await hub.close();
    }
  });

  it('a corrupted file fails its checksum and is removed; a gated repository asks for HF_TOKEN and gets it', async () => {
    const corrupt = await startLoopbackHub({
      repos: { 'o/adapter': adapter },
      corrupt: ['adapter_model.safetensors'],
    });
    try {
      const out = join(root, 'corrupt');
      const error = await pullRepository('o/adapter', { out, endpoint: corrupt.endpoint, token: '' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HubDownloadError);
      expect((error as Error).message).toMatch(/SHA-256 [0-9a-f]{64} differs from the hub's/);
      expect(existsSync(join(out, 'adapter_model.safetensors'))).toBe(false);
      expect(existsSync(join(out, 'adapter_model.safetensors.part'))).toBe(false);
    } finally {
      await corrupt.close();
    }
    const gated = await startLoopbackHub({ repos: { 'o/adapter': adapter }, token: 'hf_secret' });
    try {
      const error = await pullRepository('o/adapter', {
        out: join(root, 'gated'),
        endpoint: gated.endpoint,
        token: '',
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubDownloadError);
      expect((error as HubDownloadError).status).toBe(401);
      expect((error as Error).message).toMatch(/gated or private.*set HF_TOKEN/);
      const pulled = await pullRepository('o/adapter', {
        out: join(root, 'gated'),
        endpoint: gated.endpoint,
        token: 'hf_secret',
      });
      expect(pulled).toHaveLength(2);
      expect(gated.requests.at(-1)?.authorization).toBe('Bearer hf_secret');
    } finally {
      await gated.close();
    }
  });

  it('haggle model build --base hf:ORG/NAME --adapter hf:ORG/NAME pulls, builds, and the folder predicts', async () => {
    const hub = await startLoopbackHub({
      repos: { 'Qwen/Qwen3-Small': base, 'someone/negotiation-lora': adapter },
    });
    const previous = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = hub.endpoint;
    try {
      const out = join(root, 'built');
      const io = captureIo();
      const code = await runCli(
        [
          'model',
          'build',
          '--base',
          'hf:Qwen/Qwen3-Small',
          '--adapter',
          'hf:someone/negotiation-lora',
          '--out',
          out,
          '--download-dir',
          join(root, 'hub-cache'),
        ],
        io,
      );
      expect(io.err()).not.toMatch(/haggle: (?!hashing|wrote)/);
      expect(code).toBe(0);
      expect(
        existsSync(join(root, 'hub-cache', 'Qwen--Qwen3-Small', 'model-00002-of-00002.safetensors')),
      ).toBe(true);
      expect(existsSync(join(root, 'hub-cache', 'someone--negotiation-lora', 'adapter_config.json'))).toBe(
        true,
      );
      const pull = captureIo();
      expect(
        await runCli(
          [
            'model',
            'pull',
            'someone/negotiation-lora',
            '--out',
            join(root, 'hub-cache', 'someone--negotiation-lora'),
          ],
          pull,
        ),
      ).toBe(0);
      expect(pull.out()).toBe(
        `pulled someone/negotiation-lora into ${join(root, 'hub-cache', 'someone--negotiation-lora')}: 0 downloaded, 2 already there\n`,
      );

      const context = join(root, 'context.json');
      writeFileSync(
        context,
        JSON.stringify({
          id: 'l1',
          item: { title: 'Desk lamp', category: 'Home', condition: 'Used', description: '' },
          listPrice: 40,
          currency: 'USD',
          seller: { feedbackScore: 10 },
          buyer: { feedbackScore: 2 },
        }),
      );
      const predicted = captureIo();
      expect(
        await runCli(['predict', '--backend', 'onnx', '--model', out, '--context', context], predicted),
      ).toBe(0);
      expect(TurnSchema.safeParse(JSON.parse(predicted.out())).success).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = previous;
      await hub.close();
    }
  });
});
