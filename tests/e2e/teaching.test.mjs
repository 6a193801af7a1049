// What a learner and a teacher rely on: the page says its weights are random and untrained,
// tutorial mode shows the NumPy example's exact numbers, shared links and embed code keep the
// language, the embed iframe shrinks as well as grows, and the single file offers no link to
// a file it does not have.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../node/support.mjs';
import {
  linkLines,
  linksPainted,
  openPage,
  screenshotDir,
  useBrowser,
  transitionsDone,
  waitUntil,
  explorerStarted as started,
} from './browser.mjs';
import { defaultState } from '../../web/src/state.js';
import { embedSnippet } from '../../web/src/explorer/share.js';

const session = useBrowser();
/** The links view's weights as drawn: { "i,j": weight } of head 1. */
const drawnWeights = async (page) =>
  Object.fromEntries(
    (await linkLines(page)).filter((line) => line.h === 0).map((line) => [`${line.i},${line.j}`, line.weight]),
  );

test('tutorial mode shows the NumPy example’s weights (tests/fixtures/tutorial_seed42.json) and says what it is', async () => {
  const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/tutorial_seed42.json'), 'utf8'));
  const [expected] = fixture.steps.weights; // one head, 4 × 4, NumPy's float64 numbers
  // The links view leaves out links too faint to see (web/src/views/links.js MIN_WEIGHT);
  // every weight of 0.05 or more is drawn, and every one drawn is NumPy's.
  const visible = expected.data.filter((w) => w >= 0.05).length;
  const assertNumPy = async (page) => {
    await linksPainted(page, { min: visible, head: 0 });
    await transitionsDone(page); // the previous model's links fade out first
    const weights = await drawnWeights(page);
    assert.equal((await linkLines(page)).filter((line) => line.h !== 0).length, 0, 'one head');
    for (const [key, got] of Object.entries(weights)) {
      const [i, j] = key.split(',').map(Number);
      const want = expected.data[i * 4 + j];
      assert.ok(
        Math.abs(got - want) <= 1e-6 + 1e-5 * Math.abs(want),
        `weight (${i}, ${j}): page ${got}, NumPy ${want}`,
      );
    }
  };

  const { page, context, problems } = await openPage(session.browser, `${session.url}?tutorial=1&lang=en&step=7`);
  await started(page);
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), fixture.tokens);
  await assertNumPy(page);
  assert.equal(await page.locator('[data-role=tutorial]').isChecked(), true);
  for (const pinned of ['seed', 'dModel', 'heads', 'positionalEncoding', 'init'])
    assert.equal(await page.locator(`[data-role=${pinned}]`).isDisabled(), true, `${pinned} is pinned`);
  const note = page.locator('[data-role=tutorial-note]');
  assert.equal(await note.isVisible(), true);
  assert.match(await note.textContent(), /illustrative, not computed/);
  await transitionsDone(page);
  await page.screenshot({ path: path.join(screenshotDir, 'tutorial-mode-en.png'), fullPage: true });
  // No W_O in the tutorial: step 10 does not claim one.
  await page.click('.step-button[data-step="10"]');
  await page.waitForSelector('.step-button[data-step="10"][aria-current="step"]');
  const operators = await page.locator('[data-role=stage] .operator-text').allTextContents();
  assert.ok(operators.length > 0 && !operators.some((t) => /·\s*W_O/.test(t)), `step 10 operators: ${operators}`);
  const shapes = await page.locator('.explain .shapes').textContent(); // KaTeX's HTML: W_O is "WO"
  assert.match(shapes, /\(no\s*WO/, shapes);
  assert.doesNotMatch(shapes, /⋅\s*WO/, shapes);
  // Nor does the matrices view: the engine still draws a W_O it does not use (O = Concat).
  await page.click('[role=tab][data-view=matrices]');
  await page.waitForSelector('[data-role=matrices] g.operand[data-step=concat]');
  assert.equal(await page.locator('[data-role=matrices] g.operand[data-step=wO]').count(), 0, 'no W_O in the tutorial');
  assert.equal(await page.locator('[data-role=matrices] g.operand[data-step=output]').count(), 1);

  // One switch in the controls: from another sentence and model to the tutorial, and back.
  // (Set through the store, as a link would set it: no second page load.)
  await page.evaluate(() =>
    window.attentionExplorer.store.set({
      tutorial: false,
      lang: 'zh',
      sentence: '猫追着球跑',
      dModel: 16,
      heads: 4,
      seed: 7,
      step: 7,
      view: 'links',
    }),
  );
  await page.waitForFunction(() => document.querySelectorAll('[data-role=tokens] li').length === 5);
  assert.equal(await page.locator('[data-role=tutorial]').isChecked(), false);
  await page.locator('[data-role=tutorial]').check();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('tutorial') === '1');
  await page.waitForFunction(() => document.querySelectorAll('[data-role=tokens] li').length === 4);
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), fixture.tokens);
  await assertNumPy(page);
  assert.match(await page.locator('[data-role=tutorial-note]').textContent(), /只是示意/);
  await transitionsDone(page);
  await page.screenshot({ path: path.join(screenshotDir, 'tutorial-mode-zh.png'), fullPage: true });
  await page.locator('[data-role=tutorial]').uncheck();
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('tutorial'));
  assert.equal(await page.locator('[data-role=seed]').isDisabled(), false);
  assert.equal(await page.locator('[data-role=tutorial-note]').isHidden(), true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the web component takes a tutorial attribute: the NumPy example’s weights', async () => {
  const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/tutorial_seed42.json'), 'utf8'));
  const [expected] = fixture.steps.weights;
  const { page, context, problems } = await openPage(session.browser, `${session.url}examples/component.html`);
  const element = page.locator('attention-explorer').first();
  await element.evaluate(
    (e) => new Promise((resolve) => (e.explorer ? resolve() : e.addEventListener('ready', resolve))),
  );
  await element.evaluate((e) => {
    e.setAttribute('sentence', '我 爱 吃 火锅');
    e.setAttribute('mask', 'none');
    e.setAttribute('view', 'links');
    e.setAttribute('tutorial', '');
  });
  await page.waitForFunction(
    (el) => el.explorer.store.get().tutorial && el.explorer.store.get().heads === 1,
    await element.elementHandle(),
  );
  await transitionsDone(page);
  // The first <attention-explorer> (`element`): its links view is in its shadow root.
  const weights = (await linkLines(page, 'attention-explorer')).map((line) => [line.i, line.j, line.weight]);
  assert.ok(weights.length >= expected.data.filter((w) => w >= 0.05).length, `${weights.length} links`);
  for (const [i, j, got] of weights) {
    const want = expected.data[i * 4 + j];
    assert.ok(Math.abs(got - want) <= 1e-6 + 1e-5 * Math.abs(want), `weight (${i}, ${j}): ${got}, NumPy ${want}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('the links view says the weights are random and untrained, in both languages', async () => {
  // Steps 3 and 7 say it too: their texts are tests/node/step-texts.test.mjs's.
  const { page, context, problems } = await openPage(session.browser, `${session.url}?s=猫追着球跑&lang=en`);
  await started(page);
  for (const [lang, untrained] of [
    ['en', /random and untrained/],
    ['zh', /随机的、未经训练/],
  ]) {
    await page.click(`.language button[data-lang="${lang}"]`);
    const note = page.locator('[data-panel=links] .untrained');
    await page.waitForFunction(
      (t) => new RegExp(t).test(document.querySelector('[data-panel=links] .untrained')?.textContent),
      untrained.source,
    );
    assert.equal(await note.isVisible(), true, `the links view's note (${lang})`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('copied links and embed code pin the language the viewer sees, whatever the browser’s language', async () => {
  for (const [locale, lang] of [
    ['zh-CN', 'zh'],
    ['en-US', 'en'],
  ]) {
    const context = await session.browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.url).origin });
    const page = await context.newPage();
    await page.goto(`${session.url}?s=猫追着球跑`); // no lang: the browser's language is used
    await started(page);
    assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().lang), lang);
    const copied = async (role) => {
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await page.click(`[data-role=${role}]`);
      await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t !== ''));
      return page.evaluate(() => navigator.clipboard.readText());
    };
    assert.equal(new URL(await copied('copy-link')).searchParams.get('lang'), lang, `${locale}: the link`);
    const src = (await copied('copy-embed')).match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
    assert.equal(new URL(src).searchParams.get('lang'), lang, `${locale}: the embed code`);
    await context.close();
  }
});

test('the embed iframe shrinks when its content does, as well as growing', async () => {
  const base = defaultState('en');
  const snippet = embedSnippet({ ...base, sentence: '猫追着球跑', view: 'matrices', step: 2 }, base, session.url);
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.setContent(`<!doctype html><meta charset="utf-8"><h1>Course</h1>${snippet}<p>after</p>`);
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '', null, { timeout: 20000 });
  const frame = page.frames().find((f) => f.url().includes('embed.html'));
  await frame.waitForSelector('[data-role=matrices] g.operand');
  const iframe = page.locator('iframe');
  /** Waits until the iframe's height is its content's (the body's) and returns it. */
  const fitted = (what) =>
    waitUntil(async () => {
      const declared = await iframe.evaluate((f) => parseFloat(f.style.height));
      const content = await frame.evaluate(() => document.body.getBoundingClientRect().height);
      return Math.abs(declared - content) <= 2 && declared;
    }, what);
  const tall = await fitted('the iframe fits the matrices view');
  await iframe.evaluate((f) =>
    f.contentWindow.postMessage({ type: 'attention-explorer:set', state: { view: 'links' } }, '*'),
  );
  await linksPainted(frame);
  await transitionsDone(frame);
  const short = await fitted('the iframe fits the shorter links view');
  assert.ok(short < tall - 100, `the iframe shrank from ${tall} px to ${short} px`);
  await context.close();
});

test('the single file offers a link to itself but no embed code (it has no embed.html)', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route('**/*', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort(),
  );
  const page = await context.newPage();
  await page.goto(`${pathToFileURL(path.join(root, 'dist/attention-explorer.html')).href}?lang=en`);
  await started(page);
  assert.equal(await page.locator('[data-role=copy-link]').isVisible(), true);
  assert.equal(await page.locator('[data-role=copy-embed]').isVisible(), false);
  await context.close();
});
