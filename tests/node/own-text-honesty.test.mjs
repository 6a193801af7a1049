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
