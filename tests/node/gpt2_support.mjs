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
