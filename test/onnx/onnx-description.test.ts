import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { DeferredOnnxBackend } from '../../src/onnx/deferred-onnx-backend.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { withoutLocations } from '../../src/simulation/provenance.js';
import { fixtureModel } from './fixture-model.js';

it('the ONNX backends describe model, device, dtype and architecture, the folder only as location', async () => {
  const folder = fixtureModel(1);
  const deferred = new DeferredOnnxBackend(folder, { device: 'cpu' });
  const loaded = await OnnxBackend.load(folder, { device: 'cpu' });
  try {
    const expected = {
      provider: 'onnx',
      modelId: 'fixture-model-v4-seed-1',
      device: 'cpu',
      dtype: 'fp32',
      model: {
        modelType: 'qwen3',
        layers: loaded.shape.layers,
        kvHeads: loaded.shape.kvHeads,
        headDim: loaded.shape.headDim,
        vocabSize: loaded.shape.vocabSize,
      },
      location: { folder: resolve(folder) },
    };
    expect(loaded.describe()).toEqual(expected);
    // Described before loading exactly as after, so a run header written first matches the sessions.
    expect(deferred.describe()).toEqual(expected);
    const agent = new NegotiationAgent({ backend: deferred });
    expect(withoutLocations(agent.describe()).backend).toEqual({
      provider: 'onnx',
      modelId: 'fixture-model-v4-seed-1',
      device: 'cpu',
      dtype: 'fp32',
      model: expected.model,
    });
  } finally {
    await loaded.dispose();
    await deferred.dispose();
  }
});
