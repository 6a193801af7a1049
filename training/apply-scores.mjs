// Writes the numbers of a scoring run (training/score-models.sh) into the committed reports and
// model files, so that the held-out numbers are measured once and copied by no hand
// (docs/models.md, "Scoring without training"):
// - models/<name>.report.json: the held-out and sample fields below replaced by the scoring
//   report's, and `scoreCommand` saying which run measured them; the training run's own fields
//   (command, steps, tokens, speed) stay;
// - models/<name>.model: the configuration's held-out numbers (the page's model line reads
//   them) replaced, each written as the trainer writes a number (17 significant digits); the
//   vocabulary and every tensor are kept byte for byte (checked), the size and checksum
//   recomputed. The weights are not retrained.
//
//   node training/apply-scores.mjs [<score> (default <cache>/score)] [<name> …] (default tang brown)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The report fields a scoring run measures: the split's and the committed sample's. */
export const SCORED_FIELDS = [
  'heldOutTokens',
  'heldOutLoss',
  'unigramLoss',
  'bigramLoss',
  'bigramLambda',
  'kn3Loss',
  'kn5Loss',
  'lossByPosition',
  'sampleTokens',
  'sampleLoss',
  'sampleUnigramLoss',
  'sampleBigramLoss',
  'sampleBigramLambda',
  'sampleKn5Loss',
];
/** The model configuration's numbers that come from the held-out split (corpus_trainer.cpp). */
export const CONFIG_FIELDS = ['heldOutLoss', 'unigramLoss', 'bigramLoss', 'bigramLambda', 'kn5Loss'];

/** FNV-1a 64 of the bytes (the model file's checksum, docs/model-format.md). */
function fnv1a64(bytes) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash;
}

/** A number as the trainer's JSON writer prints it: %.17g (trailing zeros dropped). */
export function formatNumber(value) {
  if (!Number.isFinite(value)) throw new Error(`apply-scores: not a finite number: ${value}`);
  const text = value.toPrecision(17);
  if (text.includes('e')) throw new Error(`apply-scores: ${value} needs an exponent; not written`);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/**
 * The model file `bytes` with the configuration's `numbers` ({ key: value }) replaced; every
 * key must be in the configuration already, as a number. Returns a new Uint8Array.
 */
export function withConfigNumbers(bytes, numbers) {
  const buffer = Buffer.from(bytes);
  if (buffer.toString('latin1', 0, 8) !== 'ATTNMODL') throw new Error('apply-scores: not a model file (magic)');
  if (Number(buffer.readBigUInt64LE(12)) !== buffer.length) throw new Error('apply-scores: the size field disagrees');
  const body = buffer.subarray(0, buffer.length - 8);
  if (fnv1a64(body) !== buffer.readBigUInt64LE(buffer.length - 8)) throw new Error('apply-scores: bad checksum');
  const configBytes = buffer.readUInt32LE(20);
  let config = buffer.toString('utf8', 24, 24 + configBytes);
  for (const [key, value] of Object.entries(numbers)) {
    const pattern = new RegExp(`"${key}":-?[0-9][0-9.eE+-]*`);
    if (!pattern.test(config)) throw new Error(`apply-scores: the model configuration has no number "${key}"`);
    config = config.replace(pattern, `"${key}":${formatNumber(value)}`);
  }
  JSON.parse(config); // still JSON
  const newConfig = Buffer.from(config, 'utf8');
  const rest = buffer.subarray(24 + configBytes, buffer.length - 8); // vocabulary and tensors
  const head = Buffer.alloc(24);
  buffer.copy(head, 0, 0, 12); // magic and version
  const size = 24 + newConfig.length + rest.length + 8;
  head.writeBigUInt64LE(BigInt(size), 12);
  head.writeUInt32LE(newConfig.length, 20);
  const out = Buffer.concat([head, newConfig, rest, Buffer.alloc(8)]);
  out.writeBigUInt64LE(fnv1a64(out.subarray(0, size - 8)), size - 8);
  if (Buffer.compare(out.subarray(24 + newConfig.length, size - 8), rest) !== 0)
    throw new Error('apply-scores: tensors moved');
  return new Uint8Array(out);
}

function apply(root, score, name) {
  const scored = JSON.parse(fs.readFileSync(path.join(score, `${name}.report.json`), 'utf8'));
  // Only a scoring run of this very model: a warm restart from it at a learning rate too small
  // to move a weight (score-models.sh), on the committed sample.
  const from = scored.command.match(/--init (\S+)/)?.[1];
  const sample = scored.command.match(/--sample (\S+)/)?.[1];
  if (from !== `models/${name}.model` || !/--learning-rate 1e-300\b/.test(scored.command))
    throw new Error(`apply-scores: ${score}/${name}.report.json is not a scoring run of models/${name}.model`);
  if (sample !== `models/heldout/${name}.txt`)
    throw new Error(`apply-scores: ${name} was scored with the sample ${sample}, not models/heldout/${name}.txt`);
  const reportFile = path.join(root, 'models', `${name}.report.json`);
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  for (const key of SCORED_FIELDS) {
    if (!(key in scored)) throw new Error(`apply-scores: the scoring report has no "${key}"`);
    report[key] = scored[key];
  }
  report.scoreCommand = scored.command;
  const modelFile = path.join(root, 'models', `${name}.model`);
  const model = withConfigNumbers(
    fs.readFileSync(modelFile),
    Object.fromEntries(CONFIG_FIELDS.map((key) => [key, scored[key]])),
  );
  report.modelBytes = model.length;
  fs.writeFileSync(reportFile, JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(modelFile, model);
  console.log(
    `${name}: held-out ${scored.heldOutLoss.toFixed(4)} (${scored.heldOutTokens} tokens), KN 5-gram ` +
      `${scored.kn5Loss.toFixed(4)}, sample ${scored.sampleLoss.toFixed(4)}: written to ${reportFile} and ${modelFile}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const cache =
    process.env.ATTENTION_CORPUS_CACHE ?? path.join(os.homedir(), '.cache', 'attention-explorer', 'corpora');
  const [score = path.join(cache, 'score'), ...names] = process.argv.slice(2);
  for (const name of names.length ? names : ['tang', 'brown']) apply(root, score, name);
}
