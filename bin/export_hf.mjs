// The export-hf command of the CLI (dispatched from attention-explorer.mjs): a model file as a
// Hugging Face GPT-2 checkpoint folder for transformers' GPT2LMHeadModel.
//   attention-explorer export-hf models/tang.model out/tang
// writes out/tang/{config.json, model.safetensors, vocab.txt, README.md}. The tensors and
// config.json are model.exportCheckpoint()'s (dist/engine/hf_export.js); this file adds the
// vocabulary file and the README that says how our tokenizer turns text into ids.
// Exit codes: 0 ok, 1 the engine or the export refused the model, 2 bad arguments or files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AttentionError, createEngine } from '../dist/engine/engine.js';

const USAGE = `usage: attention-explorer export-hf <model.model> <out-folder>

Writes the model as a Hugging Face GPT-2 checkpoint: config.json, model.safetensors (float32),
vocab.txt (our symbols, one per line in id order) and README.md (how text becomes ids, and how
to open it with transformers' GPT2LMHeadModel). A model GPT-2 cannot express (attention-only,
untied embeddings, sinusoidal positions, unscaled or non-causal attention, no residual, dK ·
heads ≠ dModel) is refused naming the key.

exit status: 0 ok, 1 the model was refused, 2 bad arguments or files.`;

export const isExportCommand = (argv) => argv[0] === 'export-hf';

/** README.md of an exported folder: how our text becomes ids, and transformers in five lines. */
export function readmeOf(source, vocabulary, name) {
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
    `Exported by \`attention-explorer export-hf\` from \`${name}\`: ${source.layers} layers × ${source.heads} heads, width ${source.dModel}, context ${source.contextLength}, ${vocabulary.length} symbols.`,
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

/** Runs `attention-explorer export-hf …` (argv without node and the script); the exit code. */
export async function runExportCommand(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(1),
      allowPositionals: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`attention-explorer: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) return (process.stdout.write(`${USAGE}\n`), 0);
  const [file, folder, ...rest] = parsed.positionals;
  if (file === undefined || folder === undefined || rest.length) {
    process.stderr.write(`attention-explorer: export-hf takes a model file and an output folder\n\n${USAGE}\n`);
    return 2;
  }
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    process.stderr.write(`attention-explorer: ${JSON.stringify(file)} cannot be read: ${error.message}\n`);
    return 2;
  }
  const engine = await createEngine();
  let exported, source;
  try {
    const model = engine.loadModel(bytes); // the engine's checks: magic, checksum, every shape
    try {
      exported = model.exportCheckpoint();
      source = model.config;
    } finally {
      model.dispose();
    }
  } catch (error) {
    if (!(error instanceof AttentionError)) throw error;
    process.stderr.write(`attention-explorer: ${error.field}: ${error.message}\n`);
    return 1;
  }
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'config.json'), `${JSON.stringify(exported.config, null, 2)}\n`);
    writeFileSync(path.join(folder, 'model.safetensors'), exported.safetensors);
    writeFileSync(path.join(folder, 'vocab.txt'), vocabText(exported.vocabulary));
    writeFileSync(path.join(folder, 'README.md'), readmeOf(source, exported.vocabulary, path.basename(file)));
  } catch (error) {
    process.stderr.write(`attention-explorer: ${JSON.stringify(folder)} cannot be written: ${error.message}\n`);
    return 2;
  }
  process.stdout.write(
    `${folder}: config.json, model.safetensors (${exported.safetensors.length} bytes), vocab.txt, README.md\n`,
  );
  return 0;
}
