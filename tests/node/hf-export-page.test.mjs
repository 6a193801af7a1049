// The pages' side of "Export for transformers" (web/src/hf-export.js) in node: the .zip a worker
// makes holds, byte for byte, the files `attention-explorer export-hf` writes into a folder (read
// back by Python's zipfile, tests/reference/read_zip.py), the README saying which button wrote
// it; the button's reason to be off is the key the engine's export refuses, for every key; the
// download's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from './support.mjs';
import { GPT2_REFUSALS, TINY } from './training_support.mjs';
import { exportRefusal, hfZip, hfZipName } from '../../web/src/hf-export.js';
import { HF_EXPORT_TEXT, refusalText } from '../../web/src/i18n-hf-export.js';

const engine = await createEngine();
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

test("the worker's .zip of the Tang model holds the CLI's folder, byte for byte but the README's maker", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hf-export-page-'));
  try {
    const model = engine.loadModel(readFileSync(path.join(root, 'models/tang.model')));
    const zip = path.join(dir, 'tang-hf.zip');
    writeFileSync(zip, hfZip(model, 'tang.model', 'the test'));
    model.dispose();
    const cli = spawnSync(
      process.execPath,
      [path.join(root, 'bin/attention-explorer.mjs'), 'export-hf', 'models/tang.model', path.join(dir, 'folder')],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const run = spawnSync('/usr/bin/python3', [path.join(root, 'tests/reference/read_zip.py'), zip], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    assert.equal(run.status, 0, run.stderr);
    const read = JSON.parse(run.stdout);
    assert.equal(read.bad, null);
    const names = ['config.json', 'model.safetensors', 'vocab.txt', 'README.md'];
    assert.deepEqual(readdirSync(path.join(dir, 'folder')).sort(), [...names].sort());
    for (const name of names.slice(0, 3)) {
      assert.equal(read.sha256[name], sha256(readFileSync(path.join(dir, 'folder', name))), name);
    }
    const readme = readFileSync(path.join(dir, 'folder', 'README.md'), 'utf8');
    assert.equal(read.readme, readme.replace('Exported by `attention-explorer export-hf`', 'Exported by the test'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Each switch GPT-2 does not have: the button's reason is the key the export refuses.
const CHANGES = [[{}, null], ...GPT2_REFUSALS];
for (const [change, reason] of CHANGES) {
  test(`exportRefusal of a model of ${JSON.stringify(change)} is ${reason}, as the export itself says`, () => {
    const trainer = engine.createTrainer({ ...TINY, positionalEncoding: 'learned', ...change });
    try {
      assert.equal(exportRefusal(trainer.config), reason);
      let refused = null;
      try {
        hfZip(trainer, 'sort.model', 'the test');
      } catch (error) {
        refused = error.field.replace('model.config.', '');
      }
      assert.equal(refused, reason);
      if (reason) {
        for (const lang of ['en', 'zh']) {
          assert.notEqual(refusalText(HF_EXPORT_TEXT[lang], reason), HF_EXPORT_TEXT[lang].exportHfRefused.other);
        }
      }
    } finally {
      trainer.dispose();
    }
  });
}

test('a GPT-2 checkpoint and no model are off; the download is named after the model file', () => {
  assert.equal(exportRefusal({ source: 'gpt2 checkpoint', layers: 1 }), 'checkpoint');
  assert.equal(exportRefusal(null), 'none');
  assert.equal(hfZipName('tang.model'), 'tang-hf.zip');
  assert.equal(hfZipName('my sort.MODEL'), 'my sort-hf.zip');
  assert.equal(hfZipName('weights.bin'), 'weights.bin-hf.zip');
});
