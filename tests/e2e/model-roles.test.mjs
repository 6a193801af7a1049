// Head roles on the page, in Debian's Chromium: each head of a shipped model shows
// the role stored in models/<name>.roles.json with its × chance, and its score on the typed text
// as the engine computes it in node; hovering or focusing a head outlines, for each query token,
// the key its role predicts. Both languages, with screenshots of the grid.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { roleKeys, roleScore } from '../../dist/engine/engine.js';
import { createEngine, root } from '../node/support.mjs';
import { openPage, useBrowser, screenshot, screenshotDir } from './browser.mjs';

const session = useBrowser();
const engine = await createEngine();
const file = (name) => path.join(root, 'models', name);

/** The page at 1280 × 800 and, at full size, the grid of heads and the hovered head. */
async function shots(page, name) {
  const hovered = await page.$('.model-cell:hover');
  await screenshot(page, name);
  await page.locator('[data-role=model-grid]').screenshot({ path: path.join(screenshotDir, `${name}-grid.png`) });
  await hovered?.hover();
  await hovered?.screenshot({ path: path.join(screenshotDir, `${name}-hovered.png`) });
}

const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());

// One page for both models (opening one is the slow part): the second test chooses its model
// and types its text in the first one's page.
let shared = null;
after(() => shared?.context.close());

/** Every cell's role, texts and outlined keys: [{ layer, head, role, label, ratio, here, rects }]. */
const cells = (page) =>
  page.$$eval('.model-cell', (all) =>
    all.map((c) => ({
      layer: Number(c.dataset.layer),
      head: Number(c.dataset.head),
      role: c.dataset.headRole,
      label: c.querySelector('.model-cell-label')?.textContent,
      ratio: c.querySelector('.model-cell-ratio')?.textContent ?? '',
      here: c.querySelector('.model-cell-here')?.textContent ?? '',
      rects: [...c.querySelectorAll('.model-cell-keys rect')].map((r) => [
        Number(r.getAttribute('y')),
        Number(r.getAttribute('x')),
      ]),
    })),
  );

const outlinesShown = (page, layer, head) =>
  page.$eval(
    `.model-cell[data-layer="${layer}"][data-head="${head}"] .model-cell-keys`,
    (svg) => getComputedStyle(svg).visibility === 'visible',
  );

test(
  'the Tang grid shows each head’s stored role, × chance, its score on the typed text, and outlines its keys',
  { skip: !existsSync(file('tang.model')) },
  async () => {
    const text = '床前明月光，疑是地上霜。举头望明月，低头思故乡。';
    const sidecar = JSON.parse(readFileSync(file('tang.roles.json'), 'utf8'));
    const model = engine.loadModel(readFileSync(file('tang.model')));
    try {
      shared = await openPage(session.browser, `${session.url}?model=tang&s=${encodeURIComponent(text)}`);
      const { page, problems } = shared;
      await page.waitForSelector('.model-cell[data-head-role]');
      await idle(page);
      assert.match(await page.textContent('[data-role=model-view-hint]'), /对仗.*rhyme/);
      const ids = model.encode(text).ids;
      const symbols = ids.map((id) => model.vocabulary[id]);
      const trace = model.trace({ tokens: ids }, { steps: ['weights'] });
      const shown = await cells(page);
      assert.equal(shown.length, sidecar.heads.length);
      for (const head of sidecar.heads) {
        const cell = shown.find((c) => c.layer === head.layer && c.head === head.head);
        const where = `L${head.layer} H${head.head}`;
        assert.equal(cell.role, head.roles.join(' '), where);
        if (head.roles.length === 2) continue; // two roles within 10%: both named, neither outlined here
        if (head.roles.length !== 1 || head.role === 'broad') {
          assert.deepEqual(cell.rects, [], `${where}: no keys to outline`);
          continue;
        }
        assert.equal(cell.ratio, `${head.scores[head.role].ratio.toFixed(1)}× chance`, where);
        // The score on the typed text, from the weights of the same model in node.
        const keys = roleKeys(head.role, symbols);
        const weights = trace.layers[head.layer].step('weights', head.head).data;
        const expected = roleScore(weights, ids.length, keys);
        assert.equal(cell.here, `your text: ${expected.score.toFixed(2)}`, where);
        assert.deepEqual(
          cell.rects.sort((a, b) => a[0] - b[0] || a[1] - b[1]),
          keys.flatMap((k, i) => k.map((j) => [i, j])),
          `${where}: outlined keys`,
        );
      }
      // L1H2 is the previous-token head: its outlines sit one left of the diagonal, shown only
      // while the head is hovered or focused.
      const previous = sidecar.heads.find((h) => h.role === 'previous');
      assert.ok(previous, 'the Tang model has a previous-token head');
      const selector = `.model-cell[data-layer="${previous.layer}"][data-head="${previous.head}"]`;
      assert.equal(await outlinesShown(page, previous.layer, previous.head), false);
      await page.hover(selector);
      assert.equal(await outlinesShown(page, previous.layer, previous.head), true, 'hover');
      await shots(page, 'model-roles-tang-en');
      await page.mouse.move(0, 0);
      assert.equal(await outlinesShown(page, previous.layer, previous.head), false);
      await page.focus(selector);
      assert.equal(await outlinesShown(page, previous.layer, previous.head), true, 'focus');
      // 中文: the same roles in Chinese, no English words left in the cells.
      await page.click('.language button[data-lang=zh]');
      await idle(page);
      const zh = await cells(page);
      const cellTexts = zh.map((c) => [c.label, c.ratio, c.here].join(' '));
      for (const t of cellTexts) assert.doesNotMatch(t, /[A-Za-z]/, t);
      const zhPrevious = zh.find((c) => c.layer === previous.layer && c.head === previous.head);
      assert.equal(zhPrevious.label, '前一个词元');
      assert.equal(zhPrevious.ratio, `随机水平的 ${previous.scores.previous.ratio.toFixed(1)} 倍`);
      const zhHint = await page.textContent('[data-role=model-view-hint]');
      assert.doesNotMatch(zhHint, /[A-Za-z]{3,}/);
      assert.match(zhHint, /对仗.*韵脚/);
      await page.hover(selector);
      await shots(page, 'model-roles-tang-zh');
      assert.deepEqual(problems, []);
    } finally {
      model.dispose();
    }
  },
);

test(
  'the English grid shows its stored roles in both languages',
  { skip: !existsSync(file('brown.model')) },
  async () => {
    const sidecar = JSON.parse(readFileSync(file('brown.roles.json'), 'utf8'));
    const text = 'the jury said " it is over . " the judge said it was not .';
    if (shared) {
      const { page } = shared;
      await page.click('.language button[data-lang=en]');
      await page.selectOption('[data-role=model]', 'brown');
      await page.fill('[data-role=sentence]', text);
      await page.waitForFunction(
        (t) =>
          window.attentionExplorer.store.get().sentence === t && window.attentionExplorer.store.get().model === 'brown',
        text,
      );
    } else {
      shared = await openPage(session.browser, `${session.url}?model=brown&s=${encodeURIComponent(text)}`);
    }
    const { page, problems } = shared;
    await page.waitForFunction(
      () => /brown/i.test(document.querySelector('[data-role=model-about]')?.textContent ?? ''),
      null,
      { timeout: 20000 },
    );
    await page.waitForFunction(
      (n) => document.querySelectorAll('.model-cell[data-head-role]').length === n,
      sidecar.heads.length,
      { timeout: 20000 },
    );
    await idle(page);
    // The hint's sentences about couplets and rhymes are the poems': prose has neither.
    assert.doesNotMatch(await page.textContent('[data-role=model-view-hint]'), /对仗|rhyme/);
    const shown = await cells(page);
    for (const head of sidecar.heads) {
      const cell = shown.find((c) => c.layer === head.layer && c.head === head.head);
      assert.equal(cell.role, head.roles.join(' '), `L${head.layer} H${head.head}`);
    }
    const lineStart = sidecar.heads.find((h) => h.role === 'lineStart');
    await page.hover(`.model-cell[data-layer="${lineStart.layer}"][data-head="${lineStart.head}"]`);
    await shots(page, 'model-roles-brown-en');
    await page.click('.language button[data-lang=zh]');
    await idle(page);
    for (const c of await cells(page)) assert.doesNotMatch([c.label, c.ratio, c.here].join(' '), /[A-Za-z]/);
    await page.hover(`.model-cell[data-layer="${lineStart.layer}"][data-head="${lineStart.head}"]`);
    await shots(page, 'model-roles-brown-zh');
    assert.deepEqual(problems, []);
  },
);
