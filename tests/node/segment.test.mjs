// `text` is split into words as the page splits it (Intl.Segmenter, whitespace always
// separates), unless `tokenizer` asks for characters, whitespace or the engine's own tokenizer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { tokenizeSentence } from '../../web/src/tokenize.js';
import { segmentSentence } from '../../cpp/bindings/js/segment.js';

const engine = await createEngine();
const tokensOf = (options) => engine.run(options, { steps: ['x'] }).tokens;

test('by default text is split into words, and typed whitespace separates tokens', () => {
  assert.deepEqual(tokensOf({ text: '我 爱 吃 火锅' }), ['我', '爱', '吃', '火锅']);
  assert.deepEqual(tokensOf({ text: '小明在北京的清华大学读书' }), ['小明', '在', '北京', '的', '清华大学', '读书']);
  assert.deepEqual(tokensOf({ text: '猫追着球跑!' }), ['猫', '追', '着', '球', '跑', '!']);
  assert.deepEqual(tokensOf({ text: 'The cat sat.\u3000火锅\u00a0好吃' }), ['The', 'cat', 'sat', '.', '火锅', '好吃']);
  const live = engine.open({ text: 'I love hotpot', kvText: '我爱吃火锅' });
  try {
    assert.deepEqual(live.tokens, ['I', 'love', 'hotpot']);
    assert.deepEqual(live.kvTokens, ['我', '爱', '吃', '火锅']);
  } finally {
    live.dispose();
  }
});

test('the page and the engine split a sentence the same way', () => {
  for (const text of ['小明在北京的清华大学读书', '我 爱 吃 火锅', 'Hello, 世界! 👨‍👩‍👧 ok', 'e\u0301cole 🇨🇳']) {
    for (const tokenizer of ['words', 'chars', 'whitespace']) {
      assert.deepEqual(tokensOf({ text, tokenizer }), tokenizeSentence(text, tokenizer), `${tokenizer}: ${text}`);
    }
  }
});

test('a sentence typed letter by letter splits as a fresh one: kept words are placed where they now are', () => {
  // segment.js keeps each word's split for the next keystroke; the offsets must be the new text's.
  const fresh = (text, mode) => {
    const segmenter = new Intl.Segmenter('zh', { granularity: mode === 'chars' ? 'grapheme' : 'word' });
    const out = [];
    for (const { 0: chunk, index: start } of text.matchAll(/\S+/gu))
      for (const { segment, index } of segmenter.segment(chunk))
        if (segment.trim() !== '') out.push({ token: segment.trim(), end: start + index + segment.length });
    return out;
  };
  // (With a chunk longer than those segment.js keeps, split anew each time.)
  const typed =
    'the cat 小明在北京 the cat, 猫追着球跑 the  cat e\u0301cole 🇨🇳 小明在北京的清华大学读书，我爱吃火锅，猫追着球跑。 the';
  for (const mode of ['words', 'chars'])
    for (let n = 0; n <= typed.length; n++) {
      // Typed forwards, then the same words again behind new ones (other offsets), and deleted.
      const text = typed.slice(0, n);
      assert.deepEqual(segmentSentence(text, mode), fresh(text, mode), `${mode}: "${text}"`);
      const moved = `x ${text}`;
      assert.deepEqual(segmentSentence(moved, mode), fresh(moved, mode), `${mode}: "${moved}"`);
    }
});

test('tokenizer chooses characters, whitespace or the engine’s own tokenizer', () => {
  assert.deepEqual(tokensOf({ text: '我爱吃 火锅', tokenizer: 'chars' }), ['我', '爱', '吃', '火', '锅']);
  assert.deepEqual(tokensOf({ text: '我爱吃 火锅!', tokenizer: 'whitespace' }), ['我爱吃', '火锅!']);
  assert.deepEqual(tokensOf({ text: '我爱吃火锅', tokenizer: 'engine' }), engine.tokenize('我爱吃火锅'));
  assert.deepEqual(tokensOf({ text: '我爱吃火锅', tokenizer: 'engine' }), ['我', '爱', '吃', '火', '锅']);
  assert.deepEqual(tokensOf({ tokens: ['火锅'], tokenizer: 'chars' }), ['火锅'], 'tokens are never re-split');
  assertAttentionError(() => engine.run({ text: 'a', tokenizer: 'toString' }), {
    field: 'tokenizer',
    message: 'tokenizer ("toString") must be one of words, chars, whitespace, engine',
  });
});

test('text limits hold for every tokenizer', () => {
  for (const tokenizer of ['words', 'chars', 'whitespace', 'engine']) {
    assertAttentionError(() => engine.run({ text: 'a'.repeat(100001), tokenizer }), {
      code: 'LIMIT_EXCEEDED',
      field: 'text',
      message: 'text (100001 bytes) must be at most 100000 bytes of UTF-8; truncate it',
    });
    assertAttentionError(() => engine.run({ text: 'ok \ud800', tokenizer }), { code: 'INVALID_UTF8', field: 'text' });
  }
});
