// The sparse attention patterns on the page (?mask=longformer, ?mask=bigbird), in English and
// 中文, against the engine run here in node with the same options: the mask step says the
// engine's fraction and count of computed scores, the softmax step's weights equal the
// engine's (in the heatmap view, whose cells hold their values) and are exactly 0 outside the pattern, a click on a token's chip makes it global
// (its row and column of the pattern fill, and the page's weights follow the engine's with the
// new global token), no console error, no printed NaN. Screenshots at 1280 and 390 px. A causal
// window (mc=1): the engine's count of it and every weight above the diagonal exactly 0.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createEngine } from '../node/support.mjs';
import {
  openPage,
  screenshot,
  screenshotDir,
  transitionsDone,
  useBrowser,
  explorerStarted,
  waitUntil,
} from './browser.mjs';
import { strings } from '../../web/src/i18n.js';
import { percentText } from '../../web/src/i18n-sparse.js';
import { STEP_KEYS } from '../../web/src/step-keys.js';

const MASK_STEP = STEP_KEYS.indexOf('mask') + 1;
const SOFTMAX_STEP = STEP_KEYS.indexOf('softmax') + 1;

const session = useBrowser();
let engine;
before(async () => {
  engine = await createEngine();
  mkdirSync(screenshotDir, { recursive: true });
});

const close = (a, b, what) =>
  assert.ok(Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b), `${what}: page ${a}, engine ${b}`);
const idle = (page) => page.evaluate(() => window.attentionExplorer.idle());
const settle = async (page) => {
  await idle(page);
  await transitionsDone(page);
};
const setState = async (page, patch) => {
  await page.evaluate((p) => window.attentionExplorer.store.set(p), patch);
  await settle(page);
};

const CASES = [
  {
    lang: 'en',
    sentence: 'The quick brown fox jumps over the lazy dog near the river',
    link: 'mask=longformer&w=1',
    mask: { type: 'longformer', width: 1, global: [0] },
  },
  {
    lang: 'zh',
    sentence: '我 爱 吃 火锅 因为 它 又 辣 又 香 很 好吃',
    link: 'mask=bigbird&w=1&blk=2&rnd=1&mseed=3',
    mask: { type: 'bigbird', width: 1, global: [0], block: 2, random: 1, seed: 3 },
  },
];

/** The heatmap view's grid `name` of head 0 as { i, j, v } cells (each holds its exact value). */
const drawn = (page, name) =>
  page.$$eval(`[data-role=heatmaps] g.multiple[data-step=${name}][data-head="0"] g.cell`, (cells) =>
    cells.map((c) => ({ i: Number(c.dataset.i), j: Number(c.dataset.j), v: Number(c.dataset.value) })),
  );

/** The labels the mask step's masked matrix marks as global tokens (rows, then columns). */
const globalLabels = (page) =>
  page.$$eval('[data-role=stage] g.operand.matrix[data-step=masked] text.global', (ts) => ts.map((t) => t.textContent));

/** The page's softmax weights against the engine's: equal, and exactly 0 outside the pattern. */
async function weightsMatch(page, trace, what) {
  await setState(page, { step: SOFTMAX_STEP, view: 'heatmap', head: 0, cell: null });
  const weights = trace.step('weights', 0);
  // The view draws after the trace: wait for every cell with this trace's values in place.
  const cells = await waitUntil(async () => {
    const c = await drawn(page, 'weights');
    const k = (x) => x.i * trace.nKey + x.j;
    const current = c.length === weights.data.length && c.every((x) => Math.abs(x.v - weights.data[k(x)]) < 1e-3);
    return current && c;
  }, `${what}: the heatmap draws the engine's weights`).catch(() => drawn(page, 'weights'));
  const allowed = trace.step('mask', 0);
  assert.equal(cells.length, trace.nQuery * trace.nKey, `${what}: every pair drawn`);
  let outside = 0;
  for (const { i, j, v } of cells) {
    const k = i * trace.nKey + j;
    close(v, weights.data[k], `${what} weights[${i}, ${j}]`);
    if (allowed.data[k] === 0) {
      outside++;
      assert.equal(v, 0, `${what}: weights[${i}, ${j}] is outside the pattern`);
    }
  }
  assert.ok(outside > 0, `${what}: the pattern leaves some pairs out`);
}

/** The mask step's text ends with the engine's fraction and count. */
async function fractionShown(page, trace, s, what) {
  await setState(page, { step: MASK_STEP, head: 0, cell: null });
  const expected = s.sparseFraction(
    percentText(trace.computedScoreFraction),
    trace.computedScores,
    trace.nQuery * trace.nKey,
  );
  const read = () => page.locator('.explain .step-text').textContent();
  const text = await waitUntil(async () => {
    const t = await read();
    return t.endsWith(expected) && t;
  }, `${what}: the mask step's text names the engine's count`).catch(read);
  assert.ok(text.endsWith(expected), `${what}: "${text}" ends with "${expected}"`);
  assert.ok(trace.computedScoreFraction < 1, `${what}: a sparse pattern computes fewer than n² scores`);
}

for (const { lang, sentence, link, mask } of CASES) {
  for (const width of [1280, 390]) {
    test(`${link}, lang=${lang}, ${width} px: the pattern's fraction, its zero weights, a chip made global`, async () => {
      const s = strings(lang);
      const query = `${link}&step=${MASK_STEP}&lang=${lang}&s=${encodeURIComponent(sentence)}`;
      const { page, context, problems } = await openPage(session.browser, `${session.url}?${query}`, {
        viewport: { width, height: 900 },
      });
      await explorerStarted(page);
      await settle(page);
      const tokens = await page.locator('[data-role=tokens] li').allTextContents();
      assert.ok(tokens.length >= 10, `${tokens.length} tokens`);
      const run = (m) => engine.run({ tokens, dModel: 8, heads: 2, seed: 42, mask: m });

      assert.equal(await page.locator('[data-role=mask]').inputValue(), mask.type);
      assert.equal(await page.locator('[data-role=global-control]').isVisible(), true);
      assert.equal(await page.locator('[data-role=global]').inputValue(), '0');
      assert.deepEqual(
        await page.locator('[data-role=tokens] li.global').evaluateAll((li) => li.map((x) => x.textContent)),
        [tokens[0]],
        'the first token is global by default',
      );
      const before = run(mask);
      await fractionShown(page, before, s, 'global [0]');
      assert.equal(
        await page.locator('.explain .step-title').textContent(),
        `${MASK_STEP}. ${s.maskSteps[mask.type].title}`,
      );
      // The global token's row and column labels stand out in the masked matrix.
      assert.deepEqual(await globalLabels(page), [tokens[0], tokens[0]]);
      await screenshot(page, `sparse-mask-${mask.type}-${width}-${lang}`);
      await weightsMatch(page, before, 'global [0]');

      // A click on chip 5 makes token 5 global: the link, the pattern and the weights follow.
      await page.locator('[data-role=tokens] li').nth(5).click();
      await settle(page);
      assert.match(page.url(), /g=0%2C5/);
      assert.equal(await page.locator('[data-role=tokens] li').nth(5).getAttribute('class'), 'chip global');
      const after = run({ ...mask, global: [0, 5] });
      assert.ok(after.computedScores > before.computedScores, 'a global token adds scores');
      await fractionShown(page, after, s, 'global [0, 5]');
      assert.deepEqual(await globalLabels(page), [tokens[0], tokens[5], tokens[0], tokens[5]]);
      await weightsMatch(page, after, 'global [0, 5]');
      // The global token's row: query 5 sees every key.
      const row5 = (await drawn(page, 'weights')).filter((c) => c.i === 5);
      assert.ok(
        row5.every((c) => c.v > 0),
        'a global query weighs every key',
      );

      const body = await page.locator('body').innerText();
      assert.doesNotMatch(body, /NaN/);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('mask=dilated, lang=en: its fraction and zero weights, only its settings, bad values named', async () => {
  const sentence = 'The quick brown fox jumps over the lazy dog near the river';
  const query = `mask=dilated&w=2&dil=3&g=a&dil=0&lang=en&s=${encodeURIComponent(sentence)}`;
  const { page, context, problems } = await openPage(session.browser, `${session.url}?${query}`, {
    viewport: { width: 1280, height: 900 },
  });
  await explorerStarted(page);
  await settle(page);
  // The link's bad values are named in the notice, as any other field's.
  const notice = await page.locator('[data-role=notice]').textContent();
  assert.match(notice, /g=a/);
  assert.match(notice, /dil=0/);
  const tokens = await page.locator('[data-role=tokens] li').allTextContents();
  const trace = engine.run({ tokens, dModel: 8, heads: 2, seed: 42, mask: { type: 'dilated', width: 2, dilation: 3 } });
  await fractionShown(page, trace, strings('en'), 'dilated');
  await weightsMatch(page, trace, 'dilated');
  // Only a dilated window's settings; no global tokens to pick.
  for (const [role, shown] of [
    ['window-control', true],
    ['dilation-control', true],
    ['global-control', false],
    ['block-control', false],
  ])
    assert.equal(await page.locator(`[data-role=${role}]`).isVisible(), shown, role);
  await page.locator('[data-role=tokens] li').nth(3).click();
  await settle(page);
  assert.equal(await page.locator('[data-role=tokens] li.global').count(), 0);
  // A dilation out of range in the box is marked invalid and changes nothing.
  await page.locator('[data-role=dilation]').fill('65');
  await page.locator('[data-role=dilation]').press('Enter');
  await page.locator('[data-role=dilation]').blur();
  await settle(page);
  assert.equal(await page.locator('[data-role=dilation]').getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().dilation), 3);
  assert.doesNotMatch(await page.locator('body').innerText(), /NaN/);
  assert.deepEqual(problems, []);
  await context.close();
});

// A causal sliding window (mc=1, a decoder's local attention as in Mistral), in both languages:
// the switch is shown and on, the mask step names the causal pattern and the engine's count of
// it, and every weight above the diagonal (a later key) is exactly 0 on the page and in the
// engine's trace. Unticking the switch gives the two-sided window's count; none hides it.
for (const lang of ['en', 'zh']) {
  test(`mask=window&w=2&mc=1, lang=${lang}: a causal window's count and its zero weights above the diagonal`, async () => {
    const s = strings(lang);
    const sentence =
      lang === 'en'
        ? 'The quick brown fox jumps over the lazy dog near the river'
        : '我 爱 吃 火锅 因为 它 又 辣 又 香 很 好吃';
    const query = `mask=window&w=2&mc=1&step=${MASK_STEP}&lang=${lang}&s=${encodeURIComponent(sentence)}`;
    const { page, context, problems } = await openPage(session.browser, `${session.url}?${query}`, {
      viewport: { width: 1280, height: 900 },
    });
    await explorerStarted(page);
    await settle(page);
    const tokens = await page.locator('[data-role=tokens] li').allTextContents();
    assert.equal(tokens.length, 12);
    const run = (m) => engine.run({ tokens, dModel: 8, heads: 2, seed: 42, mask: m });
    assert.equal(await page.locator('[data-role=maskCausal-control]').isVisible(), true);
    assert.equal(await page.locator('[data-role=maskCausal]').isChecked(), true);
    assert.equal(await page.locator('[data-role=maskCausal-hint]').textContent(), s.maskCausalHint);

    const causal = run({ type: 'window', width: 2, causal: true });
    const open = run({ type: 'window', width: 2 });
    // The engine's own trace: nothing above the diagonal, and fewer scores than the open window.
    for (let h = 0; h < 2; h++) {
      const w = causal.step('weights', h);
      for (let i = 0; i < w.rows; i++)
        for (let j = i + 1; j < w.cols; j++) assert.equal(w.data[i * w.cols + j], 0, `engine head ${h} [${i}, ${j}]`);
    }
    assert.ok(causal.computedScores < open.computedScores, 'the causal window computes fewer scores');
    await fractionShown(page, causal, s, 'causal window');
    assert.equal(
      await page.locator('.explain .step-title').textContent(),
      `${MASK_STEP}. ${s.maskSteps.window.title}${s.maskCausalTitle}`,
    );
    assert.ok((await page.locator('.explain .step-text').textContent()).includes(s.maskCausalText));
    await screenshot(page, `sparse-mask-window-causal-1280-${lang}`);
    await weightsMatch(page, causal, 'causal window');
    const cells = await drawn(page, 'weights');
    const above = cells.filter((c) => c.j > c.i);
    assert.equal(above.length, (12 * 11) / 2);
    for (const c of above) assert.equal(c.v, 0, `page weights[${c.i}, ${c.j}] is a later key`);

    // Unticked: the two-sided window again, its count, and mc= gone from the link.
    await page.locator('[data-role=maskCausal]').uncheck();
    await settle(page);
    assert.doesNotMatch(page.url(), /mc=/);
    await fractionShown(page, open, s, 'open window');
    // Ticked again: back in the link. With none there is no pattern: the switch is hidden.
    await page.locator('[data-role=maskCausal]').check();
    await settle(page);
    assert.match(page.url(), /mc=1/);
    await setState(page, { mask: 'none' });
    assert.equal(await page.locator('[data-role=maskCausal-control]').isVisible(), false);
    assert.equal(await page.locator('[data-role=maskCausal-hint]').isVisible(), false);

    assert.doesNotMatch(await page.locator('body').innerText(), /NaN/);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
