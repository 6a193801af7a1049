// The page's tables agree with everything derived from them: the step table
// (web/src/steps.js STEPS) against the i18n texts, the web component's step names, the URL's
// allowed steps, the heatmap's choice and the stepper's slider in the template; the view
// registry (web/src/views/registry.js) against the template, the URL and the requests; the
// engine options (web/src/engine-options.js) against the fields that recompute a trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './support.mjs';
import { STEPS, STEP_COUNT, STEP_KEYS, stepAt } from '../../web/src/steps.js';
import { LANGUAGES, strings } from '../../web/src/i18n.js';
import { parseField, defaultState } from '../../web/src/state.js';
import { stateFromAttributes } from '../../web/src/attributes.js';
import { heatmapStepFor } from '../../web/src/views/heatmap.js';
import { EXTRAS } from '../../web/src/views/stage-extras.js';
import { explorerMarkup } from '../../web/src/explorer/template.js';
import { engineOptions, MODEL_FIELDS } from '../../web/src/engine-options.js';
import { requestsFor } from '../../web/src/explorer/needs.js';
import { VIEWS, VIEW_KEYS } from '../../web/src/views/registry.js';
import { arithmeticRequests } from '../../web/src/views/arithmetic.js';

const element = (attributes) => ({ getAttribute: (name) => attributes[name] ?? null });

test('steps: one row per key, each with the columns the page reads', () => {
  assert.equal(STEP_COUNT, STEPS.length);
  assert.deepEqual(
    STEP_KEYS,
    STEPS.map((s) => s.key),
  );
  assert.equal(new Set(STEP_KEYS).size, STEP_KEYS.length, 'keys are unique');
  for (const [k, row] of STEPS.entries()) {
    assert.equal(stepAt(k + 1), row);
    assert.ok(['scores', 'scaled', 'masked', 'weights'].includes(row.heatmap), `${row.key}.heatmap`);
    assert.ok(row.extra === null || Object.hasOwn(EXTRAS, row.extra), `${row.key}.extra`);
    assert.ok(row.terms.length > 0 && typeof row.operands === 'function' && typeof row.detail === 'function');
  }
});

test('i18n: both languages have a title, short name and text for every step key, and no other', () => {
  for (const lang of LANGUAGES) {
    const texts = strings(lang).steps;
    assert.deepEqual(Object.keys(texts).sort(), [...STEP_KEYS].sort(), lang);
    for (const key of STEP_KEYS) {
      for (const field of ['title', 'short', 'text']) {
        assert.equal(typeof texts[key][field], 'string', `${lang} ${key}.${field}`);
        assert.ok(texts[key][field].length > 0, `${lang} ${key}.${field}`);
      }
    }
  }
});

test('the URL, the web component, the heatmap and the slider follow the step table', () => {
  const base = defaultState('en');
  assert.equal(parseField('step', '1'), 1);
  assert.equal(parseField('step', String(STEP_COUNT)), STEP_COUNT);
  assert.equal(parseField('step', String(STEP_COUNT + 1)), undefined);
  for (const [k, row] of STEPS.entries()) {
    const { state, notices } = stateFromAttributes(element({ step: row.key }), base);
    assert.deepEqual(notices, []);
    assert.equal(state.step, k + 1, row.key);
    assert.equal(heatmapStepFor(k + 1), row.heatmap);
  }
  assert.deepEqual(stateFromAttributes(element({ step: 'nope' }), base).notices, ['step=nope']);
  const scrubber = explorerMarkup().match(/<input class="scrubber"[^>]*>/)[0];
  assert.match(scrubber, new RegExp(`min="1" max="${STEP_COUNT}"`));
});

test('engine options: exactly the MODEL_FIELDS change them; every other state field does not', () => {
  // A sparse pattern's settings change the options only under their pattern: each field is tried
  // under every mask that takes settings, and counts as changing them if it does under one.
  const bases = ['window', 'dilated', 'longformer', 'bigbird'].map((mask) => ({ ...defaultState('en'), mask }));
  const base = bases[0];
  const tokens = (text, s) => (text ? text.split(' ').map((t) => `${s.tokenization}:${t}`) : []);
  // The explorer tokenizes the sentence and cross-attention's kv sentence the same way.
  const options = (s) => JSON.stringify(engineOptions(s, tokens(s.sentence, s), tokens(s.kv, s)));
  // A different value for each field of the state (a valid one, not checked by the engine here).
  const other = (field, v) =>
    typeof v === 'boolean' ? !v : typeof v === 'number' ? v + 1 : v === null ? { i: 0 } : `${v} x`;
  for (const field of Object.keys(base)) {
    const changes = bases.some((b) => options({ ...b, [field]: other(field, b[field]) }) !== options(b));
    assert.equal(changes, MODEL_FIELDS.includes(field), field);
  }
  for (const field of MODEL_FIELDS) assert.ok(Object.hasOwn(base, field), field);
});

test('views: the registry drives the template’s tabs and panels, the URL’s views and the requests', () => {
  const markup = explorerMarkup();
  const tabs = [...markup.matchAll(/role="tab"[^>]*data-view="([^"]+)"/g)].map((m) => m[1]);
  const panels = [...markup.matchAll(/role="tabpanel"[^>]*data-panel="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(tabs, VIEW_KEYS);
  assert.deepEqual(panels, VIEW_KEYS);
  const base = defaultState('en');
  for (const key of VIEW_KEYS) {
    const view = VIEWS[key];
    assert.equal(parseField('view', key, VIEW_KEYS), key);
    assert.equal(parseField('view', key), undefined, 'without the allowed views no view is read');
    assert.ok(markup.includes(`data-role="${view.role}"`), `${key}: its element is in its panel`);
    for (const lang of LANGUAGES) assert.equal(typeof strings(lang)[`view.${key}`], 'string', `${lang} view.${key}`);
    // What the page loads for the view is what the view asks for, after the stage's own.
    const sizes = { heads: 2, nQuery: 5, nKey: 5, dK: 4 };
    const state = { ...base, view: key };
    const own = view.requests({ trace: sizes, state, head: 0, heads: [0, 1], query: 0 });
    assert.ok(own.length > 0, key);
    assert.deepEqual(requestsFor(sizes, state).slice(-own.length), own, key);
  }
  assert.equal(parseField('view', 'nope', VIEW_KEYS), undefined);
  assert.equal(parseField('view', 'toString', VIEW_KEYS), undefined);
});

test('views: the explorer reads a view’s traits from its descriptor, never by comparing its key', () => {
  // A view added later is its module and its registry line: no explorer module names one.
  const folder = path.join(root, 'web/src/explorer');
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(path.join(folder, file), 'utf8');
    assert.doesNotMatch(code, /\bview\s*[!=]==?\s*['"`]/, `explorer/${file} compares a view to a key`);
  }
  for (const key of VIEW_KEYS) {
    const { headLegend } = VIEWS[key];
    assert.ok(headLegend === undefined || typeof headLegend === 'boolean', `${key}.headLegend`);
  }
  assert.equal(VIEWS.links.headLegend, true, 'the links are coloured by head: their figure names the heads');
});

test('a picked cell’s arithmetic is loaded where its panel is drawn: under the stage always, in a view while it is open', () => {
  const sizes = { heads: 2, nQuery: 5, nKey: 5, dK: 4, dModel: 8 };
  const base = defaultState('en');
  // headOutput reads the whole of vHead: loaded for the matrices view's panel only while it is open.
  const cell = { name: 'headOutput', head: 1, i: 2, j: 3 };
  const loads = (state) => requestsFor(sizes, state).some((r) => r.name === 'vHead' && r.head === 1);
  assert.ok(!loads(base));
  assert.ok(loads({ ...base, cell }), 'the stage’s (a cell that names no view)');
  assert.ok(loads({ ...base, cell: { ...cell, view: 'stage' } }), 'the stage’s, in any view');
  assert.ok(loads({ ...base, view: 'matrices', cell: { ...cell, view: 'matrices' } }), 'the matrices view’s');
  assert.ok(
    !loads({ ...base, view: 'links', cell: { ...cell, view: 'matrices' } }),
    'the matrices view’s, another open',
  );
});

test('a picked cell that is no cell of the trace loads nothing and shows no panel, whatever the store was given', () => {
  // The store takes anything (window.attentionExplorer.store): a negative, fractional or string
  // index showed a panel of undefined numbers, and a head a step does not have (NaN, or 1 for Q,
  // which is not per head) made the engine refuse the whole load.
  const sizes = { heads: 2, nQuery: 5, nKey: 5, dK: 4, dModel: 8 };
  const good = [
    { name: 'q', head: 0, i: 4, j: 7 },
    { name: 'qHead', head: 1, i: 0, j: 3 },
    { name: 'weights', head: 1, i: 4, j: 4 },
    { name: 'concat', head: 0, i: 4, j: 7 },
  ];
  for (const cell of good) assert.ok(arithmeticRequests(cell, sizes).length > 0, JSON.stringify(cell));
  const bad = [
    { name: 'q', head: 0, i: -1, j: 0 },
    { name: 'q', head: 0, i: 2.5, j: 0 },
    { name: 'q', head: 0, i: '1', j: 0 },
    { name: 'q', head: 0, i: 5, j: 0 },
    { name: 'q', head: 0, i: 0, j: 8 },
    { name: 'q', head: NaN, i: 0, j: 0 },
    { name: 'q', head: 1, i: 0, j: 0 },
    { name: 'wQ', head: 1, i: 0, j: 0 },
    { name: 'qHead', head: 2, i: 0, j: 0 },
    { name: 'weights', head: -1, i: 0, j: 0 },
    { name: '__proto__', head: 0, i: 0, j: 0 },
    { name: 'toString', head: 0, i: 0, j: 0 },
    { head: 0, i: 0, j: 0 },
  ];
  for (const cell of bad) assert.deepEqual(arithmeticRequests(cell, sizes), [], JSON.stringify(cell));
  assert.deepEqual(arithmeticRequests(null, sizes), []);
});
