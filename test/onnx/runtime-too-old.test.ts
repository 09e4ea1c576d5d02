import { describe, expect, it } from 'vitest';
import { runtimeTooOldError } from '../../src/onnx/session-factory.js';
import { ModelFolderError } from '../../src/prompt/errors.js';

// haggle's q4 and q8 exports pass GroupQueryAttention its `attention_bias` (input 11), which
// onnxruntime learned in 1.22. onnxruntime-node 1.21.0 refuses the graph at session creation with the
// message below (captured from it, loading the tiny fixture's q4 export); the backend turns it into a
// typed error that says what to install. The installed runtime (1.30) loads the graph, so the message
// is given here as onnxruntime 1.21 wrote it.
const ORT_1_21_MESSAGE =
  'This is an invalid model. In Node, ("node_115", GroupQueryAttention, "com.microsoft", -1) : ' +
  '("rotaryembedding_94": tensor(float),"rotaryembedding_110": tensor(float),"matmul_112": tensor(float),' +
  '"past_key_values.0.key": tensor(float),"past_key_values.0.value": tensor(float),"cast_51": tensor(int32),' +
  '"cast_53": tensor(int32),"","","","where_56": tensor(float),) -> ("groupqueryattention_114",' +
  '"present.0.key": tensor(float),"present.0.value": tensor(float),) , Error Node(node_115) with ' +
  'schema(com.microsoft::GroupQueryAttention:1) has input size 11 not in range [min=7, max=9].';

describe('an onnxruntime too old for the graph', () => {
  it('becomes a ModelFolderError that names the operator, the version to install and the way around', () => {
    const error = runtimeTooOldError('/models/q/onnx/model_q4.onnx', new Error(ORT_1_21_MESSAGE));
    expect(error).toBeInstanceOf(ModelFolderError);
    expect(error?.path).toBe('/models/q/onnx');
    expect(error?.message).toContain("model_q4.onnx uses onnxruntime's GroupQueryAttention with 11 inputs");
    expect(error?.message).toContain('1.22 or later');
    expect(error?.message).toContain("dtype: 'fp32'");
    expect((error?.cause as Error | undefined)?.message).toBe(ORT_1_21_MESSAGE);
  });

  it('leaves other load errors alone', () => {
    expect(
      runtimeTooOldError('/m/onnx/model.onnx', new Error('Load model failed: protobuf parsing')),
    ).toBeUndefined();
    expect(
      runtimeTooOldError('/m/onnx/model.onnx', 'External data path does not exist: "x"'),
    ).toBeUndefined();
  });
});
