// Head roles in JS (cpp/bindings/js/head_roles.js): the keys of each role on a
// hand-written quatrain, and the same keys pooled over each shipped model's held-out sample with
// the engine's weights in WASM giving the scores the native tool stored in models/<name>.roles.json
// (so the page marks the keys the stored roles were measured on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TEXT_ROLES, roleKeys, roleScore } from '../../dist/engine/engine.js';
import { createEngine, root } from './support.mjs';

const poem = [...'床前明月光，疑是地上霜。举头望明月，低头思故乡。'];

test('role keys on a quatrain: line start, 对仗, rhyme, duplicate, induction', () => {
  const keys = Object.fromEntries(TEXT_ROLES.map((r) => [r, roleKeys(r, poem)]));
  assert.deepEqual(keys.previous[7], [6]);
  assert.deepEqual(keys.lineStart[6], [], '疑 opens its line: the comma is its previous token');
  assert.deepEqual(keys.lineStart[7], [5]);
  assert.deepEqual(keys.lineStart[23], [17]);
  assert.deepEqual(keys.couplet[12], [6], '举 ↔ 疑');
  assert.deepEqual(keys.couplet[22], [16], '乡 ↔ 月');
  assert.deepEqual(keys.couplet[6], [], 'the window’s second line is not paired');
  assert.deepEqual(keys.rhyme[7], [4], '是 → 光');
  assert.deepEqual(keys.rhyme[19], [16], '头 → 月');
  assert.deepEqual(keys.duplicate[15], [2], '明');
  assert.deepEqual(keys.induction[15], [3], '明 → the 月 after the first 明');
  assert.deepEqual(keys.first[2], [0]);
  assert.equal(roleKeys('nounModifier', poem), null, 'no tags on typed text');
  // A head all on its keys scores 1, at its uniform chance's inverse.
  const t = poem.length;
  const w = new Float32Array(t * t);
  keys.lineStart.forEach((k, i) => (w[i * t + (k.length ? k[0] : i)] = 1));
  const s = roleScore(w, t, keys.lineStart);
  const counted = keys.lineStart.map((k, i) => (k.length ? 1 / (i + 1) : null)).filter((v) => v !== null);
  assert.equal(s.score, 1);
  assert.ok(Math.abs(s.chance - counted.reduce((a, b) => a + b) / counted.length) < 1e-12);
  assert.equal(roleScore(w, t, roleKeys('couplet', [...'春风'])), null);
});

const engine = await createEngine();

for (const name of ['tang', 'brown']) {
  const file = path.join(root, 'models', `${name}.model`);
  test(
    `${name}: the JS keys pooled over the held-out sample give the stored role scores`,
    { skip: !existsSync(file) },
    () => {
      const model = engine.loadModel(readFileSync(file));
      try {
        const sidecar = JSON.parse(readFileSync(path.join(root, 'models', `${name}.roles.json`), 'utf8'));
        const text = readFileSync(path.join(root, 'models', 'heldout', `${name}.txt`), 'utf8');
        const index = new Map(model.vocabulary.map((s, i) => [s, i]));
        const symbols = model.vocabularyLevel === 'word' ? engine.tokenize(text) : Array.from(text);
        const ids = symbols.map((s) => index.get(s) ?? 1);
        const t = model.contextLength;
        const roles = TEXT_ROLES.filter((r) => r !== 'induction'); // stored on random sequences
        const sums = new Map(); // "l:h:role" → { score, chance, queries }
        for (let start = 0; start + t <= ids.length; start += t) {
          const window = ids.slice(start, start + t);
          const tokens = window.map((id) => model.vocabulary[id]);
          const trace = model.trace({ tokens: window }, { steps: ['weights'] });
          const keys = roles.map((r) => roleKeys(r, tokens));
          trace.layers.forEach((layer, l) => {
            for (let h = 0; h < layer.heads; h++) {
              const w = layer.step('weights', h).data;
              roles.forEach((role, r) => {
                const s = roleScore(w, t, keys[r]);
                if (!s) return;
                const sum = sums.get(`${l}:${h}:${role}`) ?? { score: 0, chance: 0, queries: 0 };
                sum.score += s.score * s.queries;
                sum.chance += s.chance * s.queries;
                sum.queries += s.queries;
                sums.set(`${l}:${h}:${role}`, sum);
              });
            }
          });
        }
        assert.equal(sidecar.heads.length, model.config.layers * model.config.heads);
        for (const head of sidecar.heads) {
          for (const role of roles) {
            const stored = head.scores[role];
            const sum = sums.get(`${head.layer}:${head.head}:${role}`);
            const where = `${name} L${head.layer} H${head.head} ${role}`;
            assert.equal(sum?.queries ?? 0, stored?.queries ?? 0, where);
            if (!stored) continue;
            assert.ok(
              Math.abs(sum.score / sum.queries - stored.score) < 1e-4,
              `${where}: ${sum.score / sum.queries} vs ${stored.score}`,
            );
            assert.ok(Math.abs(sum.chance / sum.queries - stored.chance) < 1e-9, where);
          }
        }
      } finally {
        model.dispose();
      }
    },
  );
}
