// The model line says what a small model is, in both languages: parameters, tokens
// seen, held-out loss against the Kneser–Ney 5-gram, and what it knows of the famous poems (many
// lines, but it is no recitation engine: greedy continue from a famous first line writes the real
// second line for 10 of 29 quatrains, docs/models.md "The canon"), each only when the model file
// records it (web/src/models/i18n.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelStrings } from '../../web/src/models/i18n.js';

const config = { layers: 4, heads: 4, dModel: 128, heldOutLoss: 4.71, unigramLoss: 6.61, bigramLoss: 5.65 };
const trained = { ...config, kn5Loss: 5.19, tokensSeen: 41943040, canonWeighted: true };

test('the model line names tokens seen, the 5-gram and the canon when the file records them', () => {
  const en = modelStrings('en').about('Tang poems', 'Quan Tang Shi', trained, '1,500,000');
  assert.match(en, /1,500,000 parameters in all/);
  assert.match(en, /trained on 41,943,040 tokens/);
  assert.match(en, /held-out loss 4\.71 nats per token against a Kneser–Ney 5-gram’s 5\.19/);
  assert.match(en, /It knows many lines of famous poems, because they were repeated in its training text/);
  assert.match(en, /It is not a recitation engine/);
  assert.match(en, /the real second line about one time in three/);
  assert.doesNotMatch(en, /knows the famous poems/);
  const zh = modelStrings('zh').about('唐诗', '全唐诗', trained, '1,500,000');
  assert.match(zh, /训练时读过 41,943,040 个词元/);
  assert.match(zh, /留出集损失 4\.71 奈特\/词元，对比 Kneser–Ney 五元模型的 5\.19/);
  assert.match(zh, /它熟悉许多名句/);
  assert.match(zh, /但它不会背诗/);
  assert.match(zh, /大约三次里只有一次写出真正的第二句/);
  assert.doesNotMatch(zh, /熟悉名篇/);
  // A file without them (the shipped files before retraining, an opened task model): none of it.
  for (const lang of ['en', 'zh']) {
    const line = modelStrings(lang).about('m', 'c', config, '1');
    assert.doesNotMatch(line, /Kneser|41,943,040|famous|名句|背诗/);
  }
});

test('a head’s role, label, × chance and score on the typed text: every role in both languages, the 中文 without English', () => {
  // What the grid's cells say (tests/e2e/model-roles.test.mjs scans one page of them per model).
  const en = modelStrings('en');
  const zh = modelStrings('zh');
  assert.deepEqual(Object.keys(zh.role).sort(), Object.keys(en.role).sort(), 'the same roles');
  assert.deepEqual(Object.keys(zh.label).sort(), Object.keys(en.label).sort(), 'the same labels');
  const latin = /[A-Za-z]/;
  for (const text of [
    ...Object.values(zh.role),
    ...Object.values(zh.label),
    zh.noRole,
    zh.noLabel,
    zh.timesChance([3.14]),
    zh.onText([0.5]),
    zh.noKeys('rhyme'),
  ]) {
    assert.doesNotMatch(text, latin, text);
  }
  assert.equal(zh.role.previous, '前一个词元');
  assert.equal(zh.timesChance([3.14]), '随机水平的 3.1 倍');
  assert.equal(en.timesChance([3.14]), '3.1× chance');
  assert.equal(en.timesChance([3.14, 2.96]), '3.1× / 3.0× chance');
  assert.equal(en.onText([0.456]), 'your text: 0.46');
});
