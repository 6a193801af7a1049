// Readable at every size: a 40-token paragraph in every view at 1280 and 390 px,
// light and dark, both languages; labels that never overlap nor get clipped, no text under
// 11 px on a phone, head and masked-cell colours with WCAG contrast, stage matrices that end
// opaque, views that say what they show, and a heatmap click that stays in the heatmap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { linkLines, linksPainted, openPage, screenshotDir, useBrowser, transitionsDone } from './browser.mjs';
import { contrast, labelProblems, smallText } from './readable.mjs';

// 40 tokens by the page's default tokenization (the test checks the count), with a long word.
export const PARAGRAPH_EN =
  'The quick brown fox jumps over the lazy dog while a curious student reads about attention and every ' +
  'token asks which others matter most internationalization meaning order and position all shape ' +
  'the weights it finds here today in this sentence';
export const PARAGRAPH_ZH =
  '小明在北京的清华大学读书他每天早上骑自行车去图书馆看书中午和同学一起在食堂吃饭下午去实验室做实验晚上回宿舍休息周末他喜欢去公园散步看书';
const VIEWS = ['links', 'heatmap', 'matrices', 'softmax'];

const session = useBrowser();
before(async () => {
  mkdirSync(screenshotDir, { recursive: true });
});

/** Opens the page with `query`, and waits until it has drawn. */
async function open(query, { width = 1280, dark = false, reducedMotion = true } = {}) {
  const opened = await openPage(session.browser, `${session.url}?${query}`, {
    viewport: { width, height: width < 600 ? 844 : 900 },
  });
  await opened.page.emulateMedia({
    colorScheme: dark ? 'dark' : 'light',
    reducedMotion: reducedMotion ? 'reduce' : 'no-preference',
  });
  await opened.page.waitForSelector('[data-role=stage] g.operand');
  await settle(opened.page);
  return opened;
}

async function settle(page) {
  await page.evaluate(() => window.attentionExplorer.idle());
  await transitionsDone(page);
}

async function set(page, state) {
  await page.evaluate((s) => window.attentionExplorer.store.set(s), state);
  await settle(page);
}

/**
 * labelProblems of the current view's exported SVG, opened as a file is: in a blank page of its
 * own (the app's CSP would refuse the figure's <style>, which is meant for the file).
 */
async function figureProblems(page) {
  const svg = await page.evaluate(() => window.attentionExplorer.viewSVG());
  const blank = await page.context().newPage();
  try {
    await blank.setContent(`<!doctype html><meta charset="utf-8"><div class="panel figure-check">${svg}</div>`);
    return await blank.evaluate(labelProblems, '.figure-check');
  } finally {
    await blank.close();
  }
}

const paragraphQuery = (lang) =>
  new URLSearchParams({ s: lang === 'zh' ? PARAGRAPH_ZH : PARAGRAPH_EN, lang, h: '8', d: '16' }).toString();

// One page per width (opening one is the slow part), the language and its paragraph set on it:
// the paragraph's token count, every view and four steps of the stage checked for overlapping
// and clipped labels, the exported figures too, then screenshots light and dark (the same page,
// its scheme switched). On the phone, in English, no text smaller than 11 px in any step or view.
test('a 40-token paragraph: no label overlaps another or is clipped, in every view, the stage and the figures, at 1280 and 390 px; on a phone no text under 11 px; screenshots', async () => {
  for (const width of [1280, 390]) {
    const { page, context, problems } = await open(paragraphQuery('en'), { width });
    for (const lang of ['en', 'zh']) {
      const where = `${width} px, ${lang}`;
      await set(page, {
        lang,
        sentence: lang === 'zh' ? PARAGRAPH_ZH : PARAGRAPH_EN,
        step: 1,
        view: 'links',
        head: 'all',
      });
      assert.equal(await page.locator('[data-role=tokens] li').count(), 40, `${where}: 40 tokens`);
      if (width === 390 && lang === 'en') {
        for (let step = 1; step <= 10; step++) {
          await set(page, { step });
          assert.deepEqual(await page.evaluate(smallText, 11), [], `${where}: step ${step}, links view`);
        }
        for (const view of VIEWS.slice(1)) {
          await set(page, { view });
          assert.deepEqual(await page.evaluate(smallText, 11), [], `${where}: step 10, ${view} view`);
        }
      }
      for (const step of [1, 4, 10, 7]) {
        await set(page, { step });
        const found = await page.evaluate(labelProblems, '[data-role=stage]');
        assert.deepEqual(found, [], `${where}, stage at step ${step}`);
      }
      for (const view of VIEWS) {
        for (const head of view === 'matrices' ? ['all'] : ['all', 1]) {
          await set(page, { view, head });
          const found = await page.evaluate(labelProblems, `[data-panel="${view}"]`);
          assert.deepEqual(found, [], `${where}, ${view} view, head ${head}`);
        }
        if (width === 1280 && lang === 'en') assert.deepEqual(await figureProblems(page), [], `${view} figure`);
      }
      await set(page, { head: 'all' });
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        const name = `paragraph-${width}-${scheme}-${lang}`;
        await set(page, { view: 'heatmap' });
        await page.locator('.views.panel').screenshot({ path: path.join(screenshotDir, `${name}-heatmap.png`) });
        await set(page, { view: 'links' });
        await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
      }
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('a short sentence: printed values never cover a title or a label, in the page and its figures', async () => {
  for (const width of [1280, 390]) {
    const { page, context } = await open('s=我爱吃火锅&mask=causal&lang=en', { width });
    for (let step = 1; step <= 10; step++) {
      await set(page, { step });
      assert.deepEqual(
        await page.evaluate(labelProblems, '[data-role=stage]'),
        [],
        `${width} px, stage at step ${step}`,
      );
    }
    for (const view of VIEWS) {
      await set(page, { view, head: 0 });
      const found = await page.evaluate(labelProblems, `[data-panel="${view}"]`);
      assert.deepEqual(found, [], `${width} px, ${view} view`);
      assert.deepEqual(await figureProblems(page), [], `${width} px, ${view} figure`);
    }
    await context.close();
  }
});

// The tests below share one page of a short sentence at 1280 px (opening one is the slow part):
// each sets the state it needs over the page's first one, its colour scheme light.
let shortPage = null;
after(() => shortPage?.context.close());
async function short(state, { reducedMotion = true } = {}) {
  if (!shortPage) {
    shortPage = await open('s=我爱吃火锅&lang=en');
    shortPage.base = await shortPage.page.evaluate(() => window.attentionExplorer.store.get());
  }
  const { page, base } = shortPage;
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: reducedMotion ? 'reduce' : 'no-preference' });
  await set(page, { ...base, ...state });
  return shortPage;
}

test('dark mode: every head colour and masked-cell text meet WCAG contrast on the panel', async () => {
  const { page } = await short({ heads: 8, dModel: 16, mask: 'causal', step: 7, view: 'links', head: 'all' });
  // Opened light: head 8 is Okabe–Ito's black; switching the scheme redraws in dark colours.
  const head8 = () =>
    page
      .locator('.links-legend .swatch i')
      .nth(7)
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.equal(await head8(), 'rgb(0, 0, 0)');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForFunction(
    () => getComputedStyle(document.querySelectorAll('.links-legend .swatch i')[7]).backgroundColor !== 'rgb(0, 0, 0)',
  );
  await settle(page);
  const panel = await page.evaluate(() => getComputedStyle(document.querySelector('.views.panel')).backgroundColor);
  await set(page, { view: 'links', head: 'all' });
  const swatches = await page
    .locator('.links-legend .swatch i')
    .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
  assert.equal(swatches.length, 8);
  for (const [h, colour] of swatches.entries()) {
    // WCAG 1.4.11: graphical objects (lines, swatches) need 3:1 against what is next to them.
    assert.ok(contrast(colour, panel) >= 3, `head ${h + 1}: ${colour} on ${panel} is ${contrast(colour, panel)}:1`);
  }
  const strokes = [...new Set((await linkLines(page)).map((line) => line.color))];
  assert.equal(strokes.length, 8, 'every head is painted');
  for (const colour of strokes) assert.ok(contrast(colour, panel) >= 3, `link ${colour} on ${panel}`);

  // Masked cells print −∞ (step 6) over the hatch: its text against both hatch colours.
  await set(page, { view: 'heatmap', step: 6, head: 0 });
  const masked = await page.evaluate(() => {
    const text = document.querySelector('[data-role=heatmaps] g.cell.masked text');
    const style = (selector, property) => getComputedStyle(document.querySelector(selector))[property];
    return {
      text: text.textContent,
      ink: getComputedStyle(text).fill,
      back: style('.hatch-bg', 'fill'),
      line: style('.hatch-line', 'stroke'),
    };
  });
  assert.equal(masked.text, '−∞');
  for (const under of [masked.back, masked.line]) {
    assert.ok(
      contrast(masked.ink, under) >= 4.5,
      `masked text ${masked.ink} on ${under}: ${contrast(masked.ink, under)}:1`,
    );
  }
});

test('stage matrices end fully opaque when a re-render comes during their fade-in', async () => {
  const { page } = await short({ step: 1 }, { reducedMotion: false });
  // Step 2 fades its matrices in (400 ms); a new seed re-renders the same operands meanwhile,
  // set in the page the moment Q is seen part-way (a round trip from node could land after the
  // fade). On a loaded machine a frame can take longer than the fade, which then has no middle:
  // step 2 is tried again, up to five times, from step 1.
  let caught = false;
  for (let attempt = 0; attempt < 5 && !caught; attempt++) {
    if (attempt) await set(page, { step: 1 });
    caught = await page.evaluate(
      (seed) =>
        new Promise((resolve) => {
          const { store } = window.attentionExplorer;
          const stage = document.querySelector('[data-role=stage]');
          const midFade = () =>
            [...stage.querySelectorAll('g.operand.matrix')].some((g) => {
              const o = Number(g.getAttribute('opacity'));
              return o > 0 && o < 1 && g.dataset.step === 'q';
            });
          const done = (value) => {
            observer.disconnect();
            clearTimeout(timer);
            resolve(value);
          };
          const observer = new MutationObserver(() => {
            if (!midFade()) return;
            store.set({ seed });
            done(true);
          });
          observer.observe(stage, { attributes: true, attributeFilter: ['opacity'], subtree: true });
          const timer = setTimeout(() => done(false), 3000);
          store.set({ step: 2 });
        }),
      7 + attempt,
    );
  }
  assert.ok(caught, 'a re-render came while Q faded in');
  await settle(page);
  const opacities = await page
    .locator('[data-role=stage] g.operand, [data-role=stage] g.cell')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('opacity') ?? 1)));
  assert.ok(opacities.length > 10);
  assert.deepEqual(
    opacities.filter((o) => o !== 1),
    [],
    'every operand and cell ends at opacity 1',
  );
});

test('the views say which step and head they show when the stage shows another', async () => {
  const { page } = await short({ step: 2, head: 'all' });
  const note = (view) => page.locator(`[data-panel="${view}"] .view-note`);
  await set(page, { view: 'links' });
  assert.match(await note('links').textContent(), /step 7/i, 'links show the weights of step 7');
  await set(page, { view: 'heatmap' });
  assert.match(await note('heatmap').textContent(), /step 4/i, 'the heatmap shows the scores of step 4');
  await set(page, { step: 7 });
  assert.equal(await note('heatmap').isHidden(), true, 'at step 7 the heatmap shows the stage’s step');
  // "All heads" in the views, one head in the stage: the stage says which.
  const stageNote = page.locator('[data-role=stage-note]');
  assert.match(await stageNote.textContent(), /head 1/i);
  await set(page, { head: 1 });
  assert.equal(await stageNote.isHidden(), true);
  await set(page, { lang: 'zh', head: 'all' });
  assert.match(await stageNote.textContent(), /头 ?1/);
});

test('clicking a heatmap cell marks its link and stays in the heatmap', async () => {
  const { page } = await short({ step: 7, view: 'heatmap', head: 'all' });
  const cell = page.locator('[data-role=heatmaps] g.multiple[data-head="1"] g.cell[data-i="2"][data-j="3"]');
  await cell.click();
  await settle(page);
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().view), 'heatmap');
  assert.equal(await page.locator('[data-panel=heatmap]').isVisible(), true);
  assert.ok((await cell.getAttribute('class')).split(' ').includes('picked'), 'the cell is marked');
  assert.equal(await page.locator('[data-role=heatmaps] g.cell.picked').count(), 1);
  // The links view, when opened, shows that link highlighted.
  await set(page, { view: 'links' });
  await linksPainted(page, { pair: true });
  const pairs = (await linkLines(page)).filter((line) => line.pair);
  assert.deepEqual(
    pairs.map(({ h, i, j }) => [h, i, j]),
    [[1, 2, 3]],
  );
});
