// A teacher's figure-sized embed. compact=1 (the embed page) or the compact
// attribute (the web component) shows one view and its caption, and fits a slide at 16:9 and a
// 900 px column without scrolling, whichever view, in both languages; the caption and the
// exported figure's subtitle speak the page's language.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { screenshotDir, useBrowser, waitUntil } from './browser.mjs';

const session = useBrowser();
// One context for the file (a new one costs seconds): each test opens its page in it at its size.
let shared = null;
after(() => shared?.close());
/** A page of the shared context at width × height; closed by the test. */
async function pageOf(width, height) {
  shared ??= await session.browser.newContext();
  const page = await shared.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

// What the page shows, read in the frame: the document's size, the visible parts, the caption.
const layout = () => {
  const shown = (el) =>
    el && !el.closest('[hidden]') && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
  return {
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    panels: [...document.querySelectorAll('[data-panel]')].filter(shown).map((p) => p.dataset.panel),
    parts: ['.stepper', '.stage-row', '.explain', '.input', '.controls', '.view-bar', 'header.top'].filter((s) =>
      shown(document.querySelector(s)),
    ),
    caption: shown(document.querySelector('.figure-caption'))
      ? document.querySelector('.figure-caption').textContent
      : null,
  };
};

for (const [width, height, what] of [
  [900, 506, 'a 900 px column at 16:9'],
  [1280, 720, 'a 16:9 slide'],
]) {
  test(`compact=1 fits ${what} (${width}×${height}) with one view and its caption, every view`, async () => {
    const page = await pageOf(width, height);
    try {
      // The matrices view of the default is over 1,100 px tall at these widths: it must scale.
      for (const [view, lang, title] of [
        ['links', 'en', 'Links'],
        ['heatmap', 'zh', '热力图'],
        ['matrices', 'en', 'Matrices'],
        ['softmax', 'zh', 'Softmax 与缩放'],
      ]) {
        await page.goto(
          `${session.url}embed.html?compact=1&view=${view}&step=7&lang=${lang}&s=${encodeURIComponent('猫追着球跑')}`,
        );
        const seen = await waitUntil(async () => {
          const l = await page.evaluate(layout);
          return l.caption?.includes('猫 追 着 球 跑') && l.scrollHeight <= height && l;
        }, `the ${view} figure fits ${height} px`).catch(async (error) => {
          throw new Error(`${error.message}: ${JSON.stringify(await page.evaluate(layout))}`);
        });
        assert.deepEqual(seen.panels, [view], 'one view');
        assert.deepEqual(seen.parts, [], 'nothing but the view and its caption');
        assert.ok(seen.scrollWidth <= width, `no horizontal scroll (${seen.scrollWidth} px)`);
        assert.ok(seen.caption.startsWith(`${title} · 7.`), seen.caption);
        if (lang === 'zh') assert.match(seen.caption, /随机权重，d_model 8，2 个头，随机种子 42，掩码：无/);
        else assert.match(seen.caption, /random weights, d_model 8, 2 heads, seed 42, mask: none/);
        if (view === 'matrices')
          await page.screenshot({ path: path.join(screenshotDir, `compact-${width}-matrices.png`) });
      }
    } finally {
      await page.close();
    }
  });
}

test('the compact attribute of the web component shows one view; viewSVG speaks the page’s language', async () => {
  const page = await pageOf(900, 506);
  try {
    const html = `<!doctype html><html lang="zh"><head><meta charset="utf-8">
<script type="module" src="${session.url}attention-explorer.js"></script></head>
<body style="margin:0"><attention-explorer compact view="heatmap" sentence="我 爱 吃 火锅"></attention-explorer></body></html>`;
    await page.route(`${session.url}course.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await page.goto(`${session.url}course.html`);
    const element = page.locator('attention-explorer');
    await page.waitForFunction(
      () => document.querySelector('attention-explorer').shadowRoot?.querySelector('g.cell'),
      null,
      {
        timeout: 20000,
      },
    );
    const seen = await element.evaluate((e) => {
      const shown = (el) => el && getComputedStyle(el).display !== 'none' && el.getClientRects().length > 0;
      const root = e.shadowRoot;
      return {
        stepper: shown(root.querySelector('.stepper')),
        controls: shown(root.querySelector('.controls')),
        caption: root.querySelector('.figure-caption').textContent,
        svg: e.explorer.viewSVG(),
      };
    });
    assert.equal(seen.stepper, false);
    assert.equal(seen.controls, false);
    assert.match(seen.caption, /^热力图 · /);
    // The exported figure's subtitle was English on a Chinese page.
    assert.match(seen.svg, /我 爱 吃 火锅 · 随机权重，d_model 8，2 个头/);
    assert.doesNotMatch(seen.svg, /heads, seed/);
  } finally {
    await page.close();
  }
});

// The figure as a teacher uses it: an iframe of the compact embed in a 900 px course column,
// text above and below, in each language; the screenshot is the course page as a student sees it.
for (const [lang, sentence, heading] of [
  ['en', 'the cat sat on the mat because it was tired', 'Week 3: what a head attends to'],
  ['zh', '小猫坐在垫子上因为它很累', '第三周：一个注意力头看向哪里'],
]) {
  test(`a compact embed on a course page fits its 900 × 506 frame (${lang})`, async () => {
    const page = await pageOf(1000, 900);
    try {
      const src = `${session.url}embed.html?compact=1&view=links&step=7&lang=${lang}&s=${encodeURIComponent(sentence)}`;
      const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${heading}</title></head>
<body style="margin:0;font:16px/1.5 sans-serif;background:#fff"><article style="max-width:900px;margin:24px auto">
<h1 style="font-size:24px">${heading}</h1><p>${lang === 'zh' ? '先读下面的图，再回答问题：“它”主要看向哪个词？' : 'Read the figure below, then answer: which word does “it” attend to most?'}</p>
<iframe src="${src}" width="900" height="506" style="border:1px solid #ccc" title="${heading}"></iframe>
<p>${lang === 'zh' ? '提示：线越粗，权重越大。' : 'Hint: the thicker the line, the larger the weight.'}</p></article></body></html>`;
      await page.route(`${session.url}course-${lang}.html`, (route) =>
        route.fulfill({ contentType: 'text/html', body: html }),
      );
      await page.goto(`${session.url}course-${lang}.html`);
      const frame = page.frameLocator('iframe');
      await frame.locator('.figure-caption').waitFor();
      const inner = page.frames().find((f) => f.url().includes('embed.html'));
      const seen = await waitUntil(async () => {
        const l = await inner.evaluate(layout);
        return l.caption?.includes(lang === 'zh' ? '随机权重' : 'random weights') && l.scrollHeight <= 506 && l;
      }, `the figure fits its frame (${lang})`);
      assert.deepEqual(seen.panels, ['links']);
      assert.ok(seen.scrollWidth <= 900, `no horizontal scroll (${seen.scrollWidth} px)`);
      await page.screenshot({ path: path.join(screenshotDir, `compact-course-${lang}.png`) });
    } finally {
      await page.close();
    }
  });
}
