// Head roles in JS (cpp/bindings/js/head_roles.js): the keys of each role on a
// hand-written quatrain, and the same keys pooled over each shipped model's held-out sample with
// the engine's weights in WASM giving the scores and both baselines the native tool stored in
// models/<name>.roles.json (so the page marks the keys the stored roles were measured on).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LINE_ENDS, LINE_MARKS, ROLE_MARKS, ROLES, TEXT_ROLES, roleKeys, roleScore } from '../../dist/engine/engine.js';
import { createEngine, root } from './support.mjs';

const poem = [...'床前明月光，疑是地上霜。举头望明月，低头思故乡。'];

test('role keys on a quatrain: line start, 对仗, rhyme, duplicate, induction', () => {
  const keys = Object.fromEntries(TEXT_ROLES.map((r) => [r, roleKeys(r, poem)]));
  assert.deepEqual(keys.previous[7], [6]);
  assert.deepEqual(keys.lineStart[6], [], '疑 opens its line: the comma is its previous token');
  assert.deepEqual(keys.lineStart[7], [5]);
  assert.deepEqual(keys.lineStart[23], [17]);
  assert.deepEqual(keys.couplet[18], [12], '低 ↔ 举');
  assert.deepEqual(keys.couplet[22], [16], '乡 ↔ 月');
  assert.deepEqual(keys.couplet[6], [], 'the text’s first line may have begun before it');
  assert.deepEqual(keys.couplet[12], [], '举 opens a couplet: it pairs with nothing');
  assert.deepEqual(
    keys.rhyme.flatMap((k, i) => (k.length ? [[i, k]] : [])),
    [[21, [10]]],
    '故, before the rhyme 乡, looks at the previous rhyme 霜; no other query',
  );
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

test('the ↵ the model reads first is never a line start; after it, the first couplet pairs', () => {
  // 猫追着球跑 has no punctuation: the only mark is the ↵ the page reads first, a sink many heads
  // park on. It was every query's line-start key, so those heads scored as line-start heads.
  const cat = roleKeys('lineStart', ['\n', ...'猫追着球跑']);
  assert.deepEqual(cat, [[], [], [], [], [], []]);
  const typed = ['\n', ...poem];
  assert.deepEqual(roleKeys('couplet', typed)[7], [1], '疑 ↔ 床');
  assert.deepEqual(roleKeys('rhyme', typed)[22], [11], '故 → 霜');
  assert.deepEqual(roleKeys('rhyme', [...'地上霜。\n低头思故乡。'])[9], [], 'not across a poem’s end');
});

test('the marks and the text roles are the engine’s rows (kLineMarks, kRoles), written nowhere else', () => {
  assert.deepEqual(
    ROLE_MARKS,
    LINE_MARKS.map((m) => m.text),
  );
  assert.deepEqual(
    LINE_ENDS,
    LINE_MARKS.filter((m) => m.verse).map((m) => m.text),
  );
  assert.deepEqual(
    TEXT_ROLES,
    ROLES.filter((r) => r.weight && !r.needsTags).map((r) => r.name),
  );
  for (const file of ['head_roles.js', 'head_labels.js']) {
    const source = readFileSync(path.join(root, 'cpp/bindings/js', file), 'utf8');
    const code = source.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    for (const { text } of LINE_MARKS) {
      assert.ok(
        !code.includes(JSON.stringify(text).replace(/"/g, "'")),
        `${file} writes the mark ${JSON.stringify(text)} by hand`,
      );
    }
  }
});

test('each mark ends a line as its kind says: a closing one closes a couplet, ， opens one, ↵ ends a poem', () => {
  for (const { text, kind } of LINE_MARKS) {
    const at = JSON.stringify(text);
    assert.deepEqual(roleKeys('lineStart', ['a', 'b', text, 'c', 'd'])[4], [2], `${at} opens the next line`);
    // 甲乙， 丙丁<mark>: the second line pairs with the first only when <mark> closes it.
    const couplet = roleKeys('couplet', ['x', '。', '甲', '乙', '，', '丙', '丁', text]);
    assert.deepEqual(couplet[5], kind === 'closing' ? [2] : [], `${at} (${kind}) closes a couplet`);
    // 甲乙<mark>丙丁。: the opening line is an opening one only when <mark> is.
    const opened = roleKeys('couplet', ['x', '。', '甲', '乙', text, '丙', '丁', '。']);
    assert.deepEqual(opened[5], kind === 'opening' ? [2] : [], `${at} (${kind}) opens a couplet`);
    // A rhyme is not looked for across a poem's end.
    const rhyme = roleKeys('rhyme', ['x', '。', '甲', '乙', '。', text, '丙', '丁', '。']);
    assert.deepEqual(rhyme[6], kind === 'poemEnd' ? [] : [3], `${at} (${kind}) ends a poem`);
  }
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
        const sums = new Map(); // "l:h:role" → { score, chance, queries, at: [T] keys d back }
        const offsets = new Map(); // "l:h" → [T] the head's summed weight d back
        const rows = new Array(t).fill(0); // [T] queries with a key d back
        for (let start = 0; start + t <= ids.length; start += t) {
          const window = ids.slice(start, start + t);
          const tokens = window.map((id) => model.vocabulary[id]);
          const trace = model.trace({ tokens: window }, { steps: ['weights'] });
          const keys = roles.map((r) => roleKeys(r, tokens));
          for (let i = 0; i < t; i++) for (let d = 0; d <= i; d++) rows[d] += 1;
          trace.layers.forEach((layer, l) => {
            for (let h = 0; h < layer.heads; h++) {
              const w = layer.step('weights', h).data;
              const o = offsets.get(`${l}:${h}`) ?? new Array(t).fill(0);
              for (let i = 0; i < t; i++) for (let d = 0; d <= i; d++) o[d] += w[i * t + i - d];
              offsets.set(`${l}:${h}`, o);
              roles.forEach((role, r) => {
                const s = roleScore(w, t, keys[r]);
                if (!s) return;
                const sum = sums.get(`${l}:${h}:${role}`) ?? {
                  score: 0,
                  chance: 0,
                  queries: 0,
                  at: new Array(t).fill(0),
                };
                sum.score += s.score * s.queries;
                sum.chance += s.chance * s.queries;
                sum.queries += s.queries;
                keys[r].forEach((k, i) => k.forEach((j) => (sum.at[i - j] += 1)));
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
            // The position-matched baseline: the head's mean weight d back over the whole sample.
            const o = offsets.get(`${head.layer}:${head.head}`);
            const matched = sum.at.reduce((a, n, d) => a + (n * o[d]) / rows[d], 0) / sum.queries;
            assert.ok(Math.abs(matched - stored.matched) < 1e-4, `${where} matched: ${matched} vs ${stored.matched}`);
          }
        }
      } finally {
        model.dispose();
      }
    },
  );
}
