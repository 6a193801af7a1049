// Every way of embedding documented in docs/embedding.md: the iframe with postMessage resize,
// the web component (two instances, one engine), the single file offline, and exports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine, root } from '../node/support.mjs';
import {
  linkLines,
  linksPainted,
  openPage,
  screenshotDir,
  useBrowser,
  transitionsDone,
  waitUntil,
} from './browser.mjs';
import { defaultState } from '../../web/src/state.js';
import { embedSnippet } from '../../web/src/explorer/share.js';

const session = useBrowser();
let engine;
before(async () => {
  engine = await createEngine();
});

test('an iframe of embed.html fits its content through postMessage and obeys set messages', async () => {
  const base = defaultState('en');
  const state = { ...base, sentence: '猫追着球跑', mask: 'causal', step: 4, view: 'heatmap' };
  const snippet = embedSnippet(state, base, session.url);
  assert.match(snippet, /embed\.html\?.*controls=0/);
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  await page.setContent(`<!doctype html><meta charset="utf-8"><h1>Course page</h1>${snippet}<p id="after">after</p>`);
  const frameElement = page.locator('iframe');
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 20000 });
  const frame = page.frames().find((f) => f.url().includes('embed.html'));
  await frame.waitForSelector('[data-role=heatmaps] g.cell');
  await transitionsDone(frame);
  // The parent is another origin: poll both sides until the resize message has arrived.
  const heights = () =>
    Promise.all([
      frameElement.evaluate((f) => parseFloat(f.style.height)),
      frame.evaluate(() => document.documentElement.scrollHeight),
    ]);
  const [declared, content] = await waitUntil(async () => {
    const [d, c] = await heights();
    return Math.abs(d - c) <= 2 && [d, c];
  }, 'the iframe height fits its content').catch(async (error) => {
    const [d, c] = await heights();
    throw new Error(`${error.message}: iframe height ${d}, content ${c}`);
  });
  assert.ok(
    Math.abs(declared - content) <= 2 && content > 300,
    `iframe height ${declared} fits its content ${content}`,
  );
  assert.equal(await frame.locator('.controls').isHidden(), true, 'controls=0 hides the controls');
  assert.equal(await frame.locator('.step-button[aria-current="step"]').getAttribute('data-step'), '4');

  const post = (message) => frameElement.evaluate((f, m) => f.contentWindow.postMessage(m, '*'), message);
  await post({ type: 'attention-explorer:set', state: { step: 7 } });
  await frame.waitForSelector('.step-button[data-step="7"][aria-current="step"]');
  for (const bad of [
    'alert(1)',
    { type: 'attention-explorer:set', state: { step: 'javascript:alert(1)' } },
    { type: 'attention-explorer:set', state: { step: 3, unknown: 1 } },
    { type: 'attention-explorer:set', state: '{"step":3}' },
    { type: 'other', state: { step: 3 } },
  ]) {
    await post(bad);
  }
  // Messages arrive in order: once this good one shows, every malformed one was handled.
  await post({ type: 'attention-explorer:set', state: { view: 'softmax' } });
  await frame.waitForSelector('[role=tab][data-view=softmax][aria-selected=true]');
  assert.equal(
    await frame.locator('.step-button[aria-current="step"]').getAttribute('data-step'),
    '7',
    'malformed messages change nothing',
  );
  await page.screenshot({ path: path.join(screenshotDir, 'embed-iframe.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

test('two <attention-explorer> elements work independently and share one engine', async () => {
  const { page, context, problems, requests } = await openPage(
    session.browser,
    `${session.url}examples/component.html`,
  );
  await page.waitForFunction(() =>
    [...document.querySelectorAll('attention-explorer')].every((e) => e.shadowRoot?.querySelector('g.cell')),
  );
  const chips = (id) =>
    page
      .locator(`#${id}`)
      .evaluate((e) => [...e.shadowRoot.querySelectorAll('[data-role=tokens] li')].map((li) => li.textContent));
  const currentStep = (id) =>
    page
      .locator(`#${id}`)
      .evaluate((e) => e.shadowRoot.querySelector('.step-button[aria-current="step"]').dataset.step);
  assert.deepEqual(await chips('causal'), ['我', '爱', '吃', '火锅']);
  assert.deepEqual(await chips('full'), ['The', 'cat', 'chased', 'the', 'ball']);
  assert.equal(await currentStep('causal'), '7');
  const causalCells = await page
    .locator('#causal')
    .evaluate((e) =>
      [...e.shadowRoot.querySelectorAll('[data-role=heatmaps] g.cell')].map((c) => [
        Number(c.dataset.i),
        Number(c.dataset.j),
        Number(c.dataset.value),
      ]),
    );
  for (const [i, j, v] of causalCells) if (j > i) assert.equal(v, 0);

  // Attributes are live, and only their own element changes.
  await page.locator('#causal').evaluate((e) => e.setAttribute('step', 'scores'));
  await page.waitForFunction(
    () =>
      document.querySelector('#causal').shadowRoot.querySelector('.step-button[aria-current="step"]').dataset.step ===
      '4',
  );
  assert.equal(await currentStep('full'), '7');
  await page.locator('#full').evaluate((e) => e.setAttribute('sentence', '小明在北京的清华大学读书'));
  await page.waitForFunction(
    () => document.querySelector('#full').shadowRoot.querySelectorAll('[data-role=tokens] li').length === 6,
  );
  assert.deepEqual(await chips('full'), ['小明', '在', '北京', '的', '清华大学', '读书']);
  assert.deepEqual(await chips('causal'), ['我', '爱', '吃', '火锅']);

  assert.equal(requests.filter((u) => u.endsWith('attention-engine.wasm')).length, 1, 'one WASM module for both');
  await page.screenshot({ path: path.join(screenshotDir, 'web-component.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await context.close();
});

/** A page that may load file: URLs only: every other request is refused and recorded. */
async function offlinePage() {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const attempted = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue(); // the file itself
    attempted.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, attempted, problems };
}

test('the single file works from file:// with every network request blocked, the Tang model inside it', async () => {
  const { context, page, attempted, problems } = await offlinePage();
  const file = pathToFileURL(path.join(root, 'dist/attention-explorer.html')).href;
  await page.goto(`${file}?s=我爱吃火锅&lang=zh`);
  await page.waitForSelector('[data-role=stage] g.cell');
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), ['我', '爱', '吃', '火锅']);
  for (let step = 2; step <= 10; step++) {
    await page.click('.transport .next');
    await page.waitForSelector(`.step-button[data-step="${step}"][aria-current="step"]`);
  }
  assert.ok((await page.locator('.katex').count()) > 0, 'formulas render offline');
  await page.screenshot({ path: path.join(screenshotDir, 'single-file.png') });
  // The shipped Tang model is inside it too, each head with its stored role (models/tang.roles.json).
  if (existsSync(path.join(root, 'models/tang.model'))) {
    const tang = engine.loadModel(await readFile(path.join(root, 'models/tang.model')));
    const expected = tang.config.layers * tang.config.heads;
    tang.dispose();
    await page.selectOption('[data-role=model]', 'tang');
    await page.waitForFunction((n) => document.querySelectorAll('.model-cell[data-head-role]').length === n, expected, {
      timeout: 30000,
    });
  }
  assert.deepEqual(attempted, [], 'no network request at all');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the small single file (no trained models, for e-mail) works offline and offers only what it carries', async () => {
  const file = path.join(root, 'dist/attention-explorer-small.html');
  const { size } = await stat(file);
  // A budget against bloat, far under a mail server's limit (10 MB and more): 2.51 MB now, the
  // engine twice in it (the page's and the worker's copy of the WASM, base64).
  assert.ok(size < 2.6e6, `${size} bytes`);
  const { context, page, attempted, problems } = await offlinePage();
  await page.goto(`${pathToFileURL(file).href}?s=猫追着球跑&lang=zh&step=7`);
  await page.waitForSelector('[data-role=stage] g.cell');
  const offered = await page.$$eval('[data-role=model] option', (options) => options.map((o) => o.value));
  // A model file, or a GPT-2 checkpoint's folder (read by its own tokenizer: this file has none of GPT-2's).
  assert.deepEqual(offered, ['random', 'file', 'folder'], 'no trained model is offered where there is none');
  assert.deepEqual(attempted, [], 'no network request at all');
  assert.deepEqual(problems, []);
  await context.close();
});

test('exports: an SVG that is a valid image with the page’s weights, a PNG, CSV and JSON of the trace', async () => {
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?s=猫追着球跑&tok=chars&step=7&mask=causal`,
  );
  await linksPainted(page);
  await transitionsDone(page);
  const download = async (kind) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${kind}"]`)]);
    return readFile(await file.path());
  };
  const svg = (await download('svg')).toString('utf8');
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // The figure draws as SVG lines what the page paints on its canvas (views/link-lines.js).
  const pageWeights = (await linkLines(page)).map((line) => String(line.weight)).sort();
  // Parsed in a blank page of its own, as a file opened from disk (the app's CSP would refuse
  // the figure's <style> while parsing, though the figure is meant to leave the page).
  const blank = await context.newPage();
  const image = await blank.evaluate(async (text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const img = new Image();
    img.src = `data:image/svg+xml;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`;
    await img.decode();
    return {
      parseError: doc.querySelector('parsererror') !== null,
      width: img.naturalWidth,
      weights: [...doc.querySelectorAll('line.link')].map((e) => e.getAttribute('data-weight')).sort(),
      labels: [...doc.querySelectorAll('text.token')].map((e) => e.textContent),
      title: doc.querySelector('.figure-title')?.textContent,
    };
  }, svg);
  assert.equal(image.parseError, false);
  assert.ok(image.width > 300, 'the SVG decodes as an image');
  assert.deepEqual(image.weights, pageWeights, 'the figure shows the same weights as the page');
  assert.deepEqual(image.labels.slice(0, 5), ['猫', '追', '着', '球', '跑']);
  assert.match(image.title, /Links · 7\. Softmax/);
  assert.match(svg, /head 1/, 'the legend names the heads');

  const png = await download('png');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.length > 5000);

  const expected = engine.run({ tokens: ['猫', '追', '着', '球', '跑'], mask: 'causal' });
  const json = JSON.parse((await download('json')).toString('utf8'));
  assert.deepEqual(json.tokens, expected.tokens);
  assert.deepEqual(json.steps.weights[1].data, Array.from(expected.step('weights', 1).data));
  assert.equal(json.steps.masked[0].data[1], null, '−∞ is null in JSON');
  const csvBytes = await download('csv');
  // Excel reads a CSV file as the system's code page unless it starts with a UTF-8 BOM.
  assert.deepEqual([...csvBytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the CSV starts with a UTF-8 BOM');
  const csv = csvBytes.subarray(3).toString('utf8');
  // One long table (docs/embedding.md): a header, then one line per number, heads from 1.
  const lines = csv.trimEnd().split('\n');
  assert.equal(lines[0], 'step,head,row,row_label,col,col_label,value', 'one BOM, then the header');
  assert.match(lines[1], /^x,,0,猫,0,/, 'Chinese labels are UTF-8');
  const weight = lines.find((l) => l.startsWith('weights,2,3,球,1,追,'));
  assert.equal(Number(weight.split(',').at(-1)), expected.step('weights', 1).data[3 * 5 + 1]);
  assert.ok(
    lines.some((l) => /^masked,1,0,猫,4,跑,-inf$/.test(l)),
    '−∞ is -inf, as documented',
  );
  assert.ok(
    lines.every((l) => l.split(',').length === 7),
    'every line has the 7 columns',
  );
  assert.deepEqual(problems, []);
  await context.close();
});
