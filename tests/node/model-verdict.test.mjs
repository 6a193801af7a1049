// One verdict per head in the model view's grid (web/src/models/grid.js's roleTexts): the stored
// roles (two within 10% of each other both named), × chance under the head and the
// position-matched figure in its title, its score on the typed text or, with no keys there, a
// sentence a learner can read, in prose words for the English model; and greedy continue's loop
// check (web/src/models/next.js's repeatedTail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roleTexts } from '../../web/src/models/grid.js';
import { repeatedTail } from '../../web/src/models/next.js';
import { modelStrings } from '../../web/src/models/i18n.js';

const en = modelStrings('en');
const zh = modelStrings('zh');
const stored = (roles, scores) => ({ roles, positional: ['previous'], scores });

test('two roles within the margin are both named, with both figures; previous has no matched comparison', () => {
  const head = stored(['lineStart', 'previous'], {
    lineStart: { score: 0.226, chance: 0.042, ratio: 5.4, matchedRatio: 2.72 },
    previous: { score: 0.306, chance: 0.059, ratio: 5.1, matchedRatio: 1 },
  });
  const typed = { lineStart: { score: 0.31 }, previous: { score: 0.12 } };
  const t = roleTexts(en, head, typed, false);
  // One of them without keys: its reason in its place.
  assert.equal(
    roleTexts(en, head, { lineStart: null, previous: { score: 0.31 } }, false).here,
    'your text: no ， or 。 yet / 0.31',
  );
  assert.equal(t.name, 'line start / previous token');
  assert.equal(t.ratio, '5.4× / 5.1× chance');
  assert.equal(t.here, 'your text: 0.31 / 0.12');
  assert.match(t.matched, /^2\.7× what it puts on any token at the same distance back \(position-matched\)/);
  assert.match(t.matched, /previous token is a distance: no position-matched comparison/);
  const z = roleTexts(zh, head, typed, false);
  assert.equal(z.name, '本句开头的标点 / 前一个词元');
  for (const text of Object.values(z)) assert.doesNotMatch(text, /[A-Za-z]/, text);
});

test('a role without keys on the typed text says why, in the model’s words and both languages', () => {
  const head = stored(['lineStart'], { lineStart: { score: 0.27, chance: 0.03, ratio: 8.3, matchedRatio: 6.3 } });
  const cat = roleTexts(en, head, { lineStart: null }, false);
  assert.equal(cat.here, 'your text: no ， or 。 yet');
  assert.doesNotMatch(cat.here, /keys/);
  const prose = roleTexts(en, head, { lineStart: null }, true);
  assert.equal(prose.name, 'sentence start (the full stop before)');
  assert.equal(prose.here, 'your text: no full stop yet');
  assert.doesNotMatch(prose.name + prose.here, /line/);
  assert.match(roleTexts(zh, head, { lineStart: null }, true).name, /句子开头/);
  // Part of speech: no tags on typed text, said without the word "tags".
  const verb = stored(['verbNoun'], { verbNoun: { score: 0.29, chance: 0.05, ratio: 5.9, matchedRatio: 2.3 } });
  const v = roleTexts(en, verb, {}, true);
  assert.match(v.here, /nouns from its verbs/);
  assert.doesNotMatch(v.here, /part-of-speech|tags/);
  for (const role of ['lineStart', 'couplet', 'rhyme', 'duplicate', 'induction', 'first']) {
    for (const prose of [false, true]) {
      assert.ok(en.noKeys(role, prose).length < 32, role);
      assert.ok(zh.noKeys(role, prose).length < 16, role);
      assert.doesNotMatch(zh.noKeys(role, prose), /[A-Za-z]/, role);
    }
  }
});

test('a head without a role, broad, and a first-format sidecar (no matched figure)', () => {
  assert.deepEqual(roleTexts(en, stored([], {}), {}, false), {
    name: 'no clear role',
    ratio: '',
    here: '',
    matched: '',
  });
  const broad = roleTexts(en, stored(['broad'], { broad: { score: 0.96, chance: 1, ratio: 0.96 } }), {}, false);
  assert.equal(broad.ratio, 'entropy 96% of uniform');
  const old = roleTexts(en, stored(['lineStart'], { lineStart: { score: 0.7, chance: 0.04, ratio: 16.6 } }), {}, false);
  assert.equal(old.ratio, '16.6× chance');
  assert.equal(old.matched, '');
});

test('greedy continue’s loop: an n-gram twice at the end (n ≥ 2), or one token three times', () => {
  assert.deepEqual(repeatedTail([...'谁知妾有意，妾有妾有']), ['妾', '有']);
  assert.deepEqual(repeatedTail(['the', 'man', 'said', 'the', 'man', 'said']), ['the', 'man', 'said']);
  assert.deepEqual(repeatedTail([...'花花花']), ['花']);
  assert.equal(repeatedTail([...'年年岁岁']), null, 'a doubled character is poetry, not a loop');
  assert.equal(repeatedTail([...'谁知妾有意，妾有情']), null);
  assert.equal(repeatedTail([]), null);
});

test('per-text labels (a model without a sidecar): the ↵ read first is no line of the text', async () => {
  const { previousLinePositions } = await import('../../dist/engine/head_labels.js');
  // 床 sat at offset 0 of the line after the lone ↵, so the sink counted as its "same place".
  assert.deepEqual(previousLinePositions(['\n', ...'床前，疑是']), [-1, -1, -1, -1, 1, 2]);
  assert.deepEqual(previousLinePositions(['a', '\n', 'b', 'c']), [-1, -1, 0, 1], 'a mark later on still counts');
});
