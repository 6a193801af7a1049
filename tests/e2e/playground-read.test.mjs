// Reading the playground in Debian's Chromium, real DOM: every heatmap is labelled with the
// followed example's tokens (queries down, keys across); pointing at a cell, or walking the cells
// with the arrow keys, shows the weight of the snapshot drawn; the accuracy chart marks the step
// where held-out exact match first reached 95% (the held-out curve's own data; which step that is
// and its sentences are tests/node/playground.test.mjs's) and the button beside the mark stops
// training. Screenshots of the heatmaps and the mark, both languages.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openPage, screenshotDir, useBrowser } from './browser.mjs';

const session = useBrowser();
/** A screenshot of one part of the page: tests/e2e/screenshots/playground-<name>.png. */
const shot = (locator, name) => locator.screenshot({ path: path.join(screenshotDir, `playground-${name}.png`) });

// The file's tests share one page of the copy task (opening one is the slow part): the first reads
// its untrained heatmaps, the second trains it, the third changes the task.
let shared = null;
after(() => shared?.context.close());
async function openPlayground(lang) {
  if (!shared) {
    shared = await openPage(session.browser, `${session.url}playground.html?task=copy&lang=${lang}`);
    await shared.page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
    await shared.page.waitForSelector('[data-role=heatmap-grid] canvas');
  }
  const { page } = shared;
  await page.click(`[data-lang=${lang}]`);
  await page.waitForFunction(
    (title) => document.querySelector('h1').textContent === title,
    lang === 'zh' ? '注意力训练场' : 'Attention Playground',
  );
  return shared;
}

/** The newest snapshot as plain data. */
const newest = (page) =>
  page.evaluate(() => {
    const s = window.attentionPlayground.history.snapshots.at(-1).snapshot;
    return { tokens: s.tokens, heads: s.heads, T: s.length, weights: Array.from(s.weights) };
  });

const weightOf = (snap, l, h, q, k) => snap.weights[((l * snap.heads + h) * snap.T + q) * snap.T + k];

test('heatmaps carry the example’s tokens on rows and columns; hover and arrow keys read the snapshot’s weight', async () => {
  const { page, problems } = await openPlayground('en');
  const snap = await newest(page);
  const figures = page.locator('[data-role=heatmap-grid] figure');
  assert.equal(await figures.count(), 4, 'the copy preset: 2 layers × 2 heads');
  for (let i = 0; i < 4; i++) {
    const rows = await figures.nth(i).locator('.pg-rows span').allTextContents();
    const cols = await figures.nth(i).locator('.pg-cols span').allTextContents();
    assert.deepEqual(rows, snap.tokens, `figure ${i}: one row label per query, the example's tokens in order`);
    assert.deepEqual(cols, snap.tokens, `figure ${i}: one column label per key`);
  }
  // Each row label sits level with its row of cells, each column label above its column.
  const canvas = figures.nth(3).locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const cell = (box.width - 2) / snap.T; // the canvas has a 1 px border outside its cells
  assert.equal(cell, Number(await figures.nth(3).evaluate((f) => parseFloat(f.style.getPropertyValue('--cell')))));
  const rowBoxes = await figures
    .nth(3)
    .locator('.pg-rows span')
    .evaluateAll((s) => s.map((e) => e.getBoundingClientRect().y));
  const colBoxes = await figures
    .nth(3)
    .locator('.pg-cols span')
    .evaluateAll((s) => s.map((e) => e.getBoundingClientRect().x));
  rowBoxes.forEach((y, q) => assert.ok(Math.abs(y - (box.y + 1 + q * cell)) <= 1.5, `row ${q} at ${y}`));
  colBoxes.forEach((x, k) => assert.ok(Math.abs(x - (box.x + 1 + k * cell)) <= 1.5, `column ${k} at ${x}`));

  // Pointing at cell (query 11, key 3) of layer 2, head 2 shows that cell's weight.
  const [q, k] = [11, 3];
  await page.mouse.move(box.x + 1 + (k + 0.5) * cell, box.y + 1 + (q + 0.5) * cell);
  const readout = figures.nth(3).locator('.pg-readout');
  await page.waitForFunction(() => document.querySelectorAll('.pg-readout')[3]?.textContent !== '');
  const want = weightOf(snap, 1, 1, q, k);
  assert.equal(await readout.textContent(), `${snap.tokens[q]} → ${snap.tokens[k]}: ${want.toFixed(3)}`);
  assert.equal(Number(await readout.getAttribute('data-weight')), want);
  assert.deepEqual(
    await figures.nth(3).locator('.pg-rows .pg-on').allTextContents(),
    [snap.tokens[q]],
    'its row marked',
  );
  assert.deepEqual(await figures.nth(3).locator('.pg-cols .pg-on').allTextContents(), [snap.tokens[k]], 'its column');
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.querySelectorAll('.pg-readout')[3]?.textContent === '');

  // The keyboard: Tab reaches the first heatmap (layer 1, head 1), the arrows walk its cells.
  await page.focus('[data-role=scrub]');
  await page.keyboard.press('Tab');
  assert.equal(
    await page.evaluate(() => document.activeElement.dataset.layer + document.activeElement.dataset.head),
    '00',
  );
  for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'End', 'ArrowLeft']) {
    await page.keyboard.press(key);
  }
  const first = figures.nth(0).locator('.pg-readout');
  assert.equal(await first.getAttribute('data-cell'), `3 ${snap.T - 2}`);
  const keyed = weightOf(snap, 0, 0, 3, snap.T - 2);
  assert.equal(await first.textContent(), `${snap.tokens[3]} → ${snap.tokens[snap.T - 2]}: ${keyed.toFixed(3)}`);
  await shot(page.locator('.pg-heatmaps'), 'heatmaps-en');

  await page.click('[data-lang=zh]');
  await page.waitForFunction(() => document.querySelector('h1').textContent === '注意力训练场');
  await page.focus('[data-role=heatmap-grid] canvas');
  await page.keyboard.press('ArrowDown');
  await shot(page.locator('.pg-heatmaps'), 'heatmaps-zh');
  assert.deepEqual(problems, []);
});

test('the accuracy chart marks where held-out exact match first reached 95%; the button beside it stops training', async () => {
  const { page, problems } = await openPlayground('zh');
  assert.equal(await page.locator('[data-role=reached]').isHidden(), true, 'no mark before training');
  await page.click('[data-role=play]');
  await page.waitForFunction(() => window.attentionPlayground.history.heldOut.some(([, v]) => v >= 0.95), null, {
    timeout: 150000,
    polling: 100,
  });
  await page.waitForSelector('[data-role=reached]:not([hidden]) [data-role=stop]:not([hidden])');
  const heldOut = await page.evaluate(() => window.attentionPlayground.history.heldOut);
  const firstAt = heldOut.find(([, v]) => v >= 0.95)[0];
  assert.ok(
    heldOut.filter(([s]) => s < firstAt).every(([, v]) => v < 0.95),
    'every measurement before it is below 95%',
  );
  const mark = page.locator('[data-role=accuracy-chart] g.mark');
  await page.waitForFunction(() => document.querySelector('[data-role=accuracy-chart] g.mark'));
  assert.equal(Number(await mark.getAttribute('data-step')), firstAt);
  assert.equal(await mark.locator('text').textContent(), `第 ${firstAt} 步达到 95%`);
  assert.equal(await page.locator('[data-role=reached-text]').textContent(), `第 ${firstAt} 步达到 95%`);
  const button = page.locator('[data-role=stop]');
  assert.equal(await button.textContent(), '在此停止训练');
  await shot(page.locator('.pg-curves'), 'reached-zh');

  await button.click();
  await page.waitForSelector('[data-role=play][aria-pressed=false]');
  await page.waitForSelector('[data-role=stop][hidden]', { state: 'attached' });
  const stopped = await page.evaluate(() => window.attentionPlayground.history.loss.length);
  await page.waitForTimeout(1500);
  assert.equal(
    await page.evaluate(() => window.attentionPlayground.history.loss.length),
    stopped,
    'no step after stop',
  );
  assert.equal(await page.locator('[data-role=reached]').isVisible(), true, 'the mark stays');
  // Stopped and redrawn: the rule stands at the held-out curve's dot of that step (one drawing).
  const { rule, dot } = await page.evaluate((step) => {
    const i = window.attentionPlayground.history.heldOut.findIndex(([s]) => s === step);
    const chart = document.querySelector('[data-role=accuracy-chart]');
    return {
      rule: chart.querySelector('g.mark').transform.baseVal[0].matrix.e,
      dot: Number(chart.querySelectorAll('g.dots circle')[i].getAttribute('cx')),
    };
  }, firstAt);
  assert.ok(Math.abs(rule - dot) < 0.01, `the rule at x ${rule}, the dot at ${dot}`);

  await page.click('[data-lang=en]');
  await page.waitForFunction(
    (n) => document.querySelector('[data-role=reached-text]').textContent === `reached 95% at step ${n}`,
    firstAt,
  );
  assert.deepEqual(problems, []);
});

test('beside the induction task’s curves, a sentence says what the learner sees, in both languages', async () => {
  const { page, problems } = await openPlayground('en');
  await page.selectOption('[data-role=task]', 'induction');
  const note = page.locator('[data-role=curves-note]');
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /induction heads form.*100% by step 800/);
  await page.click('[data-lang=zh]');
  await page.waitForFunction(() => document.querySelector('[data-role=curves-note]').textContent.includes('归纳头'));
  assert.doesNotMatch(await note.textContent(), /[A-Za-z]/, 'no English left in 中文');
  await page.selectOption('[data-role=task]', 'sort');
  await page.waitForSelector('[data-role=curves-note]', { state: 'hidden' });
  assert.deepEqual(problems, []);
});
