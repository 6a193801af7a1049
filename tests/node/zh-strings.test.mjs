// No English left in 中文, read from the string tables themselves: every zh string of the
// explorer (web/src/i18n.js with its numbers, modes and threads texts), the model panel
// (web/src/models/i18n.js), the playground (web/src/playground/i18n.js) and every step's texts
// for each kind of run (web/src/step-texts.js) holds no Latin-script word outside the allow-list
// (tests/node/latin-words.mjs). A string made by a function is read from what it returns. One
// page scan in Chromium (tests/e2e/zh-latin.test.mjs) reads what the page really shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strings } from '../../web/src/i18n.js';
// The views' names and hints are in their descriptors: the registry adds them to the tables.
import '../../web/src/views/registry.js';
import { modelStrings } from '../../web/src/models/i18n.js';
import { strings as playgroundStrings } from '../../web/src/playground/i18n.js';
import { constrain, defaultState } from '../../web/src/state.js';
import { stepTexts } from '../../web/src/step-texts.js';
import { STEP_KEYS } from '../../web/src/steps.js';
import { english } from './latin-words.mjs';

/**
 * A value that stands for any argument: a number (7) where one is computed with, a Chinese word
 * where it is written into a text, and an object or array whose every field and element is such
 * a value again. Its methods (toFixed, replaceAll, toLocaleString) return it too. So a function
 * of the numbers is read with the words around its numbers, which are what this scan is about.
 */
const ANY = new Proxy(function any() {}, {
  get(_, key) {
    if (key === Symbol.toPrimitive) return (hint) => (hint === 'string' ? '词' : 7);
    if (key === Symbol.iterator)
      return function* () {
        yield* [ANY, ANY, ANY];
      };
    if (key === 'length') return 3;
    return ANY;
  },
  apply: () => ANY,
});

/** Every text of a string table: its strings, and what its functions return; keyed by path. */
function texts(table, path = []) {
  const out = [];
  for (const [key, value] of Object.entries(table)) {
    const at = [...path, key];
    if (typeof value === 'string') out.push([at.join('.'), value]);
    else if (typeof value === 'function') out.push(...calls(value, at, table));
    else if (value && typeof value === 'object') out.push(...texts(value, at));
  }
  return out;
}

/**
 * What a table's function returns (a text, or a list of texts), called on the table with ANY for
 * each argument.
 * A function that picks its sentence by a key is called with each key: the playground's refused
 * texts by kind, the engine's threads by the reason for one thread. (ANY is truthy: where a text
 * chooses between two sentences by a flag, the scan reads the first.)
 */
function calls(fn, at, table) {
  const name = at.at(-1);
  const argumentLists = KEYED[name]?.() ?? [[ANY, ANY, ANY, ANY, ANY, ANY]];
  return argumentLists.map((args) => {
    const result = fn.apply(table, args); // a table's method may read the table (roleName)
    const text = Array.isArray(result) ? result.join(' ') : result;
    assert.equal(typeof text, 'string', `${at.join('.')} returns a text`);
    return [`${at.join('.')}(${args.map((a) => (a === ANY ? '…' : a)).join(', ')})`, text];
  });
}
const THREAD_REASONS = [null, 'not-isolated', 'single-file', 'failed', 'component'];
const KEYED = {
  // The playground's corpus names (a model trained in the browser); any other name is a file's own.
  corpusName: () => [['your text'], ['poems'], ['paragraph'], ['names']],
  // A model's line, for each place it was trained: this repository, this browser, a file.
  about: () => ['repo', 'browser', 'file'].map((where) => [ANY, ANY, ANY, ANY, where]),
  textRefused: () =>
    ['empty', 'utf8', 'nul', 'binary', 'one', 'short', 'large', 'vocabulary', 'context', 'spaces'].map((kind) => [
      kind,
      ANY,
    ]),
  engineThreads: () => THREAD_REASONS.map((reason) => [2, reason]),
  // Every role, in the Tang model's words and the English prose model's.
  roleName: () =>
    Object.keys(modelStrings('zh').role).flatMap((role) => [
      [role, false],
      [role, true],
    ]),
  noKeys: () =>
    Object.keys(modelStrings('zh').role).flatMap((role) => [
      [role, false],
      [role, true],
    ]),
  threads: () => THREAD_REASONS.map((reason) => [2, reason]),
  // A GPT-2 checkpoint: read by its own tokenizer or GPT-2's; each reason it is refused for.
  aboutCheckpoint: () => [true, false].map((own) => [ANY, ANY, ANY, own]),
  checkpointRefused: () =>
    ['missing', 'tooLarge', 'tokenizerHalf', 'tokenizerMissing', 'tokenizerNotBundled'].map((reason) => [
      ANY,
      reason,
      ANY,
      ANY,
    ]),
};

/** The Latin words of each text, named by where it is. */
const latin = (entries) => entries.flatMap(([where, text]) => english([text]).map((found) => `${where}: ${found}`));

test('the explorer’s 中文 strings hold no English', () => {
  const zh = texts(strings('zh'));
  assert.ok(zh.length > 150, `${zh.length} texts read`);
  assert.deepEqual(latin(zh), []);
});

test('the model panel’s and the playground’s 中文 strings hold no English', () => {
  const models = texts(modelStrings('zh'));
  const playground = texts(playgroundStrings('zh'));
  assert.ok(models.length > 50 && playground.length > 100, `${models.length} and ${playground.length} texts`);
  assert.deepEqual(latin(models), []);
  assert.deepEqual(latin(playground), []);
});

test('every step’s 中文 title and text, for every kind of run, hold no English', () => {
  const runs = {
    default: {},
    tutorial: { tutorial: true },
    'no PE': { positionalEncoding: false },
    'one head': { heads: 1 },
    'no scaling': { scale: false },
    'no scaling, T = 2': { scale: false, temperature: 2 },
    causal: { mask: 'causal' },
    window: { mask: 'window' },
  };
  const found = [];
  for (const [run, patch] of Object.entries(runs)) {
    const state = constrain({ ...defaultState('zh'), ...patch });
    for (const key of STEP_KEYS) {
      const { title, text } = stepTexts(key, state, strings('zh'));
      found.push(...latin([[`${run} ${key}`, `${title} ${text}`]]));
    }
  }
  assert.deepEqual(found, []);
});

test('the scan finds an English word where there is one', () => {
  // The check itself: an English word in a table, a function's text or a step's text is found.
  assert.deepEqual(latin(texts({ a: { b: '模型 weights' } })), ['a.b: "weights" in "模型 weights"']);
  assert.equal(latin(texts({ f: (n) => `第 ${n} 层 layer` })).length, 1);
  assert.deepEqual(latin(texts({ ok: 'd_model 8，2 个头，np.random.randn，chinese-poetry@2.0.1' })), []);
});
