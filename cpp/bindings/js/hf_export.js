// Our models as Hugging Face GPT-2 checkpoints (docs/gpt2.md, "Export ours"): model.exportCheckpoint()
// and `attention-explorer export-hf`. Our models are GPT-2's architecture
// (attention/train/model_config.hpp: pre-LN blocks, LayerNorm with the biased variance and
// ε 1e-5, GELU's tanh approximation, W stored [in × out] as GPT-2's Conv1D), so the export is a
// renaming, the reverse of cpp/src/train/gpt2_checkpoint.cpp; only the switches GPT-2 does not
// have are refused (REFUSED), naming the model file's key. The model file (docs/model-format.md,
// from save(), which the engine wrote and checked) is read here as it is laid out; float16
// tensors widen exactly to float32. hfFolder gives the folder's four files (with vocab.txt and the
// README), which the CLI writes and the pages' "Export for transformers" button zips.
import { AttentionError } from './errors.js';

/** Model file keys GPT-2 fixes, the value it needs and why. */
const REFUSED = [
  ['attentionOnly', false, 'GPT-2 blocks have LayerNorms and a feed-forward layer'],
  ['tiedEmbeddings', true, 'GPT2LMHeadModel reads its logits from wte (tie_word_embeddings)'],
  ['positionalEncoding', 'learned', 'GPT-2 adds a learned position embedding (wpe)'],
  ['scale', true, 'GPT-2 divides scores by √dK (scale_attn_weights)'],
  ['causal', true, 'GPT-2 attends only to earlier positions'],
  ['residual', true, 'GPT-2 blocks add their input back'],
];

// Our tensor name after "layers.<l>." → GPT-2's after "h.<l>."; Q, K, V go into c_attn.
const BLOCK = [
  ['ln1Gain', 'ln_1.weight'],
  ['ln1Bias', 'ln_1.bias'],
  ['wO', 'attn.c_proj.weight'],
  ['bO', 'attn.c_proj.bias'],
  ['ln2Gain', 'ln_2.weight'],
  ['ln2Bias', 'ln_2.bias'],
  ['w1', 'mlp.c_fc.weight'],
  ['b1', 'mlp.c_fc.bias'],
  ['w2', 'mlp.c_proj.weight'],
  ['b2', 'mlp.c_proj.bias'],
];

const refused = (field, message) => new AttentionError('INVALID_ARGUMENT', `model.config.${field}`, message);

/** float16 bits → float32 (exact). */
function widen(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** A model file's bytes (already checked by engine.loadModel) → { config, vocabulary, tensors: name → { shape, data } }. */
export function readModelFile(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = new TextDecoder();
  let at = 20; // magic 8, version 4, size 8
  const string = (lengthBytes) => {
    const n = lengthBytes === 2 ? view.getUint16(at, true) : view.getUint32(at, true);
    at += lengthBytes;
    return text.decode(bytes.subarray(at, (at += n)));
  };
  const config = JSON.parse(string(4));
  const vocabulary = Array.from({ length: view.getUint32((at += 4) - 4, true) }, () => string(4));
  const tensors = {};
  const count = view.getUint32(at, true);
  at += 4;
  for (let t = 0; t < count; t++) {
    const name = string(2);
    const [type, rank] = [bytes[at], bytes[at + 1]];
    at += 2;
    const shape = Array.from({ length: rank }, (_, i) => view.getUint32(at + 4 * i, true));
    at += 4 * rank + 8;
    const elements = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(elements);
    for (let i = 0; i < elements; i++) {
      data[i] = type === 0 ? view.getFloat32(at + 4 * i, true) : widen(view.getUint16(at + 2 * i, true));
    }
    at += elements * (type === 0 ? 4 : 2);
    tensors[name] = { shape, data };
  }
  return { config, vocabulary, tensors };
}

/** Throws the export's refusal (field model.config.<key>) for a model GPT-2 cannot express. */
export function checkExportable(config) {
  for (const [key, wanted, why] of REFUSED) {
    if (config[key] !== wanted) {
      throw refused(
        key,
        `model.config.${key} is ${JSON.stringify(config[key])}; a GPT-2 checkpoint needs ${JSON.stringify(wanted)}: ${why}`,
      );
    }
  }
  const dK = config.dK || config.dModel / config.heads;
  if (dK * config.heads !== config.dModel) {
    throw refused(
      'dK',
      `model.config.dK (${config.dK}) · heads (${config.heads}) must be dModel (${config.dModel}): GPT-2's c_attn is [n_embd, 3·n_embd]`,
    );
  }
}

/** safetensors bytes of float32 tensors { name: { shape, data } } with transformers' "pt" metadata. */
export function safetensorsOf(tensors) {
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, { shape, data }] of Object.entries(tensors)) {
    header[name] = { dtype: 'F32', shape, data_offsets: [offset, offset + 4 * data.length] };
    offset += 4 * data.length;
  }
  const encoder = new TextEncoder();
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + encoder.encode(json).length) % 8)) % 8); // the data starts 8-aligned
  const head = encoder.encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const { data } of Object.values(tensors)) {
    for (const v of data) (view.setFloat32(at, v, true), (at += 4));
  }
  return out;
}

/** Q | K | V [C, P] each → c_attn [C, 3P] (and the biases [1, P] → [3P]). */
function concatColumns(parts) {
  const [rows, cols] = parts[0].shape;
  const data = new Float32Array(rows * cols * parts.length);
  for (let r = 0; r < rows; r++) {
    parts.forEach((p, i) => data.set(p.data.subarray(r * cols, (r + 1) * cols), r * cols * parts.length + i * cols));
  }
  return { shape: rows === 1 ? [cols * parts.length] : [rows, cols * parts.length], data };
}

const vector = ({ shape, data }) => ({ shape: shape[0] === 1 ? [shape[1]] : shape, data });

/** The config.json transformers' GPT2Config reads for our model's config. */
export function gpt2ConfigOf(config, vocabulary) {
  const bos = vocabulary.indexOf('<bos>');
  const eos = vocabulary.indexOf('<eos>');
  return {
    architectures: ['GPT2LMHeadModel'],
    model_type: 'gpt2',
    vocab_size: config.vocabSize,
    n_positions: config.contextLength,
    n_embd: config.dModel,
    n_layer: config.layers,
    n_head: config.heads,
    n_inner: config.dFF > 0 ? config.dFF : null,
    activation_function: 'gelu_new',
    layer_norm_epsilon: 1e-5,
    scale_attn_weights: true,
    scale_attn_by_inverse_layer_idx: false,
    reorder_and_upcast_attn: false,
    add_cross_attention: false,
    tie_word_embeddings: true,
    initializer_range: config.initStd ?? 0.02,
    resid_pdrop: 0,
    embd_pdrop: 0,
    attn_pdrop: 0,
    ...(bos >= 0 ? { bos_token_id: bos } : {}),
    ...(eos >= 0 ? { eos_token_id: eos } : {}),
    ...(vocabulary.indexOf('<pad>') >= 0 ? { pad_token_id: vocabulary.indexOf('<pad>') } : {}),
    torch_dtype: 'float32',
  };
}

/**
 * A model file's bytes → { config (config.json's object), safetensors (Uint8Array, float32),
 * vocabulary (our symbols in id order), source (the file's own config, which the README reads:
 * one read of the file serves both) }; throws AttentionError model.config.<key> for a model GPT-2
 * cannot express.
 */
export function exportCheckpoint(bytes) {
  const { config, vocabulary, tensors } = readModelFile(bytes);
  checkExportable(config);
  const out = { 'wte.weight': tensors.tokenEmbedding, 'wpe.weight': tensors.positionEmbedding };
  for (let l = 0; l < config.layers; l++) {
    const t = (name) => tensors[`layers.${l}.${name}`];
    for (const [ours, theirs] of BLOCK.slice(0, 2)) out[`h.${l}.${theirs}`] = vector(t(ours));
    out[`h.${l}.attn.c_attn.weight`] = concatColumns([t('wQ'), t('wK'), t('wV')]);
    out[`h.${l}.attn.c_attn.bias`] = concatColumns([t('bQ'), t('bK'), t('bV')]);
    for (const [ours, theirs] of BLOCK.slice(2)) out[`h.${l}.${theirs}`] = vector(t(ours));
  }
  out['ln_f.weight'] = vector(tensors.lnFinalGain);
  out['ln_f.bias'] = vector(tensors.lnFinalBias);
  return { config: gpt2ConfigOf(config, vocabulary), safetensors: safetensorsOf(out), vocabulary, source: config };
}

/** README.md of an exported folder: how our text becomes ids, and transformers in five lines. */
export function readmeOf(source, vocabulary, name, by = '`attention-explorer export-hf`') {
  const level = source.vocabulary;
  const start = source.documentStart;
  const startId = start === undefined ? -1 : vocabulary.indexOf(start);
  const how =
    level === 'character'
      ? 'one token per character (Unicode code point), looked up in `vocab.txt`'
      : level === 'word'
        ? `one token per word or punctuation mark as the engine's tokenizer splits text (white space and punctuation split; one token per CJK character)${source.lowercase ? ', lower-cased first' : ''}, looked up in \`vocab.txt\` (\`don't\` is \`don\`, \`'\`, \`t\`; the snippet's \`split()\` is that only for text without punctuation)`
        : 'one token per symbol of the task, separated by spaces in the text (`3 1 4 2 | 1`), looked up in `vocab.txt`';
  const ids =
    level === 'character'
      ? `[${startId >= 0 ? `${startId}] + [` : ''}ids.get(c, unk) for c in ${JSON.stringify('床前明月光')}]`
      : level === 'word'
        ? `[ids.get(w, unk) for w in "the cat sat on the mat".split()]`
        : `[ids[s] for s in "${vocabulary.slice(0, 3).join(' ')}".split()]`;
  const lines = [
    `# ${source.title ?? name} as a GPT-2 checkpoint`,
    '',
    `Exported by ${by} from \`${name}\`: ${source.layers} layers × ${source.heads} heads, width ${source.dModel}, context ${source.contextLength}, ${vocabulary.length} symbols.`,
    "The weights are the model's own (float32); only the names and the layout of Q, K, V (GPT-2's `c_attn`) changed.",
    '',
    '## Tokens',
    '',
    `This is not GPT-2's byte-level BPE vocabulary: \`vocab.txt\` holds our ${vocabulary.length} symbols, line i is id i (a line break symbol is written \`\\n\`). Text becomes ids ${how}; a symbol not in it is \`<unk>\` (id ${vocabulary.indexOf('<unk>')}).`,
    startId >= 0
      ? `The model was trained on documents that start with ${JSON.stringify(start)} (id ${startId}; the explorer shows it as ↵): put that id first, as the explorer does.`
      : '',
    '',
    '## In Python',
    '',
    '```python',
    'import torch; from transformers import GPT2LMHeadModel',
    'model = GPT2LMHeadModel.from_pretrained("path/to/this/folder").eval()',
    'vocab = [l.rstrip("\\n").replace("\\\\n", "\\n") for l in open("path/to/this/folder/vocab.txt", encoding="utf-8")]',
    `ids = {s: i for i, s in enumerate(vocab)}; unk = ids.get("<unk>", 0); x = ${ids}`,
    'print(vocab[model(torch.tensor([x])).logits[0, -1].argmax()])',
    '```',
    '',
  ];
  return lines.filter((line, i) => line !== '' || lines[i - 1] !== '').join('\n');
}

/** vocab.txt: one symbol per line, id order; a line break (the Tang models' ↵) written as \n. */
export const vocabText = (vocabulary) => vocabulary.map((s) => s.replaceAll('\n', '\\n')).join('\n') + '\n';

/**
 * The exported folder's four files, as the CLI writes them and the pages zip them: [{ name,
 * bytes }] of config.json, model.safetensors, vocab.txt and README.md. `exported` is
 * exportCheckpoint()'s answer, `source` the model's own config (how its text becomes ids: the
 * answer's `source`), `name`
 * the model file's name and `by` what wrote it (the README says so).
 */
export function hfFolder(exported, source, name, by) {
  const utf8 = (text) => new TextEncoder().encode(text);
  return [
    { name: 'config.json', bytes: utf8(`${JSON.stringify(exported.config, null, 2)}\n`) },
    { name: 'model.safetensors', bytes: exported.safetensors },
    { name: 'vocab.txt', bytes: utf8(vocabText(exported.vocabulary)) },
    { name: 'README.md', bytes: utf8(readmeOf(source, exported.vocabulary, name, by)) },
  ];
}
