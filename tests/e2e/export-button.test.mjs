// "Export for transformers" (web/src/hf-export.js) in Chromium: in the explorer's model panel
// and in the playground, a click downloads <model>-hf.zip. Each download is read by Python's
// zipfile (tests/reference/read_zip.py, every CRC checked): the four files of the CLI's folder,
// model.safetensors' tensor names and shapes GPT-2's for the model's own shape, config.json a
// GPT2LMHeadModel's with the model's layers, heads, width, vocabulary and context (read from the
// model in node, or from the playground's worker), the safetensors bytes those of the engine's
// own exportCheckpoint. Models GPT-2 cannot express, and a GPT-2 checkpoint, leave the button off
// with the reason as its title and beside it, in both languages. The single offline file exports
// with no request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine, root } from '../node/support.mjs';
import { TINY } from '../node/training_support.mjs';
import { offlineSingleFile, openPage, screenshotDir, useBrowser } from './browser.mjs';

const session = useBrowser();
let engine;
let scratch;
before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
  scratch = mkdtempSync(path.join(tmpdir(), 'export-button-'));
});
after(() => rmSync(scratch, { recursive: true, force: true }));

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());

/** Clicks `button` and reads the download with Python's zipfile: { name, read }. */
async function download(page, button) {
  const [event] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click(button)]);
  const file = path.join(scratch, `${Date.now()}-${event.suggestedFilename()}`);
  await event.saveAs(file);
  const run = spawnSync('/usr/bin/python3', [path.join(root, 'tests/reference/read_zip.py'), file], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  assert.equal(run.status, 0, run.stderr);
  return { name: event.suggestedFilename(), read: JSON.parse(run.stdout) };
}

/** GPT-2's tensors for a model of `shape` ({ layers, dModel, dFF, vocab, context }): name → shape. */
function gpt2Tensors({ layers, dModel: c, dFF, vocab, context }) {
  const f = dFF > 0 ? dFF : 4 * c;
  const out = { 'wte.weight': [vocab, c], 'wpe.weight': [context, c], 'ln_f.weight': [c], 'ln_f.bias': [c] };
  for (let l = 0; l < layers; l++) {
    Object.assign(out, {
      [`h.${l}.ln_1.weight`]: [c],
      [`h.${l}.ln_1.bias`]: [c],
      [`h.${l}.attn.c_attn.weight`]: [c, 3 * c],
      [`h.${l}.attn.c_attn.bias`]: [3 * c],
      [`h.${l}.attn.c_proj.weight`]: [c, c],
      [`h.${l}.attn.c_proj.bias`]: [c],
      [`h.${l}.ln_2.weight`]: [c],
      [`h.${l}.ln_2.bias`]: [c],
      [`h.${l}.mlp.c_fc.weight`]: [c, f],
      [`h.${l}.mlp.c_fc.bias`]: [f],
      [`h.${l}.mlp.c_proj.weight`]: [f, c],
      [`h.${l}.mlp.c_proj.bias`]: [c],
    });
  }
  return out;
}

/** The archive is the exported folder of a model of `shape`, with `vocabulary` in id order. */
function assertExported(read, shape, vocabulary) {
  assert.equal(read.bad, null, 'an entry whose CRC-32 does not match');
  assert.deepEqual(
    read.entries.map((e) => [e.name, e.method]),
    ['config.json', 'model.safetensors', 'vocab.txt', 'README.md'].map((n) => [n, 0]),
  );
  const want = gpt2Tensors(shape);
  assert.deepEqual(Object.keys(read.safetensors).sort(), Object.keys(want).sort(), 'tensor names');
  for (const [name, { dtype, shape: got }] of Object.entries(read.safetensors)) {
    assert.equal(dtype, 'F32', name);
    assert.deepEqual(got, want[name], name);
  }
  const c = read.config;
  assert.deepEqual(c.architectures, ['GPT2LMHeadModel']);
  assert.equal(c.model_type, 'gpt2');
  assert.deepEqual(
    [c.n_layer, c.n_head, c.n_embd, c.vocab_size, c.n_positions],
    [shape.layers, shape.heads, shape.dModel, shape.vocab, shape.context],
  );
  assert.equal(c.tie_word_embeddings, true);
  assert.deepEqual(
    read.vocab,
    vocabulary.map((s) => s.replaceAll('\n', '\\n')),
  );
}

/** A model's shape as the engine reads it from its file. */
function shapeOf(model) {
  const c = model.config;
  return {
    layers: c.layers,
    heads: c.heads,
    dModel: c.dModel,
    dFF: c.dFF,
    vocab: model.vocabulary.length,
    context: model.contextLength,
  };
}

test('explorer: the Tang model exports as tang-hf.zip, a GPT-2 folder of its shape and weights; both languages', async () => {
  const model = engine.loadModel(readFileSync(path.join(root, 'models/tang.model')));
  const shape = shapeOf(model);
  const vocabulary = [...model.vocabulary];
  const weights = sha256(model.exportCheckpoint().safetensors);
  model.dispose();
  const { page, problems, context } = await openPage(session.browser, `${session.url}?model=tang&lang=en&s=床前明月光`);
  try {
    await page.waitForSelector('[data-role=model-export]:not([disabled])', { timeout: 30000 });
    await idle(page);
    assert.equal(await page.textContent('[data-role=model-export]'), 'Export for transformers');
    assert.match(await page.getAttribute('[data-role=model-export]', 'title'), /GPT2LMHeadModel/);
    const { name, read } = await download(page, '[data-role=model-export]');
    assert.equal(name, 'tang-hf.zip');
    assertExported(read, shape, vocabulary);
    assert.equal(read.sha256['model.safetensors'], weights, "the engine's exportCheckpoint bytes");
    assert.match(read.readme, /^# Tang poems \(trained\) as a GPT-2 checkpoint/);
    assert.match(read.readme, /Exported by the explorer’s “Export for transformers” button from `tang\.model`/);
    await page.waitForFunction(() =>
      /Downloaded tang-hf\.zip/.test(document.querySelector('[data-role=model-export-note]').textContent),
    );
    await page.locator('[data-role=models]').screenshot({ path: path.join(screenshotDir, 'export-button-en.png') });
    await page.click('[data-lang=zh]');
    await page.waitForFunction(
      () => document.querySelector('[data-role=model-export]').textContent === '导出给 transformers',
    );
    assert.match(await page.textContent('[data-role=model-export-note]'), /^已下载 tang-hf\.zip/);
    await page.locator('[data-role=models]').screenshot({ path: path.join(screenshotDir, 'export-button-zh.png') });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('explorer: a task model opened from a file (as the playground hands one over) exports under its name', async () => {
  const trainer = engine.createTrainer({ ...TINY, positionalEncoding: 'learned' });
  trainer.step(5);
  const file = path.join(scratch, 'my-sort.model');
  writeFileSync(file, trainer.save());
  trainer.dispose();
  const model = engine.loadModel(readFileSync(file));
  const shape = shapeOf(model);
  const vocabulary = [...model.vocabulary];
  const weights = sha256(model.exportCheckpoint().safetensors);
  model.dispose();
  const { page, problems, context } = await openPage(session.browser, `${session.url}?lang=en&s=3 1 4 2`);
  try {
    await page.waitForFunction(() => window.attentionExplorer);
    await idle(page);
    await page.setInputFiles('[data-role=model-file]', [file]);
    await page.waitForSelector('[data-role=model-export]:not([disabled])', { timeout: 30000 });
    const { name, read } = await download(page, '[data-role=model-export]');
    assert.equal(name, 'my-sort-hf.zip');
    assertExported(read, shape, vocabulary);
    assert.equal(read.sha256['model.safetensors'], weights);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('explorer: a GPT-2 checkpoint opened in the page leaves the button off, saying why', async () => {
  const tiny = path.join(root, 'tests/fixtures/hf-tiny-gpt2');
  const files = ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt'].map((f) => path.join(tiny, f));
  const { page, problems, context } = await openPage(session.browser, `${session.url}?lang=en&s=hello`);
  try {
    await page.waitForFunction(() => window.attentionExplorer);
    await idle(page);
    await page.setInputFiles('[data-role=model-file]', files);
    await page.waitForFunction(() =>
      /GPT-2 checkpoint/.test(document.querySelector('[data-role=model-about]').textContent),
    );
    await idle(page);
    assert.equal(await page.isDisabled('[data-role=model-export]'), true);
    const title = await page.getAttribute('[data-role=model-export]', 'title');
    assert.match(title, /is already a GPT-2 checkpoint/);
    assert.equal(await page.textContent('[data-role=model-export-note]'), title);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('playground: the model being trained exports at its step; an attention-only one is refused in both languages', async () => {
  const { page, problems, context } = await openPage(
    session.browser,
    `${session.url}playground.html?task=sort&lang=en`,
  );
  try {
    await page.waitForSelector('[data-role=step]:not([disabled])', { timeout: 30000 });
    await page.click('[data-role=step]');
    await page.waitForSelector('[data-role=export-hf]:not([disabled])');
    const { name, read } = await download(page, '[data-role=export-hf]');
    assert.equal(name, 'sort-hf.zip');
    // The shape from the worker's own description of the model (info), not from the page's controls.
    const info = await page.evaluate(() => window.attentionPlayground.state.info);
    const shape = {
      layers: info.config.layers,
      heads: info.config.heads,
      dModel: info.config.dModel,
      dFF: info.config.dFF,
      vocab: info.vocabulary.length,
      context: info.contextLength,
    };
    assertExported(read, shape, info.vocabulary);
    assert.match(read.readme, /one token per symbol of the task/);
    await page.waitForFunction(() =>
      /Downloaded sort-hf\.zip/.test(document.querySelector('[data-role=export-hf-note]').textContent),
    );
    await page.locator('.pg-model').screenshot({ path: path.join(screenshotDir, 'export-button-playground-en.png') });

    // Attention only (the page's own switch): off, the reason as its title and under it.
    await page.click('[data-role=attentionOnly]');
    await page.waitForFunction(() => window.attentionPlayground.state.info?.config.attentionOnly === true, null, {
      timeout: 30000,
    });
    await page.waitForSelector('[data-role=export-hf][disabled]');
    const title = await page.getAttribute('[data-role=export-hf]', 'title');
    assert.match(title, /attention only: GPT-2’s blocks also have LayerNorms and a feed-forward layer/);
    assert.equal(await page.textContent('[data-role=export-hf-note]'), title);
    await page.click('[data-lang=zh]');
    await page.waitForFunction(
      () => document.querySelector('[data-role=export-hf]').textContent === '导出给 transformers',
    );
    assert.match(await page.textContent('[data-role=export-hf-note]'), /^这个模型只有注意力/);
    await page.locator('.pg-model').screenshot({ path: path.join(screenshotDir, 'export-button-playground-zh.png') });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the single offline file exports the Tang model and a playground model with no request', async () => {
  const { context, page, attempted, file, problems } = await offlineSingleFile(session.browser, {
    acceptDownloads: true,
  });
  try {
    await page.goto(`${file}?model=tang&lang=en&s=床前明月光`);
    await page.waitForSelector('[data-role=model-export]:not([disabled])', { timeout: 60000 });
    const { name, read } = await download(page, '[data-role=model-export]');
    assert.equal(name, 'tang-hf.zip');
    assert.equal(read.bad, null);
    assert.equal(read.config.n_layer, read.config.n_layer | 0);
    assert.equal(Object.keys(read.safetensors).length, 4 + 12 * read.config.n_layer);
    // Its playground too: the training worker (a blob: URL here) makes the archive.
    await page.goto(`${file}?page=playground&task=sort&lang=en`);
    await page.waitForSelector('[data-role=step]:not([disabled])', { timeout: 60000 });
    await page.click('[data-role=step]');
    await page.waitForSelector('[data-role=export-hf]:not([disabled])');
    const played = await download(page, '[data-role=export-hf]');
    assert.equal(played.name, 'sort-hf.zip');
    assert.equal(played.read.bad, null);
    assert.deepEqual(played.read.config.architectures, ['GPT2LMHeadModel']);
    assert.deepEqual(attempted, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
