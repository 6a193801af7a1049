// Corpus language-model files for the tests, independent of the shipped models: a task
// trainer's file (seeded weights in the parameter layout the engine writes) re-written with a
// corpus vocabulary and configuration. The reader and writer here are a second implementation of
// docs/model-format.md (float32 tensors only).
import { fnv1a64 } from './training_support.mjs';

const MAGIC = 'ATTNMODL';
export const SPECIALS = Object.freeze(['<pad>', '<unk>', '<bos>', '<eos>']);

/** { config: object, vocabulary: string[], tensors: [{ name, shape, data: Float32Array }] } */
export function parseModelFile(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  const u8 = () => view.getUint8(at++);
  const u16 = () => ((at += 2), view.getUint16(at - 2, true));
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), Number(view.getBigUint64(at - 8, true)));
  const text = (length) => ((at += length), utf8.decode(bytes.subarray(at - length, at)));
  if (text(8) !== MAGIC) throw new Error('not a model file');
  if (u32() !== 1) throw new Error('not version 1');
  u64();
  const config = JSON.parse(text(u32()));
  const vocabulary = Array.from({ length: u32() }, () => text(u32()));
  const tensors = Array.from({ length: u32() }, () => {
    const name = text(u16());
    if (u8() !== 0) throw new Error('only float32 tensors are read here');
    const shape = Array.from({ length: u8() }, () => u32());
    const size = u64();
    const data = new Float32Array(size / 4);
    for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(at + 4 * i, true);
    at += size;
    return { name, shape, data };
  });
  return { config, vocabulary, tensors };
}

/** The bytes of a model file with float32 tensors and its checksum. */
export function writeModelFile({ config, vocabulary, tensors }) {
  const encoder = new TextEncoder();
  const parts = [];
  const u8 = (n) => parts.push(Uint8Array.of(n));
  const number = (n, bytes, set) => {
    const b = new Uint8Array(bytes);
    set(new DataView(b.buffer), n);
    parts.push(b);
  };
  const u16 = (n) => number(n, 2, (v, x) => v.setUint16(0, x, true));
  const u32 = (n) => number(n, 4, (v, x) => v.setUint32(0, x, true));
  const u64 = (n) => number(n, 8, (v, x) => v.setBigUint64(0, BigInt(x), true));
  const string = (s, length) => {
    const b = encoder.encode(s);
    length(b.length);
    parts.push(b);
  };
  parts.push(encoder.encode(MAGIC));
  u32(1);
  const sizeAt = parts.length;
  u64(0);
  string(JSON.stringify(config), u32);
  u32(vocabulary.length);
  for (const symbol of vocabulary) string(symbol, u32);
  u32(tensors.length);
  for (const t of tensors) {
    string(t.name, u16);
    u8(0);
    u8(t.shape.length);
    for (const d of t.shape) u32(d);
    u64(t.data.length * 4);
    const b = new Uint8Array(t.data.length * 4);
    const v = new DataView(b.buffer);
    t.data.forEach((x, i) => v.setFloat32(4 * i, x, true));
    parts.push(b);
  }
  const size = parts.reduce((n, p) => n + p.length, 0) + 8;
  new DataView(parts[sizeAt].buffer).setBigUint64(0, BigInt(size), true);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const p of parts) (bytes.set(p, at), (at += p.length));
  new DataView(bytes.buffer).setBigUint64(size - 8, fnv1a64(bytes.subarray(0, size - 8)), true);
  return bytes;
}

/**
 * A corpus model file: `symbols` after the four specials, contextLength 2 · length, weights of
 * a sort trainer of the same shape (seeded; `initStd` large enough for peaked predictions);
 * `extra` keys added to the configuration (e.g. lowercase: true).
 */
export function corpusModelFile(
  engine,
  {
    level = 'character',
    symbols,
    length = 8,
    layers = 2,
    heads = 2,
    dModel = 16,
    seed = 3,
    initStd = 0.5,
    extra = {},
    edit,
  },
) {
  const vocabulary = [...SPECIALS, ...symbols];
  const trainer = engine.createTrainer({
    task: 'sort',
    length,
    alphabet: vocabulary.length - 1,
    layers,
    heads,
    dModel,
    seed,
    initStd,
  });
  let file;
  try {
    file = parseModelFile(trainer.save());
  } finally {
    trainer.dispose();
  }
  // The task's keys (task, taskLength, …) go; a corpus model has none.
  const config = Object.fromEntries(Object.entries(file.config).filter(([key]) => !key.startsWith('task')));
  const model = {
    config: {
      ...config,
      vocabulary: level,
      corpus: 'test symbols',
      title: 'a test model',
      titleZh: '测试模型',
      ...extra,
    },
    vocabulary,
    tensors: file.tensors,
  };
  return writeModelFile(edit ? edit(model) : model);
}

/**
 * A valid character-level model file with a large vocabulary and context: the
 * four specials and `vocabSize − 4` single code points (from U+0100, skipping the surrogates),
 * contextLength `contextLength`, one layer of dModel 4; the layer's weights are a sort
 * trainer's, the token embedding seeded (xorshift) in ±0.5. float32: about 1.5 MB at 65,536.
 */
export function largeVocabularyModelFile(engine, { vocabSize = 65536, contextLength = 2048 } = {}) {
  const symbols = [];
  for (let c = 0x100; symbols.length < vocabSize - SPECIALS.length; c++) {
    if (c < 0xd800 || c > 0xdfff) symbols.push(String.fromCodePoint(c));
  }
  let state = 0x9e3779b9;
  const next = () => ((state ^= state << 13), (state ^= state >>> 17), (state ^= state << 5), state >>> 0);
  return corpusModelFile(engine, {
    symbols: ['a', 'b', 'c'],
    layers: 1,
    heads: 1,
    dModel: 4,
    length: 4,
    edit: (model) => ({
      config: { ...model.config, vocabSize, contextLength },
      vocabulary: [...SPECIALS, ...symbols],
      tensors: model.tensors.map((t) =>
        t.name === 'tokenEmbedding'
          ? {
              ...t,
              shape: [vocabSize, 4],
              data: Float32Array.from({ length: vocabSize * 4 }, () => next() / 2 ** 32 - 0.5),
            }
          : t,
      ),
    }),
  });
}

/**
 * A valid model file whose every weight is ±3.4e38: finite, so the reader takes
 * it, but any sum of two overflows float.
 */
export function hugeWeightsModelFile(engine) {
  return corpusModelFile(engine, {
    symbols: ['月', '光', '床', '前'],
    layers: 1,
    edit: (model) => ({
      ...model,
      tensors: model.tensors.map((t) => ({ ...t, data: t.data.map((_, i) => (i % 2 ? -3.4e38 : 3.4e38)) })),
    }),
  });
}
