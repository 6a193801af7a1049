// The sparse attention patterns in the explorer, read from the page's pure tables: the link's
// mask= values and their settings (g=, dil=, blk=, rnd=, mseed=, and mc=, a pattern's causal version) with their bounds and the
// notices that name a bad value, the engine option each pattern makes (only the settings it
// takes), the mask step's texts in both languages, and the printed fraction of scores; the causal
// switch in the caption of an exported figure, the share link and the embed code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, strings } from '../../web/src/i18n.js';
import { defaultState, GLOBAL_TOKENS, MASKS, SPARSE, stateFromURL, stateToURL } from '../../web/src/state.js';
import { engineOptions } from '../../web/src/engine-options.js';
import { stepTexts } from '../../web/src/step-texts.js';
import { percentText } from '../../web/src/i18n-sparse.js';
import { stateFromAttributes } from '../../web/src/attributes.js';
import { VIEW_KEYS } from '../../web/src/views/registry.js';
import { figureCaption } from '../../web/src/explorer/caption.js';
import { embedLink, embedSnippet, pageLink } from '../../web/src/explorer/share.js';

const base = defaultState('en');
const SPARSE_MASKS = ['dilated', 'longformer', 'bigbird'];

test('the mask control offers the three sparse patterns beside none, causal and window', () => {
  for (const mask of ['none', 'causal', 'window', ...SPARSE_MASKS]) assert.ok(MASKS.includes(mask), mask);
});

test('a sparse pattern and its settings round-trip through the link; defaults are left out', () => {
  const query = '?mask=bigbird&w=2&g=5,0&blk=2&rnd=3&mseed=9';
  const { state, notices } = stateFromURL(query, base, VIEW_KEYS);
  assert.deepEqual(notices, []);
  assert.equal(state.mask, 'bigbird');
  assert.deepEqual(state.global, [0, 5], 'global tokens are kept ascending');
  assert.deepEqual([state.window, state.block, state.random, state.maskSeed], [2, 2, 3, 9]);
  assert.equal(stateToURL(state, base), '?mask=bigbird&w=2&g=0%2C5&blk=2&rnd=3&mseed=9');
  // The default global token [0] is not written, even as another array with the same content.
  assert.equal(stateToURL({ ...base, mask: 'longformer', global: [0] }, base), '?mask=longformer');
  // No global token at all is a value of its own: g= (empty).
  const none = stateFromURL('?mask=longformer&g=', base, VIEW_KEYS);
  assert.deepEqual(none.state.global, []);
  assert.equal(stateToURL(none.state, base), '?mask=longformer&g=');
  assert.equal(stateFromURL('?mask=dilated&dil=5', base, VIEW_KEYS).state.dilation, 5);
});

test('bad sparse settings fall back to the defaults and are named in the notice', () => {
  const bad = [
    `dil=${SPARSE.dilation.min - 1}`,
    `dil=${SPARSE.dilation.max + 1}`,
    `blk=${SPARSE.block.max + 1}`,
    `rnd=${SPARSE.random.max + 1}`,
    'g=a',
    'g=-1',
    `g=${GLOBAL_TOKENS.max + 1}`,
    `g=${Array.from({ length: GLOBAL_TOKENS.count + 1 }, (_, i) => i).join(',')}`,
    'mseed=4294967296',
    'mask=sparse',
  ];
  for (const field of bad) {
    const { state, notices } = stateFromURL(`?${field}`, base, VIEW_KEYS);
    assert.deepEqual(notices, [field], field);
    assert.deepEqual(state, { ...base, global: state.global }, field);
    assert.deepEqual(state.global, base.global, field);
  }
});

test('the web component takes the same settings as attributes', () => {
  const attributes = {
    mask: 'longformer',
    window: '2',
    'global-tokens': '0,3',
    dilation: '3',
    block: '2',
    'random-blocks': '0',
    'mask-seed': '4',
  };
  const element = { getAttribute: (name) => attributes[name] ?? null };
  const { state, notices } = stateFromAttributes(element, base);
  assert.deepEqual(notices, []);
  assert.deepEqual(
    [state.mask, state.window, state.global, state.dilation, state.block, state.random, state.maskSeed],
    ['longformer', 2, [0, 3], 3, 2, 0, 4],
  );
});

test('each pattern gives the engine only the settings it takes (the engine refuses others by name)', () => {
  const s = { ...base, window: 2, global: [0, 3], dilation: 3, block: 2, random: 2, maskSeed: 5 };
  const mask = (m) => engineOptions({ ...s, mask: m }, ['a', 'b']).mask;
  assert.equal(mask('none'), 'none');
  assert.equal(mask('causal'), 'causal');
  assert.deepEqual(mask('window'), { type: 'window', width: 2 });
  assert.deepEqual(mask('dilated'), { type: 'dilated', width: 2, dilation: 3 });
  assert.deepEqual(mask('longformer'), { type: 'longformer', width: 2, global: [0, 3] });
  assert.deepEqual(mask('bigbird'), { type: 'bigbird', width: 2, global: [0, 3], block: 2, random: 2, seed: 5 });
});

test('the mask step explains each pattern in both languages, with the same keys', () => {
  for (const mask of ['window', ...SPARSE_MASKS]) {
    const texts = LANGUAGES.map((lang) => stepTexts('mask', { ...defaultState(lang), mask }, strings(lang)));
    for (const t of texts) {
      assert.ok(t.title && t.text, `${mask}: a title and a text`);
      assert.notEqual(t.text, strings('en').steps.mask.text);
    }
    assert.notEqual(texts[0].text, texts[1].text, `${mask}: English and 中文 differ`);
    assert.match(texts[1].text, /[\u4e00-\u9fff]/, `${mask}: the Chinese text is Chinese`);
  }
  // Why information still flows: two hops through a global token, random shortcuts, reach.
  const en = (mask) => stepTexts('mask', { ...base, mask }, strings('en')).text;
  const zh = (mask) => stepTexts('mask', { ...defaultState('zh'), mask }, strings('zh')).text;
  assert.match(en('longformer'), /two hops through a global token/);
  assert.match(zh('longformer'), /两跳/);
  assert.match(en('bigbird'), /random/i);
  assert.match(zh('bigbird'), /随机/);
  assert.match(en('dilated'), /further/);
  assert.match(zh('dilated'), /远/);
  for (const lang of LANGUAGES)
    for (const key of ['mask.dilated', 'mask.longformer', 'mask.bigbird', 'globalTokens', 'dilation', 'block'])
      assert.equal(typeof strings(lang)[key], 'string', `${lang} ${key}`);
});

test('the printed fraction: whole percents, one decimal under 10%, never 0% for some scores', () => {
  // Counts a reader can check: 9 of 100 scores, 4 of 1,000, 1 of 1,000,000.
  assert.equal(percentText(9 / 100), '9%');
  assert.equal(percentText(0.5), '50%');
  assert.equal(percentText(1), '100%');
  assert.equal(percentText(19 / 64), '30%');
  assert.equal(percentText(35 / 640), '5.5%');
  assert.equal(percentText(4 / 1000), '0.4%');
  assert.equal(percentText(1 / 1e6), '0.1%');
  for (const lang of LANGUAGES) {
    const t = strings(lang).sparseFraction('9%', 9, 100);
    assert.match(t, /9%/);
    assert.match(t, /100/);
    assert.doesNotMatch(t, /NaN|undefined/);
  }
});

test('the causal switch: off by default, mc=1 in the link and as an attribute, a bad value named', () => {
  assert.equal(base.maskCausal, false);
  assert.equal(stateToURL({ ...base, mask: 'window' }, base), '?mask=window', 'off is not written');
  const { state, notices } = stateFromURL('?mask=window&w=2&mc=1', base, VIEW_KEYS);
  assert.deepEqual(notices, []);
  assert.equal(state.maskCausal, true);
  assert.equal(stateToURL(state, base), '?mask=window&w=2&mc=1');
  assert.equal(stateFromURL('?mask=window&mc=0', base, VIEW_KEYS).state.maskCausal, false);
  for (const bad of ['mc=yes', 'mc=2', 'mc=']) {
    const read = stateFromURL(`?mask=window&${bad}`, base, VIEW_KEYS);
    assert.deepEqual(read.notices, [bad], bad);
    assert.equal(read.state.maskCausal, false, bad);
  }
  // A repeated key counts once, at its first value, and is named.
  const twice = stateFromURL('?mask=window&mc=1&mc=0', base, VIEW_KEYS);
  assert.equal(twice.state.maskCausal, true);
  assert.deepEqual(twice.repeated, ['mc']);
  const attributes = { mask: 'longformer', 'mask-causal': '' };
  const element = { getAttribute: (name) => attributes[name] ?? null };
  assert.equal(stateFromAttributes(element, base).state.maskCausal, true, 'a bare attribute is on');
});

test('the engine gets the causal flag only from a pattern mask, and only when it is on', () => {
  const s = { ...base, window: 2, global: [0], dilation: 3, block: 2, random: 1, maskSeed: 0 };
  const mask = (m, maskCausal) => engineOptions({ ...s, mask: m, maskCausal }, ['a', 'b']).mask;
  for (const m of ['window', ...SPARSE_MASKS]) {
    assert.equal(mask(m, true).causal, true, m);
    assert.equal('causal' in mask(m, false), false, `${m}: off leaves the option out`);
  }
  assert.deepEqual(mask('window', true), { type: 'window', width: 2, causal: true });
  // none and causal are names: the switch has nothing to add to them.
  assert.equal(mask('none', true), 'none');
  assert.equal(mask('causal', true), 'causal');
});

test('the mask step of a causal pattern says why it keeps only j ≤ i, in both languages', () => {
  for (const lang of LANGUAGES) {
    const s = strings(lang);
    for (const m of ['window', ...SPARSE_MASKS]) {
      const plain = stepTexts('mask', { ...defaultState(lang), mask: m }, s);
      const causal = stepTexts('mask', { ...defaultState(lang), mask: m, maskCausal: true }, s);
      assert.equal(causal.title, `${s.maskSteps[m].title}${s.maskCausalTitle}`, `${lang} ${m}`);
      assert.equal(causal.text, `${plain.text} ${s.maskCausalText}`, `${lang} ${m}`);
    }
    for (const key of ['maskCausal', 'maskCausalHint', 'maskCausalTitle', 'maskCausalText'])
      assert.equal(typeof s[key], 'string', `${lang} ${key}`);
    // With none, the switch (left on by a link) changes nothing in the text.
    const none = { ...defaultState(lang), mask: 'none' };
    assert.deepEqual(stepTexts('mask', { ...none, maskCausal: true }, s), stepTexts('mask', none, s));
  }
  assert.match(strings('zh').maskCausalText, /因果/);
});

test('an exported figure of a causal pattern says so in its caption; none with the switch left on does not', () => {
  for (const lang of LANGUAGES) {
    const s = strings(lang);
    const caption = (state) => figureCaption({ ...defaultState(lang), ...state }, null, s).subtitle;
    assert.ok(caption({ mask: 'window', maskCausal: true }).includes(`${s['mask.window']}${s.maskCausalTitle}`), lang);
    assert.ok(!caption({ mask: 'window' }).includes(s.maskCausalTitle), lang);
    assert.ok(!caption({ mask: 'none', maskCausal: true }).includes(s.maskCausalTitle), lang);
  }
});

test('the share link and the embed code carry the causal switch', () => {
  const state = { ...base, mask: 'longformer', maskCausal: true };
  const href = 'https://example.org/explorer/index.html';
  assert.match(pageLink(state, base, href).link, /[?&]mc=1(&|$)/);
  assert.match(embedLink(state, base, href).link, /[?&]mc=1(&|$)/);
  assert.match(embedSnippet(state, base, href), /&amp;mc=1&amp;/);
  assert.doesNotMatch(pageLink({ ...state, maskCausal: false }, base, href).link, /mc=/);
});
