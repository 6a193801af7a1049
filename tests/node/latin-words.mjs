// The Latin-script words a 中文 text may hold: symbols and terms as the tutorials write them,
// file formats, code and package names (name@version). Read by the node scan of the string
// tables (tests/node/zh-strings.test.mjs) and by the page scan (tests/e2e/zh-latin.test.mjs).

// Symbols and terms the zh texts use as written in the tutorials, file formats, code.
const ALLOWED = new Set(
  [
    'd_model d_k d_ff QKV QK Softmax softmax PE sin cos max GELU LayerNorm Transformer RNN Longformer BigBird',
    'SVG PNG CSV JSON txt UTF-8 English top-k unk eos bos pad logits W_O W_Q W_K W_V W_q W_k W_v NumPy np random seed randn',
    'head Concat fan-in Query Key Value Tab Kneser Ney AdamW Olsson mod MB MiB NUL',
    'GPT-2 transformers config.json model.safetensors vocab.json merges.txt encoder.json vocab.bpe vocab_size',
    'vocab.txt README.md zip Mistral',
  ]
    .join(' ')
    .split(' '),
);
// (max: the softmax's s − max, a formula's term as sin and cos are; unk, eos, bos, pad: a
// model's special symbols <unk> … as its vocabulary writes them; Query, Key, Value: the English terms the tutorials give in brackets beside 查询, 键, 值; Tab: a
// key as printed on the keyboard; Kneser–Ney, AdamW, Longformer, BigBird, Mistral: a method's or model's name, as Chinese texts write it; Olsson: a cited author; mod, MB, MiB, NUL:
// an operator, units and a byte's name as Chinese technical texts write them; GPT-2, transformers and a
// checkpoint's file names and config key: a model, a library and files named as they are on disk;
// zip: the export's download, a file format as Chinese texts write it.)
// The language switch names its languages in their own words.
const ALLOWED_TEXT = new Set(['English', 'Language / 语言']);
const PACKAGE = /^[a-z][a-z0-9-]*@\d+(\.\d+)*$/;

/** The Latin-script words of `texts` outside the allow-list, with the text each is in. */
export function english(texts) {
  const found = [];
  for (const text of texts) {
    if (ALLOWED_TEXT.has(text)) continue;
    // A title in 《》 is cited as written.
    for (const word of text.replace(/《[^》]*》/g, '').match(/[A-Za-z][A-Za-z0-9_@.-]*[A-Za-z0-9]/g) ?? []) {
      if (ALLOWED.has(word) || PACKAGE.test(word) || /^(np\.random\.\w+)$/.test(word)) continue;
      found.push(`"${word}" in "${text.slice(0, 100)}"`);
    }
  }
  return [...new Set(found)];
}
