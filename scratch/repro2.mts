import { compileSchema } from '../src/decoding/index.js';
import { qwen3 } from '../test/decoding/qwen3.js';
const q = await qwen3();
const n = Number(process.argv[2] ?? 3);
const grammar = compileSchema({type:'array',items:{type:'string'},uniqueItems:true,minItems:n}, q.vocabulary);
const m = grammar.matcher();
for (const id of q.encode(process.argv[3] ?? '["a')) console.log(id, m.accept(id));
let t = performance.now();
try { console.log(JSON.stringify(new TextDecoder().decode(m.completionBytes()))); } catch (e) { console.log(String(e)); }
console.log('ms', performance.now() - t);
