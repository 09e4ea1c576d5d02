import { compileSchema, decodeConstrained, TokenSampler } from '../src/decoding/index.js';
import { qwen3 } from '../test/decoding/qwen3.js';
const which = process.argv[2] ?? 'unique';
const schemas: Record<string, unknown> = {
  unique: {type:'array',items:{type:'string'},uniqueItems:true,minItems:Number(process.argv[3] ?? 20000)},
  enum: {enum: Array.from({length: Number(process.argv[3] ?? 4096)}, (_, i) => `value-${i}-${"x".repeat(i%30)}`)},
  const: {const: 'a'.repeat(3_500_000)},
};
const q = await qwen3();
let t = performance.now();
const grammar = compileSchema(schemas[which], q.vocabulary);
console.log('compile', performance.now() - t);
t = performance.now();
const logits = new Float32Array(q.vocabulary.tokens.length);
let state = 1;
const r = await decodeConstrained({ grammar, sampler: new TokenSampler({seed:1}), maxTokens: 24,
  nextLogits: () => { for (let i=0;i<logits.length;i++){ state = (state*1103515245+12345)>>>0; logits[i]=(state/2**32)*4;} return logits; },
  encode: (s) => q.encode(s) });
console.log('decode', performance.now() - t, r.text.length, r.finishReason);
