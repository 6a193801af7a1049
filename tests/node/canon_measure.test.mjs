// The canon measurement (training/canon-measure.mjs) on the shipped models and the
// committed lists, checked against a second computation through predict(): the tool reads one
// trace per poem and takes row j of its logits as the prediction after j + 1 characters;
// predict() runs the model on each prompt alone. The shipped models must keep at least 90% of the
// quatrain lines (97.2% since the canon polish) and 55% of the phrases (67.5%), and continue a
// famous first line right about one time in three, as the model line says (10 of 29); the goals
// of docs/models.md (≥ 80% continued, ≥ 90% phrases) are not met, and docs/models.md says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { measureCanon, summaryOf } from '../../training/canon-measure.mjs';
import { createEngine, root, fullTier } from './support.mjs';

const engine = await createEngine();
const load = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));
const quatrains = load('models/canon/tang-quatrains.json');
const phrases = load('models/canon/brown-phrases.json');
const MARKERS = ['<pad>', '<unk>', '<bos>'];

/** predict()'s most likely next symbol after `text`. */
const topOne = (model, text) => model.predict({ text }, { topK: 1 }).predictions[0].token;

/** Greedy continuation by predict(): `count` times the most likely symbol generate() may pick. */
function greedyByPredict(model, text, count) {
  let out = '';
  for (let i = 0; i < count; i++) {
    const next = model.predict({ text: text + out }, { topK: 4 }).predictions.find((p) => !MARKERS.includes(p.token));
    if (next.token === '<eos>') break;
    out += next.token;
  }
  return out;
}

function withModel(name, run) {
  const model = engine.loadModel(readFileSync(path.join(root, 'models', `${name}.model`)));
  try {
    return run(model);
  } finally {
    model.dispose();
  }
}

test('tang quatrains: every line scored once, the top-1 of each line as predict() gives it', fullTier, () => {
  withModel('tang', (model) => {
    const result = measureCanon(model, quatrains);
    const lines = quatrains.poems.reduce((sum, p) => sum + p.lines.length, 0);
    assert.equal(lines, 320);
    assert.equal(result.topOne.lines, lines);
    assert.equal(result.topOne.hits, result.topOne.cases.filter((c) => c.hit).length);
    assert.equal(result.topOne.share, result.topOne.hits / lines);
    // The prompt is the poem up to the line's last character, the expected symbol that character.
    const jingYeSi = result.topOne.cases.filter((c) => c.title === '静夜思');
    assert.deepEqual(
      jingYeSi.map((c) => [c.prompt, c.expected]),
      [
        ['床前明月', '光'],
        ['床前明月光，疑是地上', '霜'],
        ['床前明月光，疑是地上霜，举头望明', '月'],
        ['床前明月光，疑是地上霜，举头望明月，低头思故', '乡'],
      ],
    );
    // The top-1 goal (docs/models.md), as a learner types the poems (encode() reads the line break
    // before them).
    assert.ok(result.topOne.share >= 0.9, `${result.topOne.hits} of ${lines} lines`);
    assert.equal(jingYeSi[1].predicted, '霜', 'after 床前明月光，疑是地上');
    // Every 8th line and every line of 静夜思, recomputed one prompt at a time.
    const checked = [...result.topOne.cases.filter((_, i) => i % 8 === 0), ...jingYeSi];
    for (const c of checked) assert.equal(topOne(model, c.prompt), c.predicted, c.prompt);
  });
});

test(
  'tang quatrains: greedy continuation of each 五言绝句 from its first line, as predict() writes it',
  fullTier,
  () => {
    withModel('tang', (model) => {
      const result = measureCanon(model, quatrains).continue;
      assert.equal(result.poems, 29);
      assert.equal(result.hits, result.cases.filter((c) => c.hit).length);
      // The model line says it writes the real second line "about one time in three".
      assert.ok(result.hits / result.poems >= 0.25 && result.hits / result.poems <= 0.42, `${result.hits} of 29`);
      const first = result.cases.find((c) => c.expected === '疑是地上霜');
      assert.equal(first.prompt, '床前明月光，');
      for (const c of result.cases) {
        assert.match(c.prompt, /^\p{Script=Han}{5}[，。？！]$/u);
        assert.equal(greedyByPredict(model, c.prompt, 5), c.written, c.prompt);
      }
    });
  },
);

test('brown phrases: the top-1 after each context as predict() gives it', () => {
  withModel('brown', (model) => {
    const result = measureCanon(model, phrases);
    assert.equal(result.phrases, phrases.phrases.length);
    assert.equal(result.hits, result.cases.filter((c) => c.hit).length);
    for (const c of result.cases) assert.equal(topOne(model, c.context), c.predicted, c.context);
    assert.ok(result.hits / result.phrases >= 0.55, `${result.hits} of ${result.phrases} phrases`);
    // An unknown phrase has a word outside the model's vocabulary: it cannot be a hit.
    const vocabulary = new Set(model.vocabulary);
    for (const c of result.cases) {
      const known = [...c.context.split(' '), c.expected].every((w) => vocabulary.has(w));
      assert.equal(c.unknown, !known, c.context);
    }
    assert.deepEqual(Object.keys(summaryOf(result)), ['phrases', 'hits', 'share', 'unknown']);
  });
});
