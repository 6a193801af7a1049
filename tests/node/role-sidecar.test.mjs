// A shipped model's head-role sidecar is checked before the bundle carries it to the page
// (build-scripts/role-sidecar.mjs): forged ones — a head too many or too few, a NaN score, a
// role name with markup or one the page has no words for — are refused naming the file and the
// key, where the page used to show "NaN× chance" or throw while drawing the model panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { modelShape, readRoleSidecar } from '../../build-scripts/role-sidecar.mjs';
import { ROLE_NAMES } from '../../cpp/bindings/js/catalog.js';
import { modelStrings } from '../../web/src/models/i18n.js';
import { ROLES } from '../../web/src/catalog.js';
import { root } from './support.mjs';

const FILE = 'models/tang.roles.json';
const text = readFileSync(path.join(root, FILE), 'utf8');
const shape = modelShape(readFileSync(path.join(root, 'models/tang.model')));

/** The shipped sidecar with `edit(sidecar)` applied, as text. */
const forged = (edit) => {
  const sidecar = JSON.parse(text);
  edit(sidecar);
  return JSON.stringify(sidecar);
};

test('the shipped sidecars pass, and every role they may name is one the page has words for', () => {
  for (const name of ['tang', 'brown']) {
    const model = modelShape(readFileSync(path.join(root, `models/${name}.model`)));
    const page = readRoleSidecar(readFileSync(path.join(root, `models/${name}.roles.json`), 'utf8'), model, name);
    assert.equal(page.heads.length, model.layers * model.heads);
  }
  for (const lang of ['en', 'zh'])
    assert.deepEqual(Object.keys(modelStrings(lang).role).sort(), [...ROLE_NAMES].sort());
});

test('the roles a sidecar lists are the engine’s catalog rows: the same names, order and positional flags', () => {
  for (const name of ['tang', 'brown']) {
    const sidecar = JSON.parse(readFileSync(path.join(root, `models/${name}.roles.json`), 'utf8'));
    assert.deepEqual(
      sidecar.roles.map((r) => ({ name: r.name, positional: r.positional })),
      ROLES.map((r) => ({ name: r.name, positional: r.positional })),
      name,
    );
  }
});

test('forged sidecars are refused, naming the file and the key', () => {
  const cases = [
    [
      (s) => s.heads.pop(),
      /^Error: models\/tang\.roles\.json: heads \(an array\) must have one entry per head of the model: 4 layers × 4 heads = 16, not 15$/,
    ],
    [(s) => s.heads.push({ ...s.heads[0] }), /not 17$/],
    [(s) => (s.heads[1] = { ...s.heads[0] }), /heads\[1\] \("layer 0, head 0"\) appears twice/],
    [(s) => (s.heads[2].layer = 4), /heads\[2\]\.layer \(4\) must be an integer from 0 to 3/],
    [(s) => (s.heads[2].head = '1'), /heads\[2\]\.head \("1"\) must be an integer/],
    [(s) => (s.heads[0].role = '<b>x</b>'), /heads\[0\]\.role \("<b>x<\/b>"\) must be null or one of previous, /],
    [(s) => (s.heads[0].role = 'constructor'), /heads\[0\]\.role \("constructor"\)/],
    [
      (s) => (s.heads[0].scores.previous.ratio = '12'),
      /heads\[0\]\.scores\.previous\.ratio \("12"\) must be a finite number/,
    ],
    [(s) => (s.heads[0].scores.previous.score = -1), /heads\[0\]\.scores\.previous\.score \(-1\)/],
    [
      (s) => (s.heads[0].scores['<img src=x>'] = { score: 1, chance: 1, ratio: 1 }),
      /heads\[0\]\.scores \("<img src=x>"\) has a role/,
    ],
    [(s) => delete s.heads[0].scores[s.heads[0].role], /heads\[0\]\.scores\.lineStart \(undefined\) must be there/],
    [(s) => (s.roleRatio = null), /roleRatio \(null\) must be a finite number/],
    [(s) => (s.heads = {}), /heads \(an object\) must be an array/],
  ];
  for (const [edit, message] of cases) {
    assert.throws(() => readRoleSidecar(forged(edit), shape, FILE), message, message.source);
  }
  // NaN as Python's json writes it is not JSON: the file is named.
  const nan = text.replace(/"ratio": [\d.]+/, '"ratio": NaN');
  assert.throws(
    () => readRoleSidecar(nan, shape, FILE),
    /^Error: models\/tang\.roles\.json is not JSON \(NaN and Infinity/,
  );
  assert.throws(() => readRoleSidecar('[]', shape, FILE), /the sidecar \(an array\) must be an object/);
});
