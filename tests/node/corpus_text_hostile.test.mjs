// Hostile texts through createCorpusTrainer and the playground's text logic: a UTF-8 byte order
// mark at the start used to become a vocabulary symbol; a word-level text with a 99,999-byte
// word was refused as "one word repeated" (the long word silently read as <unk>); 8,189
// distinct characters at character level were advised "use character level"; a flood of
// zero-width joiners or combining marks (no spaces) was proposed word level, which refuses it;
// a 16 MiB text was counted by building an array of 16 million strings. And a forged model
// file's bad value is named by its key by the engine's own JSON reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAttentionError, createEngine } from './support.mjs';
import { countTokens, proposeLevel } from '../../web/src/playground/texts.js';
import { textRefusal } from '../../web/src/playground/own-text.js';
import { strings } from '../../web/src/playground/i18n.js';
import { corpusModelFile } from './corpus_model_support.mjs';

const engine = await createEngine();
const TEXT = 'the cat sat on the mat. the dog sat on the log. a cat and a dog sat on a mat and a log.';

/** The summary and vocabulary of a trainer for `text`, or the refusal. */
function built(text, options) {
  const trainer = engine.createCorpusTrainer(text, { level: 'character', contextLength: 8, ...options });
  try {
    return { summary: { ...trainer.summary }, vocabulary: [...trainer.vocabulary] };
  } finally {
    trainer.dispose();
  }
}

test('a byte order mark at the start is not a symbol, as a string or as bytes, at either level', () => {
  for (const level of ['character', 'word']) {
    const plain = built(TEXT, { level });
    for (const text of [`\uFEFF${TEXT}`, new TextEncoder().encode(`\uFEFF${TEXT}`)]) {
      const marked = built(text, { level, chunkBytes: 2 });
      assert.ok(!marked.vocabulary.some((s) => s.includes('\uFEFF')), `${level}: ${marked.vocabulary}`);
      assert.deepEqual(marked.vocabulary, plain.vocabulary, level);
      assert.equal(marked.summary.tokens, plain.summary.tokens, level);
    }
  }
  // A mark inside the text is the text's (a zero-width no-break space).
  assert.ok(built(`${TEXT}\uFEFF${TEXT}`).vocabulary.includes('\uFEFF'));
});

test('a word past 1,024 bytes is named with its length and the limit, in both languages', () => {
  const long = `${'short words here and there '.repeat(4)}${'x'.repeat(99999)} end`;
  let message;
  assertAttentionError(() => built(long, { level: 'word' }), {
    code: 'LIMIT_EXCEEDED',
    field: 'text',
    message: (message =
      /^text has a word of 99999 bytes \("x{24}…"\); a word-level symbol is at most 1024 bytes: use character level$/),
  });
  let refusal;
  try {
    built(long, { level: 'word' });
  } catch (error) {
    refusal = textRefusal(error.message);
  }
  assert.ok(message);
  assert.deepEqual(refusal.args, ['word', ['99999', 'x'.repeat(24), '1024']]);
  assert.equal(
    strings('en').textRefused(...refusal.args),
    `The text has a word of 99999 bytes (“${'x'.repeat(24)}…”); a word at word level is at most 1024 bytes: choose character level.`,
  );
  assert.match(strings('zh').textRefused(...refusal.args), /^文本中有一个 99999 字节的词/);
  // Past 100,000 bytes without a space, the same limit is named.
  assertAttentionError(() => built('y'.repeat(150000), { level: 'word' }), {
    field: 'text',
    message:
      /^text has more than 100000 bytes without a space, tab or newline from byte 0; a word at word level is at most 1024 bytes/,
  });
  // At character level the long word is only characters.
  assert.ok(built(long).summary.tokens > 99999);
});

test('the vocabulary advice fits the level: character level is not advised at character level', () => {
  const chars = Array.from({ length: 8189 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
  const words = Array.from({ length: 9000 }, (_, i) => `w${i}`).join(' ');
  const said = {};
  for (const [level, text] of [
    ['character', chars],
    ['word', words],
  ]) {
    try {
      built(text, { level });
      assert.fail(`${level} was built`);
    } catch (error) {
      const refusal = textRefusal(error.message);
      assert.equal(refusal.args[0], 'vocabulary', error.message);
      said[level] = {
        engine: error.message,
        en: strings('en').textRefused(...refusal.args),
        zh: strings('zh').textRefused(...refusal.args),
      };
    }
  }
  assert.match(said.character.engine, /8189 distinct characters .*: raise minCount or give a shorter text$/);
  assert.doesNotMatch(said.character.en, /character level/);
  assert.doesNotMatch(said.character.zh, /按字符/);
  assert.equal(
    said.character.en,
    'The text has 8189 distinct characters; the vocabulary holds at most 8192 ids: give a shorter text.',
  );
  assert.match(said.word.engine, /use character level/);
  assert.match(said.word.en, /choose character level/);
  assert.match(said.word.zh, /请按字符/);
});

test('floods of joiners or combining marks are proposed character level and train there', () => {
  const floods = {
    zwj: '👨\u200d'.repeat(3000),
    combining: `a${'\u0301'.repeat(30)}`.repeat(300),
    joiners: `${'\u200d'.repeat(6000)}ab`,
  };
  for (const [name, text] of Object.entries(floods)) {
    assert.deepEqual(proposeLevel(text), { level: 'character', reason: 'unspaced' }, name);
    const { summary, vocabulary } = built(text, { level: 'character', contextLength: 16 });
    assert.ok(summary.tokens > 1000 && vocabulary.length <= 8, `${name}: ${summary.tokens} ${vocabulary.length}`);
  }
  assert.match(strings('en').proposal.unspaced, /^Character level is proposed/);
  assert.match(strings('zh').proposal.unspaced, /^建议按字符/);
  // Ordinary English prose still gets word level when long.
  assert.equal(proposeLevel(TEXT.repeat(100)).level, 'word');
});

test('countTokens counts code points and white-space pieces without an array, 16 MiB in well under 3 s', () => {
  for (const text of ['', 'ab c', '  a😀b \n c  ', '\ud800x', 'x\udc00', '👨\u200d👩']) {
    assert.equal(countTokens(text, 'character'), Array.from(text).length, JSON.stringify(text));
    assert.equal(countTokens(text, 'word'), text.trim().split(/\s+/).filter(Boolean).length, JSON.stringify(text));
  }
  const big = 'abcd efgh '.repeat(1677722);
  const t0 = performance.now();
  assert.equal(countTokens(big, 'character'), big.length);
  assert.equal(countTokens(big, 'word'), 2 * 1677722);
  assert.ok(performance.now() - t0 < 3000, `${performance.now() - t0} ms`);
});

test("a forged model file's value that JSON gives but a flat object does not is named by its key", () => {
  const POEM = [...'床前明月光，疑是地上霜。举头望低思故乡\n'];
  for (const value of [null, { a: 1 }, [1]]) {
    assertAttentionError(
      () => engine.loadModel(corpusModelFile(engine, { symbols: POEM, extra: { heldOutLoss: value } })),
      { code: 'INVALID_ARGUMENT', field: 'model.config.heldOutLoss', message: /^model\.config\.heldOutLoss: / },
    );
  }
});
