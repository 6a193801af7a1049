// The export-hf command of the CLI (dispatched from attention-explorer.mjs): a model file as a
// Hugging Face GPT-2 checkpoint folder for transformers' GPT2LMHeadModel.
//   attention-explorer export-hf models/tang.model out/tang
// writes out/tang/{config.json, model.safetensors, vocab.txt, README.md}. The tensors and
// config.json are model.exportCheckpoint()'s (dist/engine/hf_export.js); this file adds the
// vocabulary file and the README that says how our tokenizer turns text into ids (hfFolder, in
// dist/engine/hf_export.js: the pages' "Export for transformers" button zips the same files).
// Exit codes: 0 ok, 1 the engine or the export refused the model, 2 bad arguments or files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AttentionError, createEngine } from '../dist/engine/engine.js';
import { hfFolder, readmeOf, vocabText } from '../dist/engine/hf_export.js';

// The folder's files are made where the explorer's and the playground's export button make them.
export { readmeOf, vocabText };

const USAGE = `usage: attention-explorer export-hf <model.model> <out-folder>

Writes the model as a Hugging Face GPT-2 checkpoint: config.json, model.safetensors (float32),
vocab.txt (our symbols, one per line in id order) and README.md (how text becomes ids, and how
to open it with transformers' GPT2LMHeadModel). A model GPT-2 cannot express (attention-only,
untied embeddings, sinusoidal positions, unscaled or non-causal attention, no residual, dK ·
heads ≠ dModel) is refused naming the key.

exit status: 0 ok, 1 the model was refused, 2 bad arguments or files.`;

export const isExportCommand = (argv) => argv[0] === 'export-hf';

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
  let exported;
  try {
    const model = engine.loadModel(bytes); // the engine's checks: magic, checksum, every shape
    try {
      exported = model.exportCheckpoint();
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
    for (const entry of hfFolder(exported, exported.source, path.basename(file))) {
      writeFileSync(path.join(folder, entry.name), entry.bytes);
    }
  } catch (error) {
    process.stderr.write(`attention-explorer: ${JSON.stringify(folder)} cannot be written: ${error.message}\n`);
    return 2;
  }
  process.stdout.write(
    `${folder}: config.json, model.safetensors (${exported.safetensors.length} bytes), vocab.txt, README.md\n`,
  );
  return 0;
}
