// The English sample bundled for "measure roles" (web/src/models/roles-sample.js) is the
// beginning of the held-out text it says it is, in whole lines: a copy that drifted would measure
// a GPT-2 checkpoint on text the docs do not describe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROLES_SAMPLE, ROLES_WINDOW } from '../../web/src/models/roles-sample.js';

test('the roles sample is whole lines from the start of models/heldout/brown.txt', () => {
  const heldOut = readFileSync(new URL('../../models/heldout/brown.txt', import.meta.url), 'utf8');
  assert.ok(ROLES_SAMPLE.length > 4000, `only ${ROLES_SAMPLE.length} characters`);
  assert.ok(heldOut.startsWith(ROLES_SAMPLE), 'the sample is not the beginning of brown.txt');
  assert.ok(ROLES_SAMPLE.endsWith('\n'), 'the sample ends inside a line');
  assert.ok(ROLES_WINDOW >= 16 && ROLES_WINDOW <= 1024);
});
