// A GPT-2 checkpoint of GPT-2's own vocabulary (50,257 tokens) small enough to write in a test:
// width 2, one layer, seeded weights. It stands for gpt2 or distilgpt2 where only the tokenizer
// matters (which ids a text reads), not what the weights compute.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** A safetensors file of float32 tensors { name: [shape, values] } (the format's header, then the bytes). */
export function safetensors(tensors) {
  const header = {};
  let offset = 0;
  for (const [name, [shape, values]] of Object.entries(tensors)) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + 4 * values.length] };
    offset += 4 * values.length;
  }
  const json = Buffer.from(JSON.stringify(header));
  const out = Buffer.alloc(8 + json.length + offset);
  out.writeBigUInt64LE(BigInt(json.length), 0);
  json.copy(out, 8);
  let at = 8 + json.length;
  for (const [, values] of Object.values(tensors)) for (const v of values) at = out.writeFloatLE(v, at);
  return out;
}

/** Writes config.json and model.safetensors of a GPT-2-vocabulary checkpoint into `folder`. */
export function writeGpt2VocabularyCheckpoint(folder, { vocabSize = 50257, context = 8 } = {}) {
  let seed = 7;
  const values = (n) =>
    Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 0.2);
  const ones = (n) => Array(n).fill(1);
  const [V, T, d] = [vocabSize, context, 2];
  const config = { model_type: 'gpt2', vocab_size: V, n_positions: T, n_embd: d, n_layer: 1, n_head: 1, n_inner: null };
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(config));
  const tensors = {
    'wte.weight': [[V, d], values(V * d)],
    'wpe.weight': [[T, d], values(T * d)],
    'h.0.ln_1.weight': [[d], ones(d)],
    'h.0.ln_1.bias': [[d], values(d)],
    'h.0.attn.c_attn.weight': [[d, 3 * d], values(3 * d * d)],
    'h.0.attn.c_attn.bias': [[3 * d], values(3 * d)],
    'h.0.attn.c_proj.weight': [[d, d], values(d * d)],
    'h.0.attn.c_proj.bias': [[d], values(d)],
    'h.0.ln_2.weight': [[d], ones(d)],
    'h.0.ln_2.bias': [[d], values(d)],
    'h.0.mlp.c_fc.weight': [[d, 4 * d], values(4 * d * d)],
    'h.0.mlp.c_fc.bias': [[4 * d], values(4 * d)],
    'h.0.mlp.c_proj.weight': [[4 * d, d], values(4 * d * d)],
    'h.0.mlp.c_proj.bias': [[d], values(d)],
    'ln_f.weight': [[d], ones(d)],
    'ln_f.bias': [[d], values(d)],
  };
  writeFileSync(path.join(folder, 'model.safetensors'), safetensors(tensors));
}

/**
 * Writes a GPT-2-vocabulary checkpoint whose two heads have a role by construction (one layer,
 * n_embd 6, context 64): every token's embedding is zero, so attention reads only the position.
 * Position t's embedding is [a, −a, cos θt, sin θt, −cos θt, −sin θt] (a = 1 at t = 0, else −1;
 * θ = 2π/100), whose mean is 0 and variance 2/3 at every t: ln_1 only scales it. Head 1's query
 * is constant and its key is 20·a, so it looks at the first token; head 2's query is position t
 * turned back by θ, and its key the position itself, so it looks at the previous token. Values,
 * projections and the MLP are zero. For "measure roles": first and previous hold, nothing else.
 */
export function writeGpt2RolesCheckpoint(folder, { vocabSize = 50257 } = {}) {
  const [V, T, d] = [vocabSize, 64, 6];
  const theta = (2 * Math.PI) / 100;
  const beta = 8000;
  const config = { model_type: 'gpt2', vocab_size: V, n_positions: T, n_embd: d, n_layer: 1, n_head: 2, n_inner: null };
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(config));
  const zeros = (n) => Array(n).fill(0);
  const ones = (n) => Array(n).fill(1);
  const wpe = [];
  for (let t = 0; t < T; t++) {
    const a = t === 0 ? 1 : -1;
    const [c, s] = [Math.cos(theta * t), Math.sin(theta * t)];
    wpe.push(a, -a, c, s, -c, -s);
  }
  // c_attn [in 6, out 18]: q 0–5 (head 1: 0–2, head 2: 3–5), k 6–11, v 12–17.
  const attn = zeros(d * 3 * d);
  const at = (i, o, v) => (attn[i * 3 * d + o] = v);
  at(0, 6, 20); // head 1's key: 20·a
  at(2, 3, beta * Math.cos(theta)); // head 2's query: (cos θ(t−1), sin θ(t−1))·β
  at(3, 3, beta * Math.sin(theta));
  at(2, 4, -beta * Math.sin(theta));
  at(3, 4, beta * Math.cos(theta));
  at(2, 9, 1); // head 2's key: (cos θt, sin θt)
  at(3, 10, 1);
  const bias = zeros(3 * d);
  bias[0] = 1; // head 1's query: constant
  const tensors = {
    'wte.weight': [[V, d], zeros(V * d)],
    'wpe.weight': [[T, d], wpe],
    'h.0.ln_1.weight': [[d], ones(d)],
    'h.0.ln_1.bias': [[d], zeros(d)],
    'h.0.attn.c_attn.weight': [[d, 3 * d], attn],
    'h.0.attn.c_attn.bias': [[3 * d], bias],
    'h.0.attn.c_proj.weight': [[d, d], zeros(d * d)],
    'h.0.attn.c_proj.bias': [[d], zeros(d)],
    'h.0.ln_2.weight': [[d], ones(d)],
    'h.0.ln_2.bias': [[d], zeros(d)],
    'h.0.mlp.c_fc.weight': [[d, 4 * d], zeros(4 * d * d)],
    'h.0.mlp.c_fc.bias': [[4 * d], zeros(4 * d)],
    'h.0.mlp.c_proj.weight': [[4 * d, d], zeros(4 * d * d)],
    'h.0.mlp.c_proj.bias': [[d], zeros(d)],
    'ln_f.weight': [[d], ones(d)],
    'ln_f.bias': [[d], zeros(d)],
  };
  writeFileSync(path.join(folder, 'model.safetensors'), safetensors(tensors));
}
