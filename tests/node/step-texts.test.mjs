// The explanations, titles and formula describe the computation the run does:
// a state is set (tutorial mode, PE on/off, W_O on/off, one or two heads, scaling off, no mask)
// and the texts made from it are read. Each text comes from the engine's options
// (web/src/step-texts.js computationOf reads engine-options.js engineOptions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, strings } from '../../web/src/i18n.js';
import { constrain, defaultState } from '../../web/src/state.js';
import { computationOf, formulaContextFor, stepTexts, stepTitle } from '../../web/src/step-texts.js';
import { STEP_KEYS, stepAt } from '../../web/src/steps.js';

const state = (lang, patch = {}) => constrain({ ...defaultState(lang), ...patch });
const texts = (s) => Object.fromEntries(STEP_KEYS.map((key) => [key, stepTexts(key, s, strings(s.lang))]));

test('tutorial mode: X from the random stream, no PE, one head, no W_O — and the texts say so', () => {
  const tutorial = state('en', { tutorial: true });
  assert.deepEqual(computationOf(tutorial), {
    embedding: 'stream',
    positionalEncoding: false,
    outputProjection: false,
    heads: 1,
    dK: 4,
    scale: true,
    temperature: 1,
    mask: 'none',
    maskCausal: false,
    attention: 'softmax',
  });
  const t = texts(tutorial);
  assert.doesNotMatch(t.embed.text, /same vector in every sentence/);
  assert.doesNotMatch(t.embed.text, /sinusoidal positional encoding is added/);
  assert.match(t.embed.text, /np\.random\.randn/);
  assert.match(t.embed.text, /No positional encoding/);
  assert.match(t.split.text, /one head/);
  assert.match(t.split.text, /d_k = 4/);
  assert.match(t.output.title, /no W_O/);
  assert.doesNotMatch(t.output.text, /^A final linear map/);
  const context = formulaContextFor(tutorial);
  assert.doesNotMatch(context, /t-wo/, 'no W_O term in the formula');
  assert.doesNotMatch(context, /X\+PE/);
  assert.match(context, /\\text\{no \}W_O/);
  assert.match(context, /\\mathrm\{Concat\}\(\\mathrm\{head\}_1\)/);
  assert.match(stepAt(1).detail({ nQuery: 4, dModel: 8 }, 0, tutorial), /PE = 0/);
  assert.doesNotMatch(stepAt(1).detail({ nQuery: 4, dModel: 8 }, 0, state('en')), /PE = 0/);
  // The note names the tutorial by the title a reader can find.
  for (const lang of LANGUAGES) {
    const note = strings(lang).tutorialNote;
    assert.match(note, /自注意力机制完全指南：让AI学会“察言观色”的终极秘籍/, lang);
    assert.match(note, /代码实现/, lang);
    assert.doesNotMatch(note, /second tutorial|第二篇/, lang);
  }
  assert.equal(strings('en').summary(4, 1, 4, '96'), '4 tokens · 1 head of d_k = 4 · 96 parameters');
  // The count says what it counts, in the run's terms.
  assert.equal(
    strings('en').summary(4, 1, 4, '96', 'W_Q, W_K, W_V'),
    '4 tokens · 1 head of d_k = 4 · 96 parameters in this attention (W_Q, W_K, W_V)',
  );
  assert.equal(
    strings('zh').summary(5, 4, 32, '66,048', 'W_Q, W_K, W_V, W_O', true),
    '5 个词元 · 4 个头，每头 d_k = 32 · 这一注意力层的参数 66,048 个（W_Q、W_K、W_V、W_O 及其偏置）',
  );
});

test('the default run: hashed embeddings, PE added, two heads, W_O', () => {
  const s = state('en');
  const t = texts(s);
  assert.match(t.embed.text, /same vector in every sentence/);
  assert.match(t.embed.text, /positional encoding is added/);
  assert.equal(t.split.title, strings('en').steps.split.title);
  assert.equal(t.output.title, strings('en').steps.output.title);
  assert.match(formulaContextFor(s), /X'=X\+PE/);
  assert.match(formulaContextFor(s), /\\htmlClass\{t-wo\}\{W_O\}/);
});

test('each switch changes its own text, in both languages', () => {
  for (const lang of LANGUAGES) {
    const base = texts(state(lang));
    const noPe = texts(state(lang, { positionalEncoding: false }));
    assert.notEqual(noPe.embed.text, base.embed.text, `${lang}: PE off`);
    assert.doesNotMatch(formulaContextFor(state(lang, { positionalEncoding: false })), /X\+PE/);
    assert.match(
      formulaContextFor(state(lang, { tutorial: true })),
      lang === 'zh' ? /\\text\{无 \}W_O/ : /\\text\{no \}W_O/,
    );
    const oneHead = texts(state(lang, { heads: 1 }));
    assert.notEqual(oneHead.split.title, base.split.title, `${lang}: one head`);
    assert.notEqual(oneHead.concat.text, base.concat.text, `${lang}: one head's concat`);
    const noScale = state(lang, { scale: false });
    assert.notEqual(stepTitle({ ...noScale, step: 5 }, strings(lang)), base.scale.title, `${lang}: scaling off`);
    assert.doesNotMatch(stepTitle({ ...noScale, step: 5 }, strings(lang)), /Scale by|^除以 √d_k$/);
    const causal = texts(state(lang, { mask: 'causal' }));
    assert.notEqual(base.mask.title, causal.mask.title, `${lang}: mask none is named`);
    assert.equal(causal.mask.text, strings(lang).steps.mask.text);
    const tutorial = texts(state(lang, { tutorial: true }));
    assert.notEqual(tutorial.output.text, base.output.text, `${lang}: no W_O`);
    assert.notEqual(tutorial.embed.text, base.embed.text, `${lang}: X from the stream`);
  }
});

// A trace of n = 2 whose mask step hides nothing (mask none) or the upper triangle (causal).
const fakeTrace = (maskData) => ({
  nQuery: 2,
  nKey: 2,
  dModel: 4,
  heads: 1,
  dK: 4,
  flops: { outputProjection: 1 },
  step: (name) => ({ name, rows: 2, cols: 2, data: Float32Array.from(name === 'mask' ? maskData : [1, 2, 3, 4]) }),
});

test('the stage titles the scores before softmax "masked" only when the mask hides something', () => {
  for (const lang of LANGUAGES) {
    for (const n of [6, 7]) {
      const titles = (mask, data) =>
        stepAt(n)
          .operands(fakeTrace(data), 0, state(lang, { mask }))
          .map((o) => o.title)
          .filter(Boolean);
      assert.ok(!titles('none', [1, 1, 1, 1]).includes(strings(lang).masked), `${lang} step ${n}, mask none`);
      assert.ok(titles('causal', [1, 0, 1, 1]).includes(strings(lang).masked), `${lang} step ${n}, causal`);
    }
  }
});

test('tutorial mode in 中文: X from NumPy’s stream, no positional encoding', () => {
  const t = texts(state('zh', { tutorial: true }));
  assert.doesNotMatch(t.embed.text, /同一个词在任何句子里都是同一个向量|正弦位置编码/);
  assert.match(t.embed.text, /np\.random\.randn/);
  assert.match(t.output.title, /没有 W_O/);
});

test('steps 3 and 7 say the weights are random and untrained, and promise nothing the page does not show', () => {
  const says = {
    en: { untrained: /random and untrained/, promise: /syntax|long-range meaning/ },
    zh: { untrained: /随机的、未经训练/, promise: /相邻搭配|远距离语义/ },
  };
  for (const lang of LANGUAGES) {
    const t = texts(state(lang));
    for (const key of ['split', 'softmax']) {
      assert.match(t[key].text, says[lang].untrained, `${key} (${lang})`);
      assert.doesNotMatch(t[key].text, says[lang].promise, `${key} (${lang})`);
    }
    // The links view's note says it too (tests/e2e/teaching.test.mjs shows it on the page).
    assert.match(strings(lang).untrainedNote, says[lang].untrained, lang);
  }
});
