// docs/testing.md keeps one line per test file: a file added without its line, or a line left
// for a file that is gone, makes the guide a newcomer reads untrue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './support.mjs';

const TEST_FILE = /^(.+_test\.cpp|.+\.test\.mjs)$/;
const guide = readFileSync(path.join(root, 'docs/testing.md'), 'utf8');
const listed = new Set([...guide.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]));

test('docs/testing.md has a line for every test file, and none for a file that is gone', () => {
  const files = ['cpp', 'node', 'e2e'].flatMap((dir) =>
    readdirSync(path.join(root, 'tests', dir)).filter((name) => TEST_FILE.test(name)),
  );
  assert.ok(files.length > 100, `found ${files.length} test files`);
  assert.deepEqual(
    files.filter((name) => !listed.has(name)),
    [],
    'test files without a line in the inventory',
  );
  assert.deepEqual(
    [...listed].filter((name) => TEST_FILE.test(name) && !files.includes(name)),
    [],
    'inventory lines for files that do not exist',
  );
});
