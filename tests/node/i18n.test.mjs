// Both languages say everything: every string of the page exists in English and in 中文, with
// the same kind (text or a function of the numbers), and no Chinese text is English.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, strings } from '../../web/src/i18n.js';

test('every string exists in both languages, of the same kind', () => {
  const [en, zh] = LANGUAGES.map(strings);
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    assert.equal(typeof zh[key], typeof en[key], key);
    if (typeof en[key] === 'function') assert.equal(zh[key].length, en[key].length, `${key}: same arguments`);
  }
  assert.equal(zh.steps.length, en.steps.length);
});

test('the numbers’ strings (arithmetic, temperature, positional encoding) are translated', () => {
  const zh = strings('zh');
  const en = strings('en');
  for (const key of ['arithmeticHint', 'temperatureText', 'peText', 'sharedScales', 'kvSentence', 'maskedNote']) {
    assert.match(zh[key], /[\u4e00-\u9fff]/, `${key} is Chinese`);
    assert.notEqual(zh[key], en[key], key);
  }
  assert.match(zh.scoreTitle(2, '我', '爱'), /头 2/);
  assert.match(en.scoreTitle(2, 'I', 'love'), /Head 2/);
});
