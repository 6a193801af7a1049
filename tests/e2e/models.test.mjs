// Trained models in the page (issue 12 §3, §4), in Debian's Chromium: the model selector, the
// layers × heads grid, the explorer opened on a layer and head, next token and continue, unknown
// tokens, cut text, a bad file, and the URL; every number compared with the same model run in node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine, root } from '../node/support.mjs';
import { openPage, screenshotDir, startBrowser } from './browser.mjs';

let session;
let engine;
let taskFile;
let taskModel;
const shipped = (key) => path.join(root, 'models', `${key}.model`);
const notBuilt = (key) => !existsSync(shipped(key)) && `models/${key}.model is not in this checkout`;

before(async () => {
  session = await startBrowser();
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
  // A task model, as the training playground or the CLI writes one (the "model file" path).
  const trainer = engine.createTrainer({ task: 'sort', length: 4, alphabet: 5, dModel: 16, layers: 2, heads: 2 });
  trainer.step(20);
  taskFile = path.join(os.tmpdir(), `ae-models-${process.pid}.model`);
  writeFileSync(taskFile, trainer.save());
  trainer.dispose();
  taskModel = engine.loadModel(readFileSync(taskFile));
});
after(async () => {
  taskModel?.dispose();
  await session?.close();
});

const shot = (page, name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());

async function open(query) {
  const opened = await openPage(session.browser, `${session.url}${query}`);
  await opened.page.waitForFunction(() => window.attentionExplorer);
  await idle(opened.page);
  return opened;
}

/** Every grid cell's painted weights: [{ layer, head, label, weights: number[] }]. */
const gridCells = (page) =>
  page.$$eval('.model-cell', (cells) =>
    cells.map((c) => ({
      layer: Number(c.dataset.layer),
      head: Number(c.dataset.head),
      label: c.dataset.label,
      weights: Array.from(c.weights),
    })),
  );

/** The grid equals the node trace of `input` (every layer and head, within float rounding). */
async function assertGridMatches(page, model, input) {
  const trace = model.trace(input, { steps: ['weights'] });
  const cells = await gridCells(page);
  assert.equal(cells.length, trace.layers.length * trace.heads, 'one cell per layer and head');
  for (const cell of cells) {
    const expected = trace.layers[cell.layer].step('weights', cell.head).data;
    assert.equal(cell.weights.length, expected.length);
    cell.weights.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-6, `L${cell.layer} H${cell.head}[${k}]`));
  }
  return trace;
}

/** The explorer's step-7 weights of `head` equal the model's layer `layer` in node. */
async function assertExplorerShows(page, model, input, layer, head) {
  const expected = model.trace(input, { layer, steps: ['weights'] }).step('weights', head).data;
  const shown = await page.evaluate((h) => Array.from(window.attentionExplorer.trace.step('weights', h).data), head);
  assert.equal(shown.length, expected.length);
  shown.forEach((w, k) => assert.ok(Math.abs(w - expected[k]) < 1e-5, `explorer weights[${k}]`));
}

test('a model file opened from disk: grid, explorer on a clicked head and greedy continue equal node', async () => {
  const { page, problems, context } = await open('?s=3 1 4 2 |');
  await page.setInputFiles('[data-role=model-file]', taskFile);
  await page.waitForSelector('.model-cell');
  await idle(page);
  assert.match(await page.textContent('[data-role=model-about]'), /sort/);
  await assertGridMatches(page, taskModel, { text: '3 1 4 2 |' });
  // Click layer 2, head 2: the ten-step explorer shows that head's weights.
  await page.click('.model-cell[data-layer="1"][data-head="1"]');
  await idle(page);
  const state = await page.evaluate(() => window.attentionExplorer.store.get());
  assert.deepEqual([state.layer, state.head, state.step], [1, 1, 7]);
  await assertExplorerShows(page, taskModel, { text: '3 1 4 2 |' }, 1, 1);
  // Next token: the top prediction is node's argmax of the last row of probabilities.
  const probabilities = taskModel.trace({ text: '3 1 4 2 |' }).step('probabilities');
  const last = probabilities.data.slice(-probabilities.cols);
  const best = last.indexOf(Math.max(...last));
  assert.equal(await page.getAttribute('.next-item', 'data-token'), taskModel.vocabulary[best]);
  await page.click('[data-role=continue-greedy]');
  await page.waitForFunction(() => window.attentionExplorer.store.get().sentence !== '3 1 4 2 |');
  await idle(page);
  assert.equal(
    await page.evaluate(() => window.attentionExplorer.store.get().sentence),
    `3 1 4 2 |${taskModel.vocabulary[best]}`,
  );
  // An opened file cannot be linked: the URL leaves the model out.
  assert.equal(new URL(page.url()).searchParams.get('model'), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a file that is not a model gives a clear message and changes nothing', async () => {
  const { page, problems, context } = await open('?s=3 1 4 2 |');
  await page.setInputFiles('[data-role=model-file]', taskFile);
  await page.waitForSelector('.model-cell');
  await idle(page);
  const before = await gridCells(page);
  await page.setInputFiles('[data-role=model-file]', {
    name: 'notes.model',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('this is not a model file'),
  });
  await page.waitForSelector('.model-about.model-error');
  const message = await page.textContent('[data-role=model-about]');
  assert.match(message, /notes\.model is not a model this page can show: .+\. Nothing was changed\./);
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().model), 'file');
  assert.deepEqual(await gridCells(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const [key, text, unknownText, screenshotName] of [
  ['tang', '床前明月光，疑是地上霜。', '床前明月光Ж', 'model-tang'],
  ['brown', 'The jury said it did find that the city', 'The jury said qqqzzx', 'model-brown'],
]) {
  test(
    `${key}: the selector shows its grid, continue and unknown tokens as node computes them`,
    { skip: notBuilt(key) },
    async () => {
      const model = engine.loadModel(readFileSync(shipped(key)));
      try {
        const { page, problems, context } = await open(`?s=${encodeURIComponent(text)}`);
        await page.selectOption('[data-role=model]', key);
        await page.waitForSelector('.model-cell');
        await idle(page);
        assert.equal(new URL(page.url()).searchParams.get('model'), key);
        assert.match(await page.textContent('[data-role=model-about]'), new RegExp(model.config.title ?? key));
        await assertGridMatches(page, model, { text });
        // Labels shown are node's headLabels.
        const labels = model.headLabels({ text });
        for (const cell of await gridCells(page)) {
          const l = labels.find((x) => x.layer === cell.layer && x.head === cell.head);
          assert.equal(cell.label, l?.label ?? '');
        }
        await page.click('[data-role=continue-greedy]');
        await page.waitForFunction((t) => window.attentionExplorer.store.get().sentence !== t, text);
        await idle(page);
        const generated = model.generate({ text }, { count: 1, greedy: true });
        const sentence = await page.evaluate(() => window.attentionExplorer.store.get().sentence);
        assert.ok(sentence.endsWith(generated.tokens[0]), `${sentence} ends with ${generated.tokens[0]}`);
        await shot(page, `${screenshotName}-en`);
        await page.click('.language button[data-lang=zh]');
        await idle(page);
        await shot(page, `${screenshotName}-zh`);
        // An unknown symbol is marked in the chips and explained.
        await page.fill('[data-role=sentence]', unknownText);
        await page.waitForSelector('[data-role=tokens] li.unknown');
        await idle(page);
        assert.equal(
          await page.locator('[data-role=tokens] li.unknown').count(),
          model.encode(unknownText).unknown.filter(Boolean).length,
        );
        assert.ok(await page.isVisible('[data-role=model-notice]'));
        // Text past the context is cut, with a notice.
        const long = text.repeat(Math.ceil((model.contextLength * 2) / text.length));
        await page.fill('[data-role=sentence]', long);
        await page.waitForFunction(() => /\d+/.test(document.querySelector('[data-role=model-notice]').textContent));
        await idle(page);
        assert.equal(await page.locator('[data-role=tokens] li').count(), model.contextLength);
        assert.deepEqual(problems, []);
        await context.close();
      } finally {
        model.dispose();
      }
    },
  );
}

test('URL round trip: model, layer, head and text come back on reload', { skip: notBuilt('tang') }, async () => {
  const model = engine.loadModel(readFileSync(shipped('tang')));
  try {
    const text = '春眠不觉晓';
    const { page, context } = await open(`?model=tang&s=${encodeURIComponent(text)}`);
    await page.waitForSelector('.model-cell');
    const last = model.config.layers - 1;
    await page.click(`.model-cell[data-layer="${last}"][data-head="1"]`);
    await idle(page);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('head') === '2');
    const url = page.url();
    const params = new URL(url).searchParams;
    assert.deepEqual(
      [params.get('model'), params.get('layer'), params.get('head'), params.get('s')],
      ['tang', String(last + 1), '2', text],
    );
    const again = await open(new URL(url).search);
    await again.page.waitForSelector('.model-cell[aria-pressed=true]');
    await idle(again.page);
    const state = await again.page.evaluate(() => window.attentionExplorer.store.get());
    assert.deepEqual([state.model, state.layer, state.head, state.sentence], ['tang', last, 1, text]);
    await assertExplorerShows(again.page, model, { text }, last, 1);
    await again.context.close();
    await context.close();
  } finally {
    model.dispose();
  }
});
