// The shipped corpus models (models/*.model, from lm-engine's native trainer) through the JS
// API in WebAssembly: each loads as a LanguageModel with the keys the page shows; its loss on
// the committed held-out sample, computed here from the trace's logits over the trainer's
// non-overlapping windows, is the native trainer's recorded sampleLoss and well below the
// sample's unigram and bigram baselines; greedy continuation of a held-out line is
// deterministic and in the vocabulary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createEngine, root } from './support.mjs';

const engine = await createEngine();
const SHIPPED = ['tang', 'brown'].filter((name) => existsSync(path.join(root, 'models', `${name}.model`)));
const NEVER_GENERATED = ['<pad>', '<unk>', '<bos>'];

test('at least one corpus model is shipped', () => assert.ok(SHIPPED.length > 0, 'models/*.model'));

/** The sample's ids as the trainer encodes it (Vocabulary::Encode of the whole file). */
function sampleIds(model, text) {
  const ids = new Map(model.vocabulary.map((s, i) => [s, i]));
  const symbols = model.vocabularyLevel === 'word' ? engine.tokenize(text) : Array.from(text);
  return symbols.map((s) => ids.get(model.config.lowercase ? s.toLowerCase() : s) ?? 1);
}

/** Mean −ln p(next) over windows ids[k·T … k·T + T], from the logits in float64. */
function sampleLoss(model, ids) {
  const t = model.contextLength;
  let sum = 0;
  let count = 0;
  for (let start = 0; start + 1 < ids.length; start += t) {
    const window = ids.slice(start, start + t + 1);
    const logits = model.trace({ tokens: window.slice(0, -1) }, { steps: ['logits'] }).step('logits');
    for (let row = 0; row < logits.rows; row++) {
      const z = logits.data.subarray(row * logits.cols, (row + 1) * logits.cols);
      let top = -Infinity;
      for (const v of z) top = Math.max(top, v);
      let total = 0;
      for (const v of z) total += Math.exp(v - top);
      sum += -(z[window[row + 1]] - top - Math.log(total));
      count++;
    }
  }
  return sum / count;
}

for (const name of SHIPPED) {
  test(`${name}.model: the native trainer's held-out numbers, reproduced through the JS API`, () => {
    const bytes = new Uint8Array(readFileSync(path.join(root, 'models', `${name}.model`)));
    const report = JSON.parse(readFileSync(path.join(root, 'models', `${name}.report.json`), 'utf8'));
    const text = readFileSync(path.join(root, 'models/heldout', `${name}.txt`), 'utf8');
    const model = engine.loadModel(bytes);
    try {
      const c = model.config;
      assert.equal(model.vocabularyLevel, report.level);
      for (const key of ['corpus', 'title', 'titleZh']) assert.equal(typeof c[key], 'string', key);
      for (const key of ['trainedSteps', 'heldOutLoss', 'unigramLoss', 'bigramLoss']) {
        assert.ok(Number.isFinite(c[key]), `${key} (${c[key]})`);
      }
      assert.ok(c.heldOutLoss < c.unigramLoss && c.heldOutLoss < c.bigramLoss, JSON.stringify(c));
      const ids = sampleIds(model, text);
      assert.equal(ids.length, report.sampleTokens);
      const loss = sampleLoss(model, ids);
      // float32 WebAssembly against the native build: the same model, summed differently.
      assert.ok(Math.abs(loss - report.sampleLoss) < 5e-4, `sample loss ${loss} vs native ${report.sampleLoss}`);
      assert.ok(loss < report.sampleUnigramLoss - 0.5, `${loss} vs unigram ${report.sampleUnigramLoss}`);
      assert.ok(loss < report.sampleBigramLoss, `${loss} vs bigram ${report.sampleBigramLoss}`);

      // A held-out line's first 5 symbols (characters or words), continued greedily.
      const firstLine = text.split('\n')[0];
      const prefix =
        model.vocabularyLevel === 'word'
          ? firstLine.split(' ').slice(0, 5).join(' ')
          : Array.from(firstLine).slice(0, 5).join('');
      const made = model.generate(prefix, { count: 10 });
      assert.deepEqual(model.generate(prefix, { count: 10 }), made);
      assert.ok(
        made.tokens.every((t) => model.vocabulary.includes(t) && !NEVER_GENERATED.includes(t)),
        made.text,
      );
      assert.ok(made.text.startsWith(prefix));
    } finally {
      model.dispose();
    }
  });
}
