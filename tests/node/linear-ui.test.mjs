// Linear attention in the explorer, read from the page's pure tables: the link's attn= field,
// the engine option it makes, the steps and texts a linear state gets in both languages, and
// φ(x) = elu(x) + 1 of the arithmetic panel against its definition written out here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, strings } from '../../web/src/i18n.js';
import { constrain, defaultState, stateFromURL, stateToURL } from '../../web/src/state.js';
import { engineOptions } from '../../web/src/engine-options.js';
import { stepTexts } from '../../web/src/step-texts.js';
import { formulaFor, isLinear, LINEAR_STEP_KEYS, STEP_KEYS, stepAt } from '../../web/src/steps.js';
import { phi } from '../../web/src/views/arithmetic-linear.js';
import { figureCaption } from '../../web/src/explorer/caption.js';
import { stateFromAttributes } from '../../web/src/attributes.js';
import { heatmapStepsFor } from '../../web/src/views/heatmap.js';
import { matricesOf } from '../../web/src/views/matrices.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

const base = defaultState('en');
const linear = (lang = 'en', patch = {}) => constrain({ ...defaultState(lang), attention: 'linear', ...patch });

test('attn=linear round-trips through the link and is left out at its default', () => {
  const { state, notices } = stateFromURL('?attn=linear', base, VIEW_KEYS);
  assert.equal(state.attention, 'linear');
  assert.deepEqual(notices, []);
  assert.equal(stateToURL(state, base), '?attn=linear');
  assert.equal(stateToURL(base, base), '');
  assert.equal(stateFromURL(stateToURL(state, base), base, VIEW_KEYS).state.attention, 'linear');
});

test('attn= refuses a kind the engine does not have, naming it', () => {
  const { state, notices } = stateFromURL('?attn=flash', base, VIEW_KEYS);
  assert.equal(state.attention, 'softmax');
  assert.deepEqual(notices, ['attn=flash']);
});

test('the engine gets attention: linear from a linear state', () => {
  assert.equal(engineOptions(linear(), ['a', 'b']).attention, 'linear');
  assert.equal(engineOptions(base, ['a', 'b']).attention, 'softmax');
});

test('a trained model is softmax attention whatever the link says', () => {
  assert.equal(isLinear(linear()), true);
  assert.equal(isLinear({ ...linear(), model: 'tang' }), false);
  assert.equal(stepAt(4, { ...linear(), model: 'tang' }).linear, undefined);
});

test('steps 4–8 are linear attention’s own, steps 1–3 and 9–10 are shared', () => {
  assert.deepEqual(LINEAR_STEP_KEYS, STEP_KEYS.slice(3, 8));
  STEP_KEYS.forEach((key, k) => {
    const row = stepAt(k + 1, linear());
    assert.equal(row.key, key, 'the same key: step=n and a component’s step name keep their meaning');
    assert.equal(Boolean(row.linear), LINEAR_STEP_KEYS.includes(key), key);
  });
  assert.notEqual(stepAt(4, linear()).operands, stepAt(4, base).operands);
});

test('every linear step has its title, short name and text in both languages', () => {
  for (const lang of LANGUAGES) {
    for (const key of LINEAR_STEP_KEYS) {
      const linearText = stepTexts(key, linear(lang), strings(lang));
      const softmaxText = stepTexts(key, defaultState(lang), strings(lang));
      for (const field of ['title', 'short', 'text']) {
        assert.ok(linearText[field]?.length > 0, `${lang} ${key}.${field}`);
      }
      assert.notEqual(linearText.title, softmaxText.title, `${lang} ${key}: a title of its own`);
    }
  }
});

test('the implied-weights step says what is gained and what is lost', () => {
  const en = stepTexts('softmax', linear('en'), strings('en')).text;
  assert.match(en, /O\(n·d_k²\)/);
  assert.match(en, /O\(n²·d_k\)/);
  assert.match(en, /flatter/);
  const zh = stepTexts('softmax', linear('zh'), strings('zh')).text;
  assert.match(zh, /O\(n·d_k²\)/);
  assert.match(zh, /更平/);
});

test('a causal mask adds the prefix sums to the summary, normaliser and output texts only', () => {
  for (const lang of LANGUAGES) {
    const s = strings(lang);
    for (const key of LINEAR_STEP_KEYS) {
      const text = stepTexts(key, linear(lang, { mask: 'causal' }), s).text;
      assert.equal(text.includes(s.linearCausal), ['scale', 'mask', 'weighted'].includes(key), `${lang} ${key}`);
    }
  }
});

test('the formula is linear attention’s with φ, not softmax', () => {
  assert.match(formulaFor(linear()), /\\phi\(q_i\)/);
  assert.doesNotMatch(formulaFor(linear()), /softmax/);
  assert.match(formulaFor(base), /softmax/);
});

test('φ(x) is x + 1 above 0 and eˣ at or below it: positive and continuous at 0', () => {
  const reference = (x) => (x > 0 ? x + 1 : Math.exp(x));
  for (const x of [-5, -1, -0.25, 0, 1e-9, 0.5, 3]) assert.equal(phi(x), reference(x));
  assert.equal(phi(0), 1);
  assert.ok(phi(-50) > 0);
});

test('the refused controls have a reason in both languages', () => {
  for (const lang of LANGUAGES) {
    for (const key of ['linearNoWindow', 'linearNoScale', 'linearNoTemperature', 'linearOff']) {
      assert.ok(strings(lang)[key]?.length > 10, `${lang} ${key}`);
    }
  }
});

test('an exported figure of linear attention says so in its subtitle, in both languages', () => {
  for (const lang of LANGUAGES) {
    const s = strings(lang);
    assert.ok(figureCaption(linear(lang), null, s).subtitle.endsWith(s.figureLinear), lang);
    assert.ok(!figureCaption(defaultState(lang), null, s).subtitle.includes(s.figureLinear), lang);
  }
});

test('the web component takes attention="linear" as a link takes attn=linear', () => {
  const element = (attributes) => ({
    getAttribute: (name) => attributes[name] ?? null,
    hasAttribute: (name) => name in attributes,
  });
  assert.equal(stateFromAttributes(element({ attention: 'linear' }), base).state.attention, 'linear');
  const refused = stateFromAttributes(element({ attention: 'flash' }), base);
  assert.equal(refused.state.attention, 'softmax');
  assert.equal(refused.notices.length, 1);
});

test('the heatmaps show softmax beside linear at every step of a linear state, one matrix otherwise', () => {
  for (let step = 1; step <= STEP_KEYS.length; step++) {
    assert.deepEqual(heatmapStepsFor({ ...linear(), step }), ['weights', 'linearWeights']);
    assert.deepEqual(heatmapStepsFor({ ...base, step }), [stepAt(step).heatmap]);
  }
});

test('the matrices view adds φ(Q), φ(K), S, Σφ(k) and z after V in a linear trace only', () => {
  const names = (trace) => matricesOf(trace).map(([name]) => name);
  const linearNames = names({ attention: 'linear', flops: {} });
  const at = linearNames.indexOf('v') + 1;
  assert.deepEqual(linearNames.slice(at, at + 5), ['phiQ', 'phiK', 'kvSummary', 'keySum', 'normaliser']);
  assert.ok(!names({ attention: 'softmax', flops: {} }).includes('phiQ'));
});
