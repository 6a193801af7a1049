// The playground's "Your text" logic (web/src/playground/texts.js, own-text.js, state.js) against
// the engine itself: every ready text trains with the page's settings, the proposed level, the
// context length that fits short texts, the engine's refusals said in both languages, and the
// link that keeps a text's settings (the text only when short).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine, fullTier } from './support.mjs';
import {
  contextLengthFor,
  countTokens,
  excerptOf,
  MAX_URL_TEXT,
  promptOf,
  proposeLevel,
  READY_TEXTS,
  TEXT_KNOBS,
  textTrainerOptions,
} from '../../web/src/playground/texts.js';
import { textRefusal } from '../../web/src/playground/own-text.js';
import { buildTextTrainer, withRoles } from '../../web/src/playground/worker-text.js';
import { failureText } from '../../web/src/playground/messages.js';
import { defaultState, queryOf, stateFromURL } from '../../web/src/playground/state.js';
import { strings } from '../../web/src/playground/i18n.js';

const engine = await createEngine();

function trainerFor(text, level) {
  return engine.createCorpusTrainer(text, textTrainerOptions(TEXT_KNOBS, level, countTokens(text, level)));
}

test(
  'every ready text is proposed a level, trains with the page settings, and its excerpt and prompt read without <unk>',
  fullTier,
  () => {
    const proposed = Object.fromEntries(Object.entries(READY_TEXTS).map(([name, text]) => [name, proposeLevel(text)]));
    assert.deepEqual(proposed, {
      poems: { level: 'character', reason: 'chinese' },
      paragraph: { level: 'character', reason: 'short' },
      names: { level: 'character', reason: 'short' },
    });
    for (const [name, text] of Object.entries(READY_TEXTS)) {
      for (const level of ['character', 'word']) {
        const trainer = trainerFor(text, level);
        try {
          assert.equal(
            trainer.summary.tokens,
            level === 'character' ? Array.from(text).length : engine.tokenize(text).length,
          );
          const first = trainer.step(2);
          assert.ok(Number.isFinite(first.loss), `${name} ${level}`);
          for (const piece of [excerptOf(text, level), promptOf(text, level)]) {
            const encoded = trainer.encode(piece);
            assert.ok(encoded.ids.length > 0 && !encoded.unknown.some(Boolean), `${name} ${level}: “${piece}”`);
          }
        } finally {
          trainer.dispose();
        }
      }
    }
    // A long English text is proposed at word level.
    assert.deepEqual(proposeLevel(READY_TEXTS.paragraph.repeat(8)), { level: 'word', reason: 'long' });
  },
);

test("the heads' roles on the excerpt, from the page's snapshot, are the engine's head labels of its trace", () => {
  const text = READY_TEXTS.poems;
  const trainer = trainerFor(text, 'character');
  try {
    trainer.step(40);
    const excerpt = excerptOf(text, 'character');
    const snap = withRoles(trainer.attention(excerpt));
    assert.equal(snap.roles.length, TEXT_KNOBS.layers * TEXT_KNOBS.heads);
    assert.deepEqual(
      snap.roles,
      trainer.headLabels(excerpt).map((h) => h.label),
    );
  } finally {
    trainer.dispose();
  }
});

test('the context length fits texts from the fewest tokens the engine takes to long ones', () => {
  const { minTokens } = engine.corpusLimits;
  for (const tokens of [minTokens, 40, 100, 300, 5000]) {
    const text = Array.from({ length: tokens }, (_, i) => 'abcdefg'[(i * 3) % 7]).join('');
    const length = contextLengthFor(tokens);
    assert.ok(length >= 8 && length <= 64, `${tokens}: ${length}`);
    const trainer = trainerFor(text, 'character');
    try {
      assert.equal(trainer.contextLength, length);
      trainer.step(1);
    } finally {
      trainer.dispose();
    }
  }
  assert.equal(contextLengthFor(5000), 64);
});

test('every refusal of a text by the engine is said in both languages, the Chinese without English', () => {
  const options = { level: 'character', contextLength: 8 };
  const refusals = [
    ['empty', ''],
    ['one', 'x'.repeat(100)],
    ['short', 'abc'],
    ['nul', 'abcdefgh\0ijklmnopqrstuvwxyz'],
    ['binary', `${'abcd'.repeat(10)}\x01\x02`],
    ['utf8', Uint8Array.from([0x61, 0x62, 0xc3, 0x28])],
    ['surrogate', 'lone \ud800 surrogate'],
    ['large', new Uint8Array(engine.corpusLimits.maxTextBytes + 1)],
    ['vocabulary', Array.from({ length: 9000 }, (_, i) => `w${i}`).join(' '), { level: 'word' }],
    ['context', 'abcdefghij'.repeat(3), { contextLength: 64 }],
  ];
  for (const [kind, text, extra] of refusals) {
    let message;
    try {
      engine.createCorpusTrainer(text, { ...options, ...extra }).dispose();
    } catch (error) {
      message = error.message;
    }
    const failure = textRefusal(message);
    assert.equal(failure.kind, 'textRefused', `${kind}: ${message}`);
    assert.equal(failure.args[0], kind, message);
    const zh = strings('zh').textRefused(...failure.args);
    const en = strings('en').textRefused(...failure.args);
    assert.doesNotMatch(zh, /[A-Za-z]{4,}/, zh);
    assert.match(en, /^The /);
  }
  // Any other failure keeps the engine's words.
  assert.deepEqual(textRefusal('dModel (0) must be an integer'), {
    kind: 'text',
    message: 'dModel (0) must be an integer',
  });
});

test("a link keeps a text mode setup, and the learner's text only when short", () => {
  const base = defaultState('en');
  const short = 'a short text of my own';
  const { state } = stateFromURL(`?task=text&src=own&lv=word&text=${encodeURIComponent(short)}&L=3`, base);
  assert.deepEqual(
    { task: state.task, source: state.source, level: state.level, text: state.text, layers: state.layers },
    { task: 'text', source: 'own', level: 'word', text: short, layers: 3 },
  );
  assert.equal(stateFromURL(`?${queryOf(state)}`, base).state.text, short);
  const long = { ...state, text: 'x'.repeat(MAX_URL_TEXT + 1) };
  assert.equal(new URLSearchParams(queryOf(long)).get('text'), null);
  const { notices } = stateFromURL(`?task=text&text=${'x'.repeat(MAX_URL_TEXT + 1)}&src=nope`, base);
  assert.deepEqual(notices.sort(), ['src', 'text']);
  // A ready text's link is just its name; a task's link has none of the text keys.
  assert.equal(queryOf({ ...state, source: 'names', level: 'auto' }), 'task=text&L=3&lang=en&src=names');
  assert.equal(queryOf({ ...base, task: 'sort' }).includes('src'), false);
});

test('what the page says of each bad text or file, word for word: the worker’s refusal, read and worded as the page does', () => {
  // The page's path (train-session.js): the worker builds (worker-text.js) at the level the page chose,
  // its refusal is read (textRefusal) and the message line words it (failureText). A file's bytes
  // reach the engine as bytes, which it checks as UTF-8 by offset; the browser test
  // (tests/e2e/own-text.test.mjs) opens one such file and pastes one such text.
  const latin1 = (text) => Uint8Array.from(Buffer.from(text, 'latin1'));
  const cases = [
    [
      '',
      'auto',
      '文本是空的：至少需要 24 个 UTF-8 词元。',
      'The text is empty: give at least 24 tokens of UTF-8 text.',
    ],
    ['哈'.repeat(300), 'auto', '文本只是一个符号（“哈”）重复了 300 次：模型从中学不到任何东西。'],
    ['床前明月光', 'auto', '文本有 5 个词元；至少需要 24 个。', 'The text has 5 tokens; at least 24 are needed.'],
    [
      `${'abc '.repeat(20)}\x01\x02\x03\x04`,
      'auto',
      '文本的 84 个字符中有 4 个控制字符（最多 1%）：它像是二进制文件，不是文本。',
    ],
    [
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
      'auto',
      '这个文件不是有效的 UTF-8（第 0 字节）：请另存为 UTF-8 文本后再打开。',
    ],
    [
      new TextEncoder().encode(`${'hello world '.repeat(5)}\0end`),
      'auto',
      '这个文件在第 60 字节有一个 NUL 字节：它像是二进制文件，不是文本。',
    ],
    [
      latin1('caf\xe9 na\xefve '.repeat(8)),
      'auto',
      '这个文件不是有效的 UTF-8（第 4 字节）：请另存为 UTF-8 文本后再打开。',
      'The file is not valid UTF-8 (at byte 4): save it as UTF-8 text and open it again.',
    ],
    [
      Array.from({ length: 9000 }, (_, i) => `w${i}`).join(' '),
      'word',
      '文本有 9000 个不同的词元；词表最多 8192 个编号：请按字符，或用更短的文本。',
    ],
  ];
  for (const [text, chosen, zh, en] of cases) {
    const decoded = typeof text === 'string' ? text : new TextDecoder().decode(text);
    const level = chosen === 'auto' ? proposeLevel(decoded).level : chosen;
    let failure = null;
    try {
      buildTextTrainer(engine, { text, level, knobs: TEXT_KNOBS, name: 'your text' }, () => {}).trainer.dispose();
    } catch (error) {
      failure = textRefusal(error.message);
    }
    assert.ok(failure, `refused: ${zh}`);
    assert.equal(failureText(strings('zh'), failure), zh);
    if (en) assert.equal(failureText(strings('en'), failure), en);
  }
  // A file past the limit is refused by its size before it is read (own-text.js), worded so.
  const limit = engine.corpusLimits.maxTextBytes;
  const size = 200 * 1024 * 1024;
  const args = ['big.txt', (size / 1e6).toFixed(1), limit / 2 ** 20, limit];
  assert.match(
    failureText(strings('zh'), { kind: 'fileTooLarge', args }),
    /^big\.txt 有 209\.7 MB；上限是 16 MiB（16777216 字节）/,
  );
  assert.doesNotMatch(failureText(strings('zh'), { kind: 'fileTooLarge', args }), /[a-z]{4,}/);
});
