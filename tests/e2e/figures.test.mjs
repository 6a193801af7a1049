// Figures for teaching: every number the views and the stage print at 1280 px with 12 tokens is
// whole (never "…") and none runs into its neighbour (step 7's small weights printed as
// "6e−3" side by side read "6e−35e−3"); and a compact figure fills its frame, a 16:9 slide
// (1280×720) and a 900 px column (900×506), scaled up as well as down, on one background.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openPage, screenshotDir, transitionsDone, useBrowser, waitUntil } from './browser.mjs';

const session = useBrowser();
const SENTENCE = 'the cat sat on the mat because it was very tired today'; // 12 tokens
const VIEWS = ['links', 'heatmap', 'matrices', 'softmax'];

// In the page: every printed number of the stage and the open view (cells, bar values, legend
// ticks), and every pair of neighbours in a row whose boxes touch or overlap.
const printedNumbers = () => {
  const shown = (el) => el.getClientRects().length > 0 && !el.closest('[hidden]');
  const numeric = /^[−\-+\d.<>≈∞…k]+$/;
  const texts = [...document.querySelectorAll('[data-role=stage] text, [data-panel]:not([hidden]) text')].filter(
    (t) => shown(t) && numeric.test(t.textContent.trim()) && t.textContent.trim() !== '',
  );
  const rows = new Map();
  for (const t of texts) {
    const r = t.getBoundingClientRect();
    const key = `${Math.round(r.top + r.height / 2)}:${t.closest('g.operand, g.chart, g.multiple, svg')?.outerHTML.length}`;
    if (!rows.has(key)) rows.set(key, []);
    rows.get(key).push({ text: t.textContent, left: r.left, right: r.right });
  }
  const touching = [];
  for (const row of rows.values()) {
    row.sort((a, b) => a.left - b.left);
    for (let k = 1; k < row.length; k++)
      if (row[k - 1].right > row[k].left - 0.5) touching.push(`${row[k - 1].text}|${row[k].text}`);
  }
  return { texts: texts.map((t) => t.textContent), touching };
};

test('at 1280 px with 12 tokens, no view and no step prints "…", an exponent, or numbers that run together', async () => {
  // Without motion: the steps' entry animations are the page's, not what it prints.
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    const failures = [];
    let counted = 0;
    // The default run, and one whose sharper weights are mostly under 0.01 (d_model 64, one
    // head, causal): where step 7 printed "6e−3" in cells side by side.
    for (const [view, options] of [
      ...VIEWS.map((view) => [view, '']),
      ...VIEWS.map((view) => [view, '&d=64&h=1&mask=causal&t=0.5']),
    ]) {
      // One page a view, stepped through by its stepper (a page load a step took 100 s).
      await page.goto(`${session.url}?s=${encodeURIComponent(SENTENCE)}&step=1&view=${view}&lang=en${options}`);
      await page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });
      for (let step = 1; step <= 10; step++) {
        if (step > 1) {
          await page.click('.stepper .next');
          await page.waitForFunction((step) => window.attentionExplorer.store.get().step === step, step);
        }
        await transitionsDone(page);
        // The numbers a keystroke's redraw writes after its frame are in by the next one.
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
        );
        const { texts, touching } = await page.evaluate(printedNumbers);
        counted += texts.length;
        const where = `${view}${options}, step ${step}`;
        const hidden = texts.filter((t) => t.includes('…'));
        const exponents = texts.filter((t) => /\de[−\-+]?\d/.test(t));
        if (hidden.length) failures.push(`${where}: ${hidden.length} numbers are "…"`);
        if (exponents.length) failures.push(`${where}: exponents ${exponents.slice(0, 5).join(' ')}`);
        if (touching.length) failures.push(`${where}: run together ${touching.slice(0, 5).join(' ')}`);
      }
    }
    assert.ok(counted > 5000, `only ${counted} numbers read: the test reads the wrong elements`);
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// The figure's box: every visible drawn thing of the panel shown (texts, cells, canvases,
// buttons), in the window's pixels; and the caption's.
const figureLayout = () => {
  const panel = document.querySelector('[data-panel]:not([hidden])');
  const shown = (el) =>
    el.getClientRects().length > 0 && !el.closest('[hidden]') && getComputedStyle(el).visibility !== 'hidden';
  const parts = [...panel.querySelectorAll('text, rect, canvas, image, button, input, span, i')].filter(shown);
  // Within what shows it: a drawing's box clips its svg's room to spare below (views/fit.js).
  const boxes = parts
    .map((el) => {
      const r = el.getBoundingClientRect();
      const clip = el.closest('.svg-fit')?.getBoundingClientRect();
      const bottom = clip ? Math.min(r.bottom, clip.bottom) : r.bottom;
      return { left: r.left, right: r.right, top: r.top, bottom, width: r.width, height: bottom - r.top };
    })
    .filter((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0);
  const box = {
    left: Math.min(...boxes.map((r) => r.left)),
    top: Math.min(...boxes.map((r) => r.top)),
    right: Math.max(...boxes.map((r) => r.right)),
    bottom: Math.max(...boxes.map((r) => r.bottom)),
  };
  const caption = document.querySelector('.figure-caption').getBoundingClientRect();
  const color = (el) => getComputedStyle(el).backgroundColor;
  return {
    box,
    caption: { top: caption.top, bottom: caption.bottom, text: document.querySelector('.figure-caption').textContent },
    scroll: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
    backgrounds: [color(document.body), color(document.querySelector('.attention-explorer'))],
  };
};

for (const [width, height, name] of [
  [1280, 720, 'compact-slide-1280x720'],
  [900, 506, 'compact-column-900x506'],
]) {
  test(`compact figures fill a ${width}×${height} frame, every view, on one background`, async () => {
    const context = await session.browser.newContext({ viewport: { width, height } });
    try {
      const page = await context.newPage();
      const report = [];
      for (const view of VIEWS) {
        const lang = view === 'links' || view === 'heatmap' ? 'zh' : 'en';
        await page.goto(
          `${session.url}embed.html?compact=1&view=${view}&step=7&lang=${lang}&s=${encodeURIComponent('猫追着球跑')}`,
        );
        await page.waitForSelector('.figure-caption');
        await transitionsDone(page);
        // Fitted once the drawing settles: wait until two reads a frame apart agree.
        const layout = await waitUntil(async () => {
          const a = await page.evaluate(figureLayout);
          await page.waitForTimeout(150);
          const b = await page.evaluate(figureLayout);
          return a.caption.text.includes('猫 追 着 球 跑') && JSON.stringify(a.box) === JSON.stringify(b.box) && b;
        }, `the ${view} figure settles`);
        const { box, caption, scroll, backgrounds } = layout;
        // The frame less its caption's line (not up to the caption: a caption under a small
        // figure is high up the frame).
        const room = { width, height: height - (caption.bottom - caption.top) };
        const w = (box.right - box.left) / room.width;
        const h = (box.bottom - box.top) / room.height;
        report.push(`${view} ${Math.round(w * 100)}% × ${Math.round(h * 100)}%`);
        // Inside the frame, above its caption, with no scrolling.
        assert.ok(box.left >= -1 && box.right <= width + 1, `${view}: ${JSON.stringify(box)} leaves the frame`);
        assert.ok(box.top >= -1 && box.bottom <= caption.top + 1, `${view}: ${JSON.stringify(box)} covers the caption`);
        assert.ok(caption.bottom <= height + 1, `${view}: the caption is below the frame`);
        assert.ok(scroll.width <= width && scroll.height <= height, `${view} scrolls: ${JSON.stringify(scroll)}`);
        // Filled: the figure reaches the frame in the dimension its shape limits (≥ 90 %),
        // and the links, which take the frame's shape, in both.
        assert.ok(Math.max(w, h) >= 0.9, `${view} fills ${report.at(-1)} of the frame`);
        if (view === 'links') assert.ok(Math.min(w, h) >= 0.85, `the links fill ${report.at(-1)}`);
        else assert.ok(Math.min(w, h) >= 0.4, `${view} fills ${report.at(-1)}`);
        // One background: the page's and the figure's are the same colour.
        assert.equal(backgrounds[0], backgrounds[1], `${view}: two backgrounds`);
        if ((view === 'matrices' && width === 1280) || (view === 'heatmap' && width === 900))
          await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
      }
      console.log(`${width}×${height}: ${report.join(', ')}`);
    } finally {
      await context.close();
    }
  });
}

test('Copy embed code offers the explorer and the compact figure for a slide and a column, each previewed', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.url).origin });
  try {
    const page = await context.newPage();
    await page.goto(`${session.url}?s=${encodeURIComponent('猫追着球跑')}&step=7&view=heatmap&lang=zh`);
    await page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.click('[data-role=copy-embed]');
    // The explorer's code is copied at once, as before.
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t.includes('<iframe')));
    assert.match(await clipboard(), /controls=0/);
    const choices = page.locator('[data-role=embed-choices]');
    await choices.waitFor({ state: 'visible' });
    const options = await choices.locator('.embed-option').evaluateAll((els) =>
      els.map((el) => ({
        key: el.dataset.embed,
        label: el.querySelector('h3').textContent,
        code: el.querySelector('textarea').value,
        preview: el.querySelector('iframe').getAttribute('src'),
      })),
    );
    assert.deepEqual(
      options.map((o) => o.key),
      ['full', 'slide', 'column'],
    );
    assert.match(options[1].label, /16:9/);
    assert.match(options[2].label, /900/);
    for (const [k, size] of [
      [1, [1280, 720]],
      [2, [900, 506]],
    ]) {
      const src = options[k].code.match(/src="([^"]*)"/)[1].replace(/&amp;/g, '&');
      const url = new URL(src);
      assert.equal(url.searchParams.get('compact'), '1');
      assert.equal(url.searchParams.get('view'), 'heatmap');
      assert.equal(url.searchParams.get('lang'), 'zh');
      assert.match(options[k].code, new RegExp(`width="${size[0]}" height="${size[1]}"`));
      assert.equal(new URL(options[k].preview).searchParams.get('compact'), '1');
    }
    // Each preview is the embed itself: the figures show their caption, the explorer its stage.
    for (const key of ['slide', 'column']) {
      const frame = page.frameLocator(`.embed-option[data-embed=${key}] iframe`);
      await frame.locator('.figure-caption').filter({ hasText: '热力图 · 7.' }).waitFor({ timeout: 20000 });
    }
    await page
      .frameLocator('.embed-option[data-embed=full] iframe')
      .locator('[data-role=stage] g.operand')
      .first()
      .waitFor({ timeout: 20000 });
    // Its Copy button copies that figure's code.
    await page.click('.embed-option[data-embed=column] button');
    await page.waitForFunction(() => navigator.clipboard.readText().then((t) => t.includes('compact=1')));
    assert.equal(await clipboard(), options[2].code);
    await page.screenshot({ path: path.join(screenshotDir, 'embed-choices-zh.png') });
    await page.click('[data-role=embed-close]');
    assert.equal(await choices.isVisible(), false);
    assert.equal(await page.locator('.embed-option iframe').count(), 0, 'closed, the previews are gone');
  } finally {
    await context.close();
  }
});

test('an exported figure is cropped to its drawing: no blank two thirds beside it', async () => {
  const { page, context, problems } = await openPage(session.browser, 'about:blank', {
    viewport: { width: 1280, height: 900 },
  });
  try {
    const report = [];
    for (const view of VIEWS) {
      await page.goto(`${session.url}?s=${encodeURIComponent('猫追着球跑')}&step=7&view=${view}&lang=zh`);
      await page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });
      await transitionsDone(page);
      // The figure drawn on a canvas as the PNG export draws it: how far right its ink reaches.
      const { width, inked } = await page.evaluate(async () => {
        const text = window.attentionExplorer.viewSVG();
        const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
        const image = new Image();
        image.src = url;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d');
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        let right = 0;
        for (let y = 0; y < canvas.height; y++)
          for (let x = canvas.width - 1; x > right; x--) {
            const k = (y * canvas.width + x) * 4;
            if (data[k] < 235 || data[k + 1] < 235 || data[k + 2] < 235) {
              right = x;
              break;
            }
          }
        URL.revokeObjectURL(url);
        return { width: canvas.width, inked: right + 1 };
      });
      report.push(`${view}: ${inked}/${width}`);
      // Five tokens' heatmaps and links are far narrower than the 1,240 px panel they are drawn in.
      if (view === 'heatmap' || view === 'links') assert.ok(width < 900, `${view}: the figure is ${width} px wide`);
      assert.ok(inked >= 0.9 * width, `${view}: ink reaches ${inked} of ${width} px`);
    }
    console.log(report.join(', '));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
