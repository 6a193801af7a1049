// Shared by the training suites: a tiny trainer configuration and the model file's checksum,
// to forge files whose damage the checksum does not reveal (AttentionErrors: support.mjs).
import assert from 'node:assert/strict';

// Sort 4 symbols of 5: 8 tokens a sequence, about 26k parameters, 100 steps in about a second.
export const TINY = Object.freeze({
  task: 'sort',
  length: 4,
  alphabet: 5,
  layers: 2,
  dModel: 32,
  heads: 4,
  batchSize: 32,
  learningRate: 3e-3,
  seed: 7,
});

/** FNV-1a 64 of `bytes` (docs/model-format.md), as a BigInt. */
export function fnv1a64(bytes) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash;
}

/** A copy of a model file with its trailing checksum recomputed after `edit(bytes)`. */
export function reseal(file, edit) {
  const bytes = file.slice();
  edit(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  view.setBigUint64(bytes.length - 8, fnv1a64(bytes.subarray(0, bytes.length - 8)), true);
  return bytes;
}

/** Replaces the first occurrence of `from` in the file's bytes with `to` (same length). */
export function replaceText(bytes, from, to) {
  assert.equal(from.length, to.length, 'a same-length edit keeps every offset');
  const text = Buffer.from(bytes).toString('latin1');
  const at = text.indexOf(from);
  assert.ok(at >= 0, `${from} is in the file`);
  bytes.set(Buffer.from(to, 'latin1'), at);
}

/** A copy of a model file with its JSON configuration replaced by `edit(config)` (sizes and checksum fixed). */
export function withConfig(file, edit) {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getUint32(20, true);
  const config = JSON.parse(Buffer.from(file.subarray(24, 24 + length)).toString('utf8'));
  const json = Buffer.from(JSON.stringify(edit(config)), 'utf8');
  const bytes = new Uint8Array(file.length - length + json.length);
  bytes.set(file.subarray(0, 20));
  bytes.set(json, 24);
  bytes.set(file.subarray(24 + length), 24 + json.length);
  const out = new DataView(bytes.buffer);
  out.setUint32(20, json.length, true);
  out.setBigUint64(12, BigInt(bytes.length), true);
  return reseal(bytes, () => {});
}

/** Each switch GPT-2 does not have, as a change of TINY, with the model key the export refuses. */
export const GPT2_REFUSALS = [
  [{ attentionOnly: true }, 'attentionOnly'],
  [{ tiedEmbeddings: false }, 'tiedEmbeddings'],
  [{ positionalEncoding: 'sinusoidal' }, 'positionalEncoding'],
  [{ scale: false }, 'scale'],
  [{ causal: false }, 'causal'],
  [{ residual: false }, 'residual'],
  [{ dK: 4 }, 'dK'],
];
