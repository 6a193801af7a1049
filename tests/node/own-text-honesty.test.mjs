// What "Your text" says about the learner's own model, as plain functions: the summary of a
// text before it is trained (checked against the engine's own counts), the rule that says the
// model is memorising a short text, and the explorer's line for a model trained in the browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from './support.mjs';
import { countTokens, READY_TEXTS, TEXT_KNOBS, textTrainerOptions } from '../../web/src/playground/texts.js';
import { previewText } from '../../web/src/playground/text-preview.js';
import { strings } from '../../web/src/playground/i18n.js';
import { modelStrings } from '../../web/src/models/i18n.js';
import { memorising, RISE } from '../../web/src/playground/history.js';

const engine = await createEngine();

test('the summary before training counts what the engine will build: tokens, vocabulary, parameters', () => {
  const texts = { ...READY_TEXTS, shouty: 'Hello, world! 你好，世界。 Don’t stop — 3.14 … ok?\n'.repeat(12) };
  const knobsSets = [TEXT_KNOBS, { ...TEXT_KNOBS, layers: 1, heads: 3, attentionOnly: true, dModel: 32 }];
  for (const [name, text] of Object.entries(texts)) {
    for (const level of ['character', 'word']) {
      for (const knobs of knobsSets) {
        const trainer = engine.createCorpusTrainer(text, textTrainerOptions(knobs, level, countTokens(text, level)));
        const got = previewText(text, level, knobs);
        const want = { tokens: trainer.summary.tokens, vocabSize: trainer.summary.vocabSize };
        trainer.dispose();
        const where = `${name} at ${level} level, ${JSON.stringify(knobs)}`;
        assert.deepEqual({ tokens: got.tokens, vocabSize: got.vocabSize }, want, where);
        assert.equal(got.parameters, trainer.parameterCount, where);
        assert.equal(got.exact, level === 'character');
      }
    }
  }
});

test('the summary changes with the text: a different text has different numbers, said in both languages', () => {
  const one = previewText(READY_TEXTS.poems, 'character', TEXT_KNOBS);
  const two = previewText('the cat sat on the mat. '.repeat(20), 'character', TEXT_KNOBS);
  assert.notDeepEqual(one, two);
  assert.equal(two.tokens, 480);
  assert.equal(two.vocabSize, new Set('the cat sat on the mat. ').size + 4);
  assert.equal(
    strings('en').textPreview('480', '15', '105,984', true),
    '480 tokens · vocabulary of 15 · 105,984 parameters (not trained yet)',
  );
  assert.match(strings('en').textPreview('480', '15', '105,984', false), /^about 480 tokens · vocabulary of about 15/);
  assert.equal(
    strings('zh').textPreview('480', '15', '105,984', true),
    '480 个词元 · 词表 15 个 · 105,984 个参数（尚未训练）',
  );
});

test('the explorer says a handed-over model was trained in this browser on the learner’s text, in the page’s language', () => {
  const c = { layers: 2, heads: 4, dModel: 64 };
  const en = modelStrings('en');
  const zh = modelStrings('zh');
  assert.match(
    en.about('your-text.model', en.corpusName('your text'), c, '106,624', 'browser'),
    /^Shown: your-text\.model, trained in this browser on your text\. 2 layers/,
  );
  const line = zh.about('your-text.model', zh.corpusName('your text'), c, '106,624', 'browser');
  assert.match(line, /^当前显示：your-text\.model，在这个浏览器中用你的文本训练。2 层/);
  assert.doesNotMatch(line, /本仓库|your text/);
  // A ready text's key is named in the language too; a file's name is its own.
  assert.equal(zh.corpusName('poems'), '现成的唐诗');
  assert.equal(zh.corpusName('notes.txt'), 'notes.txt');
  // A shipped model was trained in this repository; an opened file, somewhere the page cannot know.
  assert.match(zh.about('唐诗', '全唐诗', c, '1', 'repo'), /在本仓库中用全唐诗训练/);
  assert.match(en.about('x', 'y', c, '1', 'file'), /^Shown: x, trained on y\./);
  assert.doesNotMatch(zh.about('x', 'y', c, '1', 'file'), /本仓库|浏览器/);
});

/** A history of `held` losses measured at steps 0, 100, 200, …, each after five training rows of `train`'s value. */
const lossHistory = (train, held, unigram = 3) => ({
  loss: train.flatMap((v, i) => [4, 3, 2, 1, 0].map((back) => [i * 100 - back * 10, v])),
  heldOutLoss: held.map((v, i) => [i * 100, v]),
  baselines: { unigram, bigram: unigram - 0.5 },
});

test('the page says a model memorises when held-out loss climbs above the unigram line as training loss falls', () => {
  // A short text: held-out falls, then climbs past the unigram line while training loss falls.
  assert.equal(memorising(lossHistory([5, 3, 2, 1, 0.5, 0.2], [5, 2.9, 2.8, 3.1, 3.6, 4.2])), true);
  // Still learning: both fall.
  assert.equal(memorising(lossHistory([5, 3, 2, 1.5], [5, 3.2, 2.9, 2.7])), false);
  // Climbing, but still below the unigram line: not yet said.
  assert.equal(memorising(lossHistory([5, 3, 2, 1.5], [5, 2, 2.3, 2.6])), false);
  // Above the line from the start (untrained) and falling toward it: not memorising.
  assert.equal(memorising(lossHistory([6, 5, 4.5], [6, 5.5, 5])), false);
  // A wobble smaller than RISE above the line is not a climb.
  assert.equal(memorising(lossHistory([5, 4, 3.5], [5, 3.2, 3.2 + RISE / 2])), false);
  // Held-out climbs but training loss climbs too (a diverging run, not memorising).
  assert.equal(memorising(lossHistory([5, 2, 2.5, 3.5], [5, 2.9, 3.5, 4])), false);
  // No baselines (a toy task) or one measurement: nothing to say.
  assert.equal(memorising({ ...lossHistory([5, 1], [5, 4]), baselines: null }), false);
  assert.equal(memorising(lossHistory([5], [5])), false);
  // Said in both languages: memorising, and that a longer text generalises.
  assert.match(strings('en').memorising, /memorising this text.*A longer text generalises/);
  assert.match(strings('zh').memorising, /在背这段文本.*更长的文本才能推广/);
});
