// The page at its documented limits (2,048 tokens, d_model 512, 16 heads) stays responsive by
// construction: the engine runs in a Web Worker (no WebAssembly on the main thread), and every
// view draws a bounded number of DOM nodes (images and summaries instead of a node per cell,
// bar or link). Not a timing test: bench/page-longtask.mjs measures the longest tasks. Nor does
// it count how many images a view is made of: what it checks is that every head and matrix is
// shown, no node stands for a cell, bar or link, and each view stays under a bound that does
// not grow with the tokens.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../node/support.mjs';
import { openPage, sharedExplorer, useBrowser, transitionsDone } from './browser.mjs';

const WORDS = 'the cat sat on a mat and we ate hot pot in it so you can see how far it goes'.split(' ');
const LONG = Array.from({ length: 2048 }, (_, i) => WORDS[i % WORDS.length]).join(' ');
// Every element of the page, 2,048 chips included: far below one node per cell, bar or link.
const MAX_NODES = 4000;
const MAX_VIEW_NODES = 400;

const session = useBrowser();
// One page at 1280 × 900 for the tests that need no fresh one (nor init scripts of their own),
// brought to each test's link through its store.
const shared = sharedExplorer(session, { viewport: { width: 1280, height: 900 } });
after(() => shared.close());
/** Counts WebAssembly compilations on the page's own thread (the worker has its own globals). */
async function countMainThreadWasm(page) {
  await page.addInitScript(() => {
    window.__wasmOnPage = 0;
    for (const name of ['instantiate', 'instantiateStreaming', 'compile', 'compileStreaming']) {
      const original = WebAssembly[name];
      WebAssembly[name] = function counted(...args) {
        window.__wasmOnPage++;
        return original.apply(this, args);
      };
    }
  });
}

/**
 * Records the most token chips added to the page in one task (a MutationObserver delivers
 * each task's additions together, at its end): 2,048 in one task made the first frame long.
 */
async function countChipsPerTask(page) {
  await page.addInitScript(() => {
    window.__chipsPerTask = 0;
    new MutationObserver((records) => {
      let added = 0;
      for (const r of records) {
        if (r.target.dataset?.role !== 'tokens') continue;
        for (const n of r.addedNodes) if (n.nodeName === 'LI') added++;
      }
      window.__chipsPerTask = Math.max(window.__chipsPerTask, added);
    }).observe(document, { childList: true, subtree: true });
  });
}

async function settled(page) {
  await page.waitForFunction(() => window.attentionExplorer?.trace, null, { timeout: 120_000 });
  await page.evaluate(() => window.attentionExplorer.idle());
}

const nodes = (page, selector) => page.evaluate((s) => document.querySelectorAll(s).length, selector);

test('2,048 tokens, d_model 512, 16 heads: the engine runs in a worker and every view stays a bounded drawing', async () => {
  const query = new URLSearchParams({ s: LONG, d: '512', h: '16', view: 'links', step: '7' });
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await countMainThreadWasm(page);
  await countChipsPerTask(page);
  await page.goto(`${session.url}?${query}`);
  await settled(page);
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace.nQuery), 2048);
  assert.equal(await page.evaluate(() => window.attentionExplorer.engine.inWorker), true, 'the engine is in a worker');
  // One engine worker; the served page is cross-origin isolated, so it runs the threaded engine,
  // whose other threads are workers of its own (engine-mt/), one fewer than the engine's threads.
  const urls = page.workers().map((w) => w.url());
  assert.equal(urls.filter((u) => u.includes('attention-engine-worker')).length, 1, `one engine worker: ${urls}`);
  const threads = await page.evaluate(() => window.attentionExplorer.engine.threads.count);
  assert.equal(urls.length, threads, `the engine worker and its ${threads - 1} threads: ${urls}`);
  // The page's own engine (one instance, for small traces) does not get this one.
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace.onPage), false, 'computed in the worker');
  assert.equal(await page.evaluate(() => window.__wasmOnPage), 1, 'one small engine on the page, not one per trace');

  // The 2,048 chips scroll in a box of their own.
  assert.equal(await nodes(page, '[data-role=tokens].many li.chip'), 2048);
  const box = await page.locator('[data-role=tokens]').boundingBox();
  assert.ok(box.height < 200, `the chips take ${box.height} px`);
  // They come in chunks of 256, one task each after a frame, in a box whose layout is its own.
  assert.ok((await page.evaluate(() => window.__chipsPerTask)) <= 256, 'chips added in one task');
  assert.equal(await page.locator('[data-role=tokens]').evaluate((e) => getComputedStyle(e).contain), 'strict');

  // Links: an image of the strongest links, sparse labels, and a note that says so; no line kept
  // a link (4 million of them), and the view's elements bounded whatever the token count.
  assert.ok((await nodes(page, '[data-role=links] foreignObject.pixels')) > 0, 'the links are drawn');
  assert.equal(await nodes(page, '[data-role=links] foreignObject.link-lines'), 0);
  assert.ok((await nodes(page, '[data-role=links] *')) < MAX_VIEW_NODES);
  assert.match(await page.locator('[data-role=links-note]').textContent(), /one image/);

  // Stage at every step: images, no per-cell nodes.
  for (let step = 1; step <= 10; step++) {
    await page.evaluate((s) => window.attentionExplorer.store.set({ step: s }), step);
    await page.evaluate(() => window.attentionExplorer.idle());
    assert.equal(await nodes(page, '[data-role=stage] g.cell'), 0, `step ${step}: no cell nodes`);
    assert.ok((await nodes(page, '[data-role=stage] *')) < MAX_VIEW_NODES, `step ${step}: stage nodes`);
  }

  // Heatmap of all 16 heads: every head shown, each a picture, no node a cell or a row.
  await page.evaluate(() => window.attentionExplorer.store.set({ view: 'heatmap', step: 7 }));
  await page.evaluate(() => window.attentionExplorer.idle());
  const heads = await page.$$eval('[data-role=heatmaps] g.multiple', (gs) =>
    gs.map((g) => [Number(g.dataset.head), g.querySelector('foreignObject.pixels') !== null]),
  );
  assert.deepEqual(
    heads,
    Array.from({ length: 16 }, (_, h) => [h, true]),
  );
  assert.equal(await nodes(page, '[data-role=heatmaps] g.cell, [data-role=heatmaps] text.row-label'), 0);
  assert.ok((await nodes(page, '[data-role=heatmaps] *')) < MAX_VIEW_NODES);

  // Matrices: each matrix a picture, no node a cell.
  await page.evaluate(() => window.attentionExplorer.store.set({ view: 'matrices' }));
  await page.evaluate(() => window.attentionExplorer.idle());
  const matrices = await page.$$eval('[data-role=matrices] g.operand[data-step]', (gs) =>
    gs.map((g) => ({ step: g.dataset.step, picture: g.querySelector('foreignObject.pixels') !== null })),
  );
  assert.ok(matrices.length > 0 && matrices.every((m) => m.picture), JSON.stringify(matrices));
  assert.equal(await nodes(page, '[data-role=matrices] g.cell'), 0);
  assert.ok((await nodes(page, '[data-role=matrices] *')) < MAX_VIEW_NODES);

  // Softmax: each chart of 2,048 bars is one path; the query is picked with a slider.
  await page.evaluate(() => window.attentionExplorer.store.set({ view: 'softmax', query: 2000 }));
  await page.evaluate(() => window.attentionExplorer.idle());
  const charts = await page.$$eval('.softmax-charts g.chart', (gs) =>
    gs.map((g) => g.querySelectorAll('path.bars').length),
  );
  assert.ok(charts.length > 0 && charts.every((paths) => paths === 1), `paths a chart: ${charts}`);
  assert.equal(await nodes(page, '.softmax-charts rect.bar, .query-picker button'), 0);
  assert.equal(await page.locator('.query-slider input').inputValue(), '2000');
  assert.ok((await nodes(page, '[data-role=softmax] *')) < MAX_VIEW_NODES);
  const bins = await page.locator('.spread rect.bin').count();
  assert.ok(bins > 10, 'the spread histograms of all heads are drawn');

  const total = await nodes(page, '*');
  assert.ok(total < MAX_NODES, `the whole page stays bounded (${total} elements)`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the single file runs its engine in a worker from file:// too', async () => {
  const context = await session.browser.newContext();
  const page = await context.newPage();
  await countMainThreadWasm(page);
  await page.goto(`${pathToFileURL(path.join(root, 'dist/attention-explorer.html')).href}?s=我爱吃火锅`);
  await settled(page);
  assert.equal(await page.evaluate(() => window.attentionExplorer.engine.inWorker), true);
  // The short sentence is computed by the page's own instance, the one compilation on the page.
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace.onPage), true);
  assert.equal(await page.evaluate(() => window.__wasmOnPage), 1);
  await context.close();
});

test('where a page forbids workers, the engine runs on the page and the explorer still works', async () => {
  const { page, context } = await openPage(session.browser, `${session.url}?s=猫追着球跑`);
  // The component on a host page whose CSP has no worker-src blob:.
  await page.setContent(
    `<!doctype html><meta http-equiv="Content-Security-Policy" content="worker-src 'none'">` +
      `<attention-explorer sentence="猫 追 球"></attention-explorer>` +
      `<script type="module" src="${session.url}attention-explorer.js"></script>`,
  );
  const explorer = page.locator('attention-explorer');
  await page.waitForFunction(() => document.querySelector('attention-explorer')?.explorer?.trace, null, {
    timeout: 30_000,
  });
  assert.equal(await explorer.evaluate((el) => el.explorer.engine.inWorker), false);
  await explorer.evaluate((el) => el.explorer.idle());
  assert.equal(
    await explorer.evaluate((el) => el.shadowRoot.querySelectorAll('[data-role=stage] g.cell').length > 0),
    true,
  );
  await context.close();
});

test('the matrices view at 32 tokens draws fewer elements than cells, a keystroke writes a tenth of them, and hover names the engine’s value', async () => {
  // Drawn as 2,400 SVG cells, a keystroke cost ~190 ms. What matters is the work,
  // not which elements do it: the view holds fewer elements than half the cells it shows, and
  // a keystroke writes fewer than a tenth. (Measured at 06cda59, 2026-12-01: 744 elements for 2,432
  // cells; a keystroke wrote 20 when the tokens stayed, 85 when it added one. Drawn as a node a
  // cell, as at 8 tokens, the view holds 1.4 elements a cell and a keystroke adding a token writes
  // 0.4.)
  const { page } = await matricesOf(32);
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace.nQuery), 32);
  const before = await page.evaluate(matricesWork);
  assert.ok(before.cells > 2000, `${before.cells} cells shown`);
  assert.ok(before.elements < before.cells / 2, `${before.elements} elements for ${before.cells} cells`);
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  const last = await page.evaluate(() => window.attentionExplorer.trace.tokens.at(-1));
  // A letter that changes the last word, then one that starts a token (after a space, uncounted).
  for (const [before, key, token] of [
    ['', 's', `${last}s`],
    [' ', 'z', 'z'],
  ]) {
    await page.keyboard.type(before);
    await settled(page);
    await page.evaluate(countWrites, 'matrices');
    await page.keyboard.type(key);
    await page.waitForFunction((t) => window.attentionExplorer.trace?.tokens.at(-1) === t, token);
    await settled(page);
    const { written, cells } = await page.evaluate(matricesWork);
    assert.ok(written < cells / 10, `"${key}" wrote ${written} elements for ${cells} cells`);
  }
  // Hover over W_Q[2, 5] and X[5, 3]: the tooltip gives the engine's value there.
  const weightHover = await hoverPicture(page, 'rect.picture', 'wQ', 'W_Q', 2, 5);
  assert.ok(Math.abs(weightHover.shown - weightHover.value) < 1e-3, `"${weightHover.text}" vs ${weightHover.value}`);
  const hover = await hoverPicture(page, 'foreignObject.pixels', 'x', 'X', 5, 3);
  assert.ok(Math.abs(hover.shown - hover.value) < 1e-3, `tooltip "${hover.text}" vs engine ${hover.value}`);
});

/** In the page: records every element of the svg of `role` written from now on (window.__written). */
function countWrites(role) {
  window.__written = new Set();
  window.__noteWrites = (records) => {
    for (const r of records) {
      window.__written.add(r.target.nodeType === 3 ? r.target.parentNode : r.target);
      for (const added of r.addedNodes) {
        window.__written.add(added);
        for (const inside of added.querySelectorAll?.('*') ?? []) window.__written.add(inside);
      }
    }
  };
  window.__writeObserver = new MutationObserver(window.__noteWrites);
  window.__writeObserver.observe(document.querySelector(`[data-role=${role}]`), {
    subtree: true,
    attributes: true,
    characterData: true,
    childList: true,
  });
}

/**
 * In the page: the matrices view's work, { cells: of the matrices it shows, elements: in its svg,
 * written: elements written since countWrites, which stops counting }.
 */
function matricesWork() {
  const svg = document.querySelector('[data-role=matrices]');
  const { trace } = window.attentionExplorer;
  let cells = 0;
  for (const operand of svg.querySelectorAll('g.operand[data-step]')) {
    const { rows, cols } = trace.step(operand.dataset.step);
    cells += rows * cols;
  }
  if (window.__writeObserver) {
    window.__noteWrites(window.__writeObserver.takeRecords());
    window.__writeObserver.disconnect();
  }
  return { cells, elements: svg.querySelectorAll('*').length, written: window.__written?.size ?? 0 };
}

/**
 * Moves the pointer over cell (i, j) of the matrices view's picture of `step` (its element
 * `holder`, e.g. rect.picture), named `title` in tooltips: { text: the tooltip, shown: the value
 * it names, value: the engine's }.
 */
async function hoverPicture(page, holder, step, title, i, j) {
  const picture = page.locator(`[data-role=matrices] g.operand[data-step="${step}"] ${holder}`);
  await picture.scrollIntoViewIfNeeded();
  const box = await picture.boundingBox();
  const { cols, value } = await page.evaluate(
    ([name, i, j]) => {
      const grid = window.attentionExplorer.trace.step(name);
      return { cols: grid.cols, value: grid.data[i * grid.cols + j] };
    },
    [step, i, j],
  );
  const cell = box.width / cols;
  await page.mouse.move(box.x + (j + 0.5) * cell, box.y + (i + 0.5) * cell);
  const tip = page.locator('.tooltip');
  await tip.waitFor({ state: 'visible' });
  const text = await tip.textContent();
  const shown = Number(text.match(new RegExp(`${title}\\[${i}, ${j}\\] = ([−-]?[\\d.]+)`))?.[1].replace('−', '-'));
  return { text, shown, value };
}

/**
 * The shared page (its context accepts downloads, Playwright's default) settled on the matrices
 * view of an n-word sentence: { page, context (the shared one: not to be closed), problems, sentence }.
 */
async function matricesOf(n) {
  const sentence = Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  const opened = await shared.show(`${new URLSearchParams({ s: sentence, view: 'matrices', lang: 'en' })}`);
  await settled(opened.page);
  return { ...opened, sentence };
}

/** In the page: records every later write to the cells and numbers the svg of `role` holds now (window.__writes). */
function watchCells(role) {
  const svg = document.querySelector(`[data-role=${role}]`);
  window.__writes = [];
  window.__cells = new Set(svg.querySelectorAll('g.cell, g.cell *, text.cell-number'));
  new MutationObserver((records) =>
    window.__writes.push(
      ...records.map((r) => ({
        target: r.target.nodeType === 3 ? r.target.parentNode : r.target,
        name: r.attributeName,
        old: r.type === 'characterData' ? r.oldValue : r.type === 'attributes' ? r.oldValue : null,
        type: r.type,
      })),
    ),
  ).observe(svg, {
    subtree: true,
    attributes: true,
    attributeOldValue: true,
    characterData: true,
    characterDataOldValue: true,
    childList: true,
  });
}

/** In the page: the writes watchCells saw that left a cell as it was, as "tag.class name". */
function staleCellWrites() {
  return window.__writes
    .filter((w) => {
      if (!window.__cells.has(w.target)) return false;
      if (w.type === 'attributes') return w.target.getAttribute(w.name) === w.old;
      if (w.type === 'characterData') return w.target.textContent === w.old;
      return w.target.tagName === 'text' && w.target.textContent === w.old;
    })
    .map((w) => `${w.target.tagName}.${w.target.getAttribute('class')} ${w.name ?? w.type}`);
}

/** In the page: the numbers printed over the matrices view's picture of `step`, row by row. */
function pictureNumbers(step) {
  return [...document.querySelectorAll(`[data-role=matrices] g.operand[data-step="${step}"] text.cell-number`)].map(
    (text) => text.textContent,
  );
}

/**
 * In the page: the pixels of the matrices view's picture of `step` (views/matrix-image.js: an
 * <svg class="cells-image"> showing its part of an image of one pixel a cell), decoded from that image,
 * as { rows, cols, colours: 'rgb(r, g, b)' row by row }.
 */
async function pictureCells(step) {
  const holder = document.querySelector(`[data-role=matrices] g.operand[data-step="${step}"] svg.cells-image`);
  const [, , cols, rows] = holder.getAttribute('viewBox').split(' ').map(Number);
  const shown = holder.querySelector('image');
  const image = new Image();
  image.src = shown.getAttribute('href');
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const data = context.getImageData(-Number(shown.getAttribute('x')), 0, cols, rows).data;
  const colours = [];
  for (let k = 0; k < data.length; k += 4) colours.push(`rgb(${data[k]}, ${data[k + 1]}, ${data[k + 2]})`);
  return { rows, cols, colours };
}

/** In the page: the pixels of a PNG (a screenshot), as 'rgb(r, g, b)' at (x, y). */
async function pngPixels(base64) {
  const image = new Image();
  image.src = `data:image/png;base64,${base64}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data, width } = context.getImageData(0, 0, canvas.width, canvas.height);
  return (x, y) => {
    const k = (Math.floor(y) * width + Math.floor(x)) * 4;
    return `rgb(${data[k]}, ${data[k + 1]}, ${data[k + 2]})`;
  };
}

/**
 * In the page: the colour near the top left of each cell of a picture of rows × cols cells of
 * `pitch` px, from a screenshot of it (`png`, base64, read by pngPixels), and how many of the
 * gaps after each cell are not in the panel's colour.
 */
async function screenCells(pngPixels, [png, pitch, rows, cols]) {
  const at = await pngPixels(png);
  const panel = getComputedStyle(document.querySelector('.views')).backgroundColor;
  const cells = [];
  let gaps = 0;
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) {
      cells.push(at(j * pitch + 3, i * pitch + 3));
      if (at((j + 1) * pitch - 0.5, i * pitch + pitch / 2) !== panel) gaps++;
      if (at(j * pitch + pitch / 2, (i + 1) * pitch - 0.5) !== panel) gaps++;
    }
  return { cells, gaps };
}

test('a keystroke in the matrices view at 8 tokens rewrites no cell or number that kept its value, and leaves the svg its size', async () => {
  // Chromium lays out every SVG text again when its svg changes size (views/fit.js),
  // and a rewrite of what is there already costs style work (dom.js).
  const { context, page } = await matricesOf(8);
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.evaluate(watchCells, 'matrices');
  const viewBox = await page.evaluate(() => document.querySelector('[data-role=matrices]').getAttribute('viewBox'));
  await page.keyboard.type(' z');
  await page.waitForFunction(() => window.attentionExplorer.trace?.tokens.at(-1) === 'z');
  await settled(page);
  const stale = await page.evaluate(staleCellWrites);
  const result = await page.evaluate(() => {
    const svg = document.querySelector('[data-role=matrices]');
    return {
      numbers: svg.querySelectorAll('g.operand[data-step=x] text.cell-number').length,
      weightNumbers: svg.querySelectorAll('g.operand[data-step=wQ] foreignObject.numbers-layer text.cell-number')
        .length,
      // W_Q does not change as one types: nothing in it, its numbers' layer included, is written.
      weightWrites: window.__writes
        .filter((w) => w.target.closest?.('g.operand[data-step=wQ]'))
        .map((w) => `${w.target.tagName}.${w.target.getAttribute('class')} ${w.name ?? w.type}`),
      numbersLayers: svg.querySelectorAll('g.operand[data-step=x] foreignObject.numbers-layer').length,
      viewBox: svg.getAttribute('viewBox'),
      drawn: svg.dataset.viewBox,
      ratio: svg.parentNode.style.aspectRatio,
    };
  });
  assert.equal(result.numbers, 9 * 8, 'X prints the new token’s row');
  const picture = await page.evaluate(pictureCells, 'x');
  assert.deepEqual([picture.rows, picture.cols], [9, 8], 'X’s picture paints the new token’s row');
  assert.equal(result.weightNumbers, 8 * 8, 'W_Q is a picture with its numbers in their own layer');
  assert.deepEqual(result.weightWrites, [], 'writes in W_Q');
  assert.equal(result.numbersLayers, 1, 'X’s numbers are in their own layer');
  assert.deepEqual(stale, [], 'writes that left a cell or a number as it was');
  assert.equal(result.viewBox, viewBox, 'the svg keeps its size');
  // No SVG cell is placed by a transform on its <g> (a transform is a paint property node: every
  // cell was a paint chunk that each frame walked, views/matrix.js). A picture's numbers are
  // centred on their cells: (j, i) times the cell's pitch from the picture's top left.
  const places = await page.evaluate(() => {
    const svg = document.querySelector('[data-role=matrices]');
    const operand = svg.querySelector('g.operand[data-step=x]');
    operand.scrollIntoView({ block: 'center' });
    const holder = operand.querySelector('rect.picture').getBoundingClientRect();
    const { cols } = window.attentionExplorer.trace.step('x');
    const pitch = holder.width / cols;
    return {
      holder: { x: holder.left, y: holder.top, width: holder.width, height: holder.height },
      transformed: svg.querySelectorAll('g.cell[transform]').length,
      pitch,
      misplaced: [...operand.querySelectorAll('text.cell-number')].flatMap((text, k) => {
        const [i, j] = [Math.floor(k / cols), k % cols];
        const box = text.getBoundingClientRect();
        const centre = [box.left + box.width / 2 - holder.left, box.top + box.height / 2 - holder.top];
        const off = (c, at) => Math.abs(c - (at * pitch + (pitch - 1) / 2)) > 2;
        return off(centre[0], j) || off(centre[1], i) ? [`${i},${j}`] : [];
      }),
    };
  });
  assert.equal(places.transformed, 0, 'cells with a transform');
  assert.ok(places.pitch > 10, `the cells' pitch (${places.pitch} px)`);
  assert.deepEqual(places.misplaced, [], 'numbers off their cell’s centre');
  // On screen, each cell shows its pixel's colour (away from its number), and the gaps after it
  // the panel's, as SVG cells look.
  const { holder } = places;
  const shot = await page.screenshot({ clip: { ...holder, width: holder.width + 2, height: holder.height + 2 } });
  const onScreen = await page.evaluate(
    `(${screenCells})(${pngPixels}, ${JSON.stringify([shot.toString('base64'), places.pitch, 9, 8])})`,
  );
  assert.equal(onScreen.gaps, 0, 'gaps not in the panel’s colour');
  // The page shows the drawing's own size, and so does an exported figure, where the picture is
  // vector cells again, each with its number.
  const [, , width, height] = result.drawn.split(' ').map(Number);
  assert.deepEqual(result.ratio.split('/').map(Number), [width, height]);
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="svg"]')]);
  const figure = await readFile(await file.path(), 'utf8');
  // The figure is cropped to what is drawn (explorer/export.js): its height is the drawing's, less
  // at most its empty margins, below the title block (the body's shift down) and 12 px.
  const shift = Number(figure.match(/<g transform="translate\([-\d.]+,([-\d.]+)\)"/)[1]);
  const figureHeight = Number(figure.match(/^<svg[^>]* height="([\d.]+)"/)[1]);
  assert.ok(
    figureHeight <= height + shift + 12 && figureHeight >= 0.97 * height + shift + 12,
    `the figure’s height ${figureHeight}: the drawing's ${height}, cropped, below ${shift} px`,
  );
  const cells = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const x = doc.querySelector('g.operand[data-step=x] g.cells');
    return {
      canvases: doc.querySelectorAll('foreignObject, canvas, image, path.cell-gaps').length,
      rects: [...x.querySelectorAll('rect')].map((r) => [
        r.getAttribute('x'),
        r.getAttribute('y'),
        r.getAttribute('fill'),
      ]),
      numbers: [...x.querySelectorAll('text.cell-number')].map((t) => t.textContent),
    };
  }, figure);
  assert.equal(cells.canvases, 0, 'no canvas or image in the figure');
  assert.equal(cells.rects.length, 9 * 8, 'X’s cells in the figure');
  // The colour scale's colours (the figure's), in the picture's pixels and on screen, row by row.
  const colours = await page.evaluate(
    (fills) =>
      fills.map((css) => {
        const context = document.createElement('canvas').getContext('2d');
        context.fillStyle = css;
        context.fillRect(0, 0, 1, 1);
        const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
        return `rgb(${r}, ${g}, ${b})`;
      }),
    cells.rects.map(([, , fill]) => fill),
  );
  assert.deepEqual(picture.colours, colours, 'X’s pixels');
  assert.deepEqual(onScreen.cells, colours, 'X’s cells on screen');
  assert.ok(
    cells.rects.every(([x, y, fill]) => x && y && /^(rgb|#)/.test(fill)),
    'each placed and coloured',
  );
  assert.deepEqual(cells.numbers, await page.evaluate(pictureNumbers, 'x'), 'X’s numbers in the figure');
  // Opened as a file is (a blank page: the figure's own style sheet), each number sits on its cell's centre.
  const blank = await context.newPage();
  await blank.setContent(`<!doctype html><meta charset="utf-8">${figure}`);
  const offCentre = await blank.evaluate(() => {
    const x = document.querySelector('g.operand[data-step=x] g.cells');
    const rects = [...x.querySelectorAll('rect')];
    return [...x.querySelectorAll('text.cell-number')].flatMap((text, k) => {
      const t = text.getBoundingClientRect();
      const r = rects[k].getBoundingClientRect();
      const dx = t.left + t.width / 2 - (r.left + r.width / 2);
      const dy = t.top + t.height / 2 - (r.top + r.height / 2);
      return Math.hypot(dx, dy) > 2 ? [`${k}: ${dx.toFixed(1)}, ${dy.toFixed(1)}`] : [];
    });
  });
  assert.deepEqual(offCentre, [], 'numbers off their cell’s centre in the figure');
  await blank.close();
});

test('a keystroke shows its token’s cells in the frame it is drawn in, and their numbers after it; idle() and exports wait for them', async () => {
  // The numbers are half of what a keystroke costs the matrices view (frames.js).
  for (const view of ['matrices', 'heatmap']) {
    const sentence = 'the cat sat on a mat and we';
    const query = { s: sentence, view, lang: 'en', step: '7' };
    const { page, context } = await shared.show(`${new URLSearchParams(query)}`);
    await settled(page);
    await page.focus('[data-role=sentence]');
    await page.keyboard.press('End');
    // In the frame that shows the new token (its label), what is drawn of its row.
    await page.evaluate(`window.__pictureCells = ${pictureCells}`);
    await page.evaluate((v) => {
      const svg = document.querySelector(v === 'matrices' ? '[data-role=matrices]' : '[data-role=heatmaps]');
      window.__frame = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (![...svg.querySelectorAll('text.row-label')].some((t) => t.textContent === 'z')) return;
          observer.disconnect();
          requestAnimationFrame(() => {
            if (v === 'matrices') {
              const x = svg.querySelector('g.operand[data-step=x]');
              // (The picture's pixels are decoded after the frame, from the image it showed.)
              const numbers = x.querySelectorAll('text.cell-number').length;
              window.__pictureCells('x').then(({ colours }) => resolve({ painted: colours.length, numbers }));
            } else {
              const row = [...svg.querySelectorAll('g.cell')].filter((c) => c.__data__.i === 8);
              resolve({
                painted: row.filter((c) => c.querySelector('rect').getAttribute('fill')).length,
                numbers: row.filter((c) => c.querySelector('text')).length,
              });
            }
          });
        });
        observer.observe(svg, { subtree: true, childList: true, characterData: true });
      });
    }, view);
    await page.keyboard.type(' z');
    const frame = await page.evaluate(() => window.__frame);
    // The heatmap: 2 heads of a 9 × 9 grid; its new row is 9 cells a head.
    const [row, numbers] = view === 'matrices' ? [9 * 8, 8 * 8] : [2 * 9, 0];
    assert.deepEqual(frame, { painted: row, numbers }, `${view}: the new row’s colours, not yet its numbers`);
    // An export before the numbers are written has them all the same.
    const figure = await page.evaluate(() => window.attentionExplorer.viewSVG());
    const exported = await page.evaluate(
      ([text, v]) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return v === 'matrices'
          ? doc.querySelectorAll('g.operand[data-step=x] text.cell-number').length
          : doc.querySelectorAll('g.cell text').length;
      },
      [figure, view],
    );
    assert.equal(exported, view === 'matrices' ? 9 * 8 : 2 * 9 * 9, `${view}: numbers in a figure`);
    await settled(page);
    // Once idle, the view holds what a page opened on the typed sentence shows.
    const read = (p) =>
      p.evaluate((v) => {
        const svg = document.querySelector(v === 'matrices' ? '[data-role=matrices]' : '[data-role=heatmaps]');
        return [...svg.querySelectorAll('text.cell-number, g.cell text')].map((t) => [
          t.textContent,
          t.style.fill,
          t.getAttribute('x'),
          t.getAttribute('y'),
        ]);
      }, view);
    const typed = await read(page);
    const fresh = await context.newPage();
    await fresh.goto(`${session.url}?${new URLSearchParams({ ...query, s: `${sentence} z` })}`);
    await settled(fresh);
    assert.ok(typed.length > 0);
    assert.deepEqual(typed, await read(fresh), `${view}: the numbers a fresh page prints`);
    await fresh.close();
  }
});

test('a picture of the matrices view is one tab stop: arrow keys move a cursor whose tooltip names the engine’s value', async () => {
  const { page } = await matricesOf(8);
  const holder = page.locator('[data-role=matrices] g.operand[data-step="x"] rect.picture');
  assert.equal(await holder.getAttribute('tabindex'), '0');
  await holder.focus();
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowDown', 'ArrowDown'])
    await page.keyboard.press(key);
  // (1, 0) … (3, 1): right twice, down, left, down twice.
  const value = await page.evaluate(() => {
    const x = window.attentionExplorer.trace.step('x');
    return x.data[3 * x.cols + 1];
  });
  const tip = page.locator('.tooltip');
  await tip.waitFor({ state: 'visible' });
  const text = await tip.textContent();
  const shown = Number(text.match(/X\[3, 1\] = (-?[\d.]+)/)?.[1]);
  assert.ok(Math.abs(shown - value) < 1e-3, `tooltip "${text}" vs engine ${value}`);
  assert.match(await holder.getAttribute('aria-label'), /X\[3, 1\] = /);
  // The cursor sits on that cell; the step stays (the stepper's arrow keys are not the picture's).
  const cursor = await page.evaluate(() => {
    const operand = document.querySelector('[data-role=matrices] g.operand[data-step="x"]');
    const box = operand.querySelector('rect.picture').getBoundingClientRect();
    const c = operand.querySelector('rect.cursor').getBoundingClientRect();
    const pitch = box.width / window.attentionExplorer.trace.step('x').cols;
    return [(c.left + c.width / 2 - box.left) / pitch, (c.top + c.height / 2 - box.top) / pitch];
  });
  assert.deepEqual(cursor.map(Math.floor), [1, 3]);
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().step), 1);
  // A figure exported meanwhile has no cursor (a file has no page style: it would be a black square).
  const figure = await page.evaluate(() => window.attentionExplorer.viewSVG());
  assert.doesNotMatch(figure, /class="cursor"/);
  // Tab goes on to the next picture (PE's): the cursor goes with the focus.
  await page.keyboard.press('Tab');
  assert.equal(await nodes(page, '[data-role=matrices] g.operand[data-step="x"] rect.cursor'), 0);
  assert.equal(await nodes(page, '[data-role=matrices] g.operand[data-step="pe"] rect.cursor'), 1);
  assert.equal(
    await page.evaluate(() => document.activeElement.closest('g.operand')?.dataset.step),
    'pe',
    'the focus is on PE’s picture',
  );
  // The pointer over K[6, 2] (K's picture: another part of the image the pictures share): the
  // tooltip names the engine's value there.
  const hover = await hoverPicture(page, 'rect.picture', 'k', 'K', 6, 2);
  assert.ok(Math.abs(hover.shown - hover.value) < 1e-3, `tooltip "${hover.text}" vs engine ${hover.value}`);
});

/** In the page: each picture of the matrices view as { step, rows, cols, canvas, shown: its grid's pixels }. */
function matrixPictures() {
  const trace = window.attentionExplorer.trace;
  return [...document.querySelectorAll('[data-role=matrices] foreignObject.pixels')].map((holder) => {
    const step = holder.closest('g.operand').dataset.step;
    const { rows, cols } = trace.step(step);
    const canvas = holder.querySelector('canvas');
    const shown = Array.from(canvas.getContext('2d').getImageData(0, 0, cols, rows).data);
    // The part of the canvas that holds the grid, on screen: it must cover the holder exactly.
    const c = canvas.getBoundingClientRect();
    const h = holder.getBoundingClientRect();
    const part = { width: (c.width * cols) / canvas.width, height: (c.height * rows) / canvas.height };
    const fits = Math.abs(part.width - h.width) < 0.5 && Math.abs(part.height - h.height) < 0.5;
    return { step, rows, cols, canvas, shown, fits, left: c.left - h.left, top: c.top - h.top };
  });
}

test('a keystroke at 32 tokens keeps the matrices view’s canvases, showing what a fresh page shows, exported at the grid’s size', async () => {
  // A canvas made anew (or resized) for its grid's new row is a new resource to
  // produce and commit: ~2 ms a keystroke for the nine pictures (a trace's commit 2.8 → 0.7 ms).
  const { context, page, sentence } = await matricesOf(31);
  await page.evaluate(() => {
    window.__canvases = new Set(document.querySelectorAll('[data-role=matrices] foreignObject.pixels canvas'));
  });
  const canvases = await page.evaluate(() => window.__canvases.size);
  assert.ok(canvases > 0, 'the matrices are pictures');
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.keyboard.type(' z');
  await page.waitForFunction(() => window.attentionExplorer.trace?.tokens.at(-1) === 'z');
  await settled(page);
  const typed = await page.evaluate(() =>
    Object.entries(document.querySelectorAll('[data-role=matrices] foreignObject.pixels canvas')).map(([, canvas]) =>
      window.__canvases.has(canvas),
    ),
  );
  assert.deepEqual(typed, Array(canvases).fill(true), 'each picture kept its canvas');
  const pictures = await page.evaluate(`(${matrixPictures})().map(({ canvas, ...p }) => p)`);
  assert.equal(pictures[0].rows, 32);
  for (const p of pictures) {
    assert.ok(p.fits, `${p.step}: the grid's part of the canvas covers the picture`);
    assert.deepEqual([p.left, p.top], [0, 0], `${p.step}: from the picture's top left`);
  }

  // A page opened on the typed sentence draws every picture anew: the same pixels.
  const fresh = await context.newPage();
  await fresh.goto(`${session.url}?${new URLSearchParams({ s: `${sentence} z`, view: 'matrices', lang: 'en' })}`);
  await settled(fresh);
  const drawn = await fresh.evaluate(`(${matrixPictures})().map(({ canvas, ...p }) => p)`);
  assert.deepEqual(
    pictures.map(({ step, rows, cols, shown }) => ({ step, rows, cols, shown })),
    drawn.map(({ step, rows, cols, shown }) => ({ step, rows, cols, shown })),
  );
  await fresh.close();

  // An exported figure's pictures hold the grid and nothing more.
  const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-export="svg"]')]);
  const figure = await readFile(await file.path(), 'utf8');
  const hrefs = [...figure.matchAll(/<image [^>]*href="(data:[^"]+)"/g)].map((m) => m[1]);
  assert.equal(hrefs.length, pictures.length, 'a picture in the figure for each on the page');
  const sizes = await page.evaluate(
    (urls) =>
      Promise.all(
        urls.map(async (url) => {
          const image = new Image();
          image.src = url;
          await image.decode();
          return [image.naturalHeight, image.naturalWidth];
        }),
      ),
    hrefs,
  );
  assert.deepEqual(
    sizes,
    pictures.map((p) => [p.rows, p.cols]),
  );
});

/**
 * A page settled on the links view of an n-word sentence, with its console problems: the shared
 * one, or with `viewport` a page of its own, which `done()` closes.
 */
async function linksOf(n, viewport = null) {
  const sentence = Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  const query = `${new URLSearchParams({ s: sentence, view: 'links', lang: 'en' })}`;
  const opened = viewport
    ? await openPage(session.browser, `${session.url}?${query}`, { viewport })
    : await shared.show(query);
  await settled(opened.page);
  return { ...opened, done: () => (viewport ? opened.context.close() : undefined) };
}

test('a keystroke that adds a row leaves the stage’s and the links view’s svg and canvas their size, and each shows exactly its drawing', async () => {
  // A new viewBox lays out every text and cell of an svg again (views/fit.js): 768
  // stage cells at 32 tokens. The box around each svg shows the drawing's own size, no more.
  const { page, done, problems } = await linksOf(24);
  const sizes = () =>
    page.evaluate(() =>
      ['stage', 'links'].map((role) => {
        const svg = document.querySelector(`[data-role=${role}]`);
        const [, , width, height] = svg.dataset.viewBox.split(' ').map(Number);
        const box = svg.parentNode.getBoundingClientRect();
        // The links' canvas keeps its size too (views/link-lines.js): a resized canvas is a new resource.
        const canvas = svg.querySelector('foreignObject.link-lines canvas');
        (window.__canvases ??= new Set()).add(canvas);
        return {
          role,
          viewBox: svg.getAttribute('viewBox'),
          drawn: [width, height],
          shown: [box.width, box.height],
          canvas: canvas && [canvas.width, canvas.height, window.__canvases.size],
        };
      }),
    );
  const before = await sizes();
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.keyboard.type(' z');
  await page.waitForFunction(() => window.attentionExplorer.trace?.tokens.at(-1) === 'z');
  await settled(page);
  const after = await sizes();
  for (const [k, now] of after.entries()) {
    assert.equal(now.viewBox, before[k].viewBox, `${now.role}: the svg keeps its size`);
    assert.deepEqual(now.canvas, before[k].canvas, `${now.role}: the same canvas, of the same size`);
    assert.ok(now.drawn[1] > before[k].drawn[1], `${now.role}: the drawing grew by the new row`);
    // The box shows the whole drawing at its width and nothing under it (the svg is taller).
    const [width, height] = now.shown;
    const expected = (width * now.drawn[1]) / now.drawn[0];
    assert.ok(Math.abs(height - expected) < 1, `${now.role}: box ${width} × ${height}, drawing ${now.drawn}`);
  }
  assert.deepEqual(problems, []);
  await done();
});

test('typing back and forth across the heatmap’s wrap to a second row of heads leaves its svg its size', async () => {
  // Four heads stand in one row up to 7 tokens and in two from 8 (1280 px), twice
  // the height. With room kept down to half the drawing, deleting token 8 shrank the svg and
  // typing it again grew it: each a new viewBox, which lays out every text of the svg again
  // (6–9 ms with a trained model's 400 numbers, views/fit.js).
  const { page, problems } = await shared.show(
    `${new URLSearchParams({ s: `${WORDS.slice(0, 7).join(' ')} `, view: 'heatmap', h: 4, head: 'all', lang: 'en' })}`,
  );
  await settled(page);
  const size = () =>
    page.evaluate(() => {
      const svg = document.querySelector('[data-role=heatmaps]');
      const [, , width, height] = svg.dataset.viewBox.split(' ').map(Number);
      const box = svg.parentNode.getBoundingClientRect();
      return {
        viewBox: svg.getAttribute('viewBox'),
        drawn: [width, height],
        shown: [box.width, box.height],
        tokens: window.attentionExplorer.trace.tokens.length,
      };
    });
  const typed = async (keys) => {
    for (const key of keys) await page.keyboard.press(key);
    await settled(page);
    return size();
  };
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  const one = await size();
  const two = await typed(['z']);
  const back = await typed(['Backspace']);
  const again = await typed(['z']);
  assert.deepEqual([one.tokens, two.tokens, back.tokens, again.tokens], [7, 8, 7, 8]);
  assert.ok(two.drawn[1] > 1.8 * one.drawn[1], `a second row of heads: ${one.drawn[1]} → ${two.drawn[1]}`);
  assert.equal(back.viewBox, two.viewBox, 'deleting the token keeps the svg its size');
  assert.equal(again.viewBox, two.viewBox, 'typing it again keeps the svg its size');
  // Whatever room the svg keeps, its box shows exactly the drawing.
  for (const now of [one, two, back, again]) {
    const [width, height] = now.shown;
    const expected = (width * now.drawn[1]) / now.drawn[0];
    assert.ok(Math.abs(height - expected) < 1, `box ${width} × ${height}, drawing ${now.drawn}`);
  }
  assert.deepEqual(problems, []);
});

test('a grid drawn as a picture and then as SVG cells again keeps no part of its picture, in every view and the stage', async () => {
  // views/matrix-image.js removePicture skips grids that never held a picture: the flag must
  // follow every way a picture is made (cells with gaps, one pixel a cell, pooled past 256 tokens).
  const { page, problems } = await shared.show('lang=en&step=7&head=all');
  await settled(page);
  const sentence = (n) => Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]).join(' ');
  for (const view of ['matrices', 'heatmap', 'softmax'])
    for (const n of [4, 40, 4, 300, 5, 12, 3]) {
      const mixed = await page.evaluate(
        async ({ view, s }) => {
          window.attentionExplorer.store.set({ view, sentence: s });
          await window.attentionExplorer.idle();
          const picture =
            ':scope > foreignObject.pixels, :scope > svg.cells-image, :scope > path.cell-gaps, :scope > rect.picture, :scope > foreignObject.numbers-layer';
          return [...document.querySelectorAll('g.cells')].filter(
            (g) => g.querySelector(':scope > g.cell') && g.querySelector(picture),
          ).length;
        },
        { view, s: sentence(n) },
      );
      assert.equal(mixed, 0, `${view} at ${n} tokens: grids holding SVG cells and a picture`);
    }
  assert.deepEqual(problems, []);
});

test('the links canvas at 32 tokens, its runs of hairlines stroked as paths, paints the pixels one stroke a line paints', async () => {
  // 1,400 of its 1,800 lines are the faintest hairline, and the runs of them that
  // follow one another are stroked as one path each (views/link-lines.js strokeLines). The
  // reference here strokes each line on its own.
  const { page, done, problems } = await linksOf(32, { width: 1280, height: 3000 });
  await page.waitForFunction(() => {
    const holder = document.querySelector('[data-role=links] foreignObject.link-lines');
    const kept = attentionLinkLines(holder);
    return kept.painted === kept.lines && !kept.deferred;
  });
  const compared = await page.evaluate(() => {
    const holder = document.querySelector('[data-role=links] foreignObject.link-lines');
    const canvas = holder.querySelector('canvas');
    const span = attentionLinkLines(holder).right - attentionLinkLines(holder).left;
    const scale = canvas.width / canvas.clientWidth;
    const reference = document.createElement('canvas');
    [reference.width, reference.height] = [canvas.width, canvas.height];
    const context = reference.getContext('2d');
    context.setTransform(scale, 0, 0, scale, ((canvas.width / scale - span) / 2) * scale, 0);
    context.lineCap = 'round';
    for (const line of attentionLinkLines(holder).lines) {
      context.strokeStyle = line.color;
      context.globalAlpha = line.opacity;
      context.lineWidth = line.width;
      context.beginPath();
      context.moveTo(0, line.y1);
      context.lineTo(span, line.y2);
      context.stroke();
    }
    const read = (c) => c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const [shown, wanted] = [read(canvas), read(reference)];
    let [most, differ, painted] = [0, 0, 0];
    for (let k = 0; k < shown.length; k++) {
      const d = Math.abs(shown[k] - wanted[k]);
      most = Math.max(most, d);
      if (d) differ++;
      if (k % 4 === 3 && wanted[k]) painted++;
    }
    const faintest = attentionLinkLines(holder).lines.filter((l) => l.width === 0.5 && l.opacity === 0.05).length;
    return {
      lines: attentionLinkLines(holder).lines.length,
      faintest,
      most,
      differ,
      painted,
      pixels: shown.length / 4,
    };
  });
  assert.ok(compared.faintest > compared.lines / 2, JSON.stringify(compared));
  assert.ok(compared.painted > compared.pixels / 4, `the reference paints ${compared.painted} pixels`);
  // The same pixels.
  assert.equal(compared.differ, 0, JSON.stringify(compared));
  assert.deepEqual(
    problems.filter((p) => !p.includes('willReadFrequently')),
    [],
  );
  await done();
});

test('the links canvas is painted inside the keystroke on screen, and after the frame, in idle time, off screen', async () => {
  // Without a GPU a canvas is rasterized on the page's thread (~7 ms at 32 tokens),
  // and at 1280 × 900 the views lie below the stage (views/link-lines.js offScreen).
  const { page, done, problems } = await linksOf(24);
  const holder = '[data-role=links] foreignObject.link-lines';
  /** Types `letter`; what the canvas held when the page's own listener had run, and later. */
  const type = async (letter) => {
    await page.evaluate((holder) => {
      const input = document.querySelector('[data-role=sentence]');
      // Added after the page's listener on the same element: runs after it, in the same task.
      input.addEventListener(
        'input',
        () => {
          const node = document.querySelector(holder);
          window.__inTask = {
            typed: attentionLinkLines(node).lines.some((l) => l.j === attentionLinkLines(node).lines.at(-1).j),
            painted: attentionLinkLines(node).painted === attentionLinkLines(node).lines,
          };
        },
        { once: true },
      );
    }, holder);
    await page.keyboard.type(letter);
    await settled(page);
    const inTask = await page.evaluate(() => window.__inTask);
    await page.waitForFunction((holder) => {
      const node = document.querySelector(holder);
      const kept = attentionLinkLines(node);
      return kept.painted === kept.lines && !kept.deferred;
    }, holder);
    return inTask;
  };
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.waitForFunction((holder) => attentionLinkLines(document.querySelector(holder)).offScreen === true, holder);
  const below = await type(' z');
  assert.deepEqual(below, { typed: true, painted: false }, 'off screen: the lines are kept, painted later');
  // Its pixels are the lines': the strongest line's middle is painted.
  const painted = async () =>
    page.evaluate((holder) => {
      const node = document.querySelector(holder);
      const canvas = node.querySelector('canvas');
      const line = attentionLinkLines(node).lines.reduce((a, b) => (b.weight > a.weight ? b : a));
      const scale = canvas.width / canvas.clientWidth;
      const x = Math.round((canvas.clientWidth / 2) * scale);
      const y = Math.round(((line.y1 + line.y2) / 2) * scale);
      return canvas.getContext('2d').getImageData(x, y, 1, 1).data[3] > 0;
    }, holder);
  assert.ok(await painted(), 'the deferred paint drew the lines');
  await page.locator(holder).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (holder) => attentionLinkLines(document.querySelector(holder)).offScreen === false,
    holder,
  );
  await page.focus('[data-role=sentence]');
  const onScreen = await type('x');
  assert.deepEqual(onScreen, { typed: true, painted: true }, 'on screen: painted in the keystroke');
  assert.ok(await painted());
  // (Chromium's advice on this test's own two readbacks of the canvas is not a problem.)
  assert.deepEqual(
    problems.filter((p) => !p.includes('willReadFrequently')),
    [],
  );
  await done();
});

test('after an animated step change, the next keystroke rewrites no stage cell with what it holds', async () => {
  // A step change glides the stage's colours (matrix.js); once there, the fills are what a draw
  // would write, and the keystroke after it must not write them again (a style recalc each).
  const { page, done, problems } = await linksOf(8);
  await page.evaluate(() => window.attentionExplorer.store.set({ step: 4 }));
  await settled(page);
  await transitionsDone(page);
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.evaluate(watchCells, 'stage');
  await page.keyboard.type(' z');
  await page.waitForFunction(() => window.attentionExplorer.trace?.tokens.at(-1) === 'z');
  await settled(page);
  const stale = await page.evaluate(staleCellWrites);
  const fills = await page.evaluate(
    () => document.querySelectorAll('[data-role=stage] g.operand[data-step=scores] g.cell rect[fill]').length,
  );
  assert.equal(fills, 9 * 9, 'the scores have the new token’s row and column');
  assert.deepEqual([...new Set(stale)], [], 'writes that left a stage cell as it was');
  assert.deepEqual(problems, []);
  await done();
});
