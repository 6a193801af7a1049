// The playground's texts keep their size and fit, at 1280 and 390 px, in both languages: its
// charts (loss, accuracy), scaled through a wider viewBox, once rendered their legends at 7–9 px;
// every chart text renders at 11 px or more. The task select shows every task's whole name. One
// page: trained once, then resized and switched between the languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './browser.mjs';

const session = useBrowser();

// [text, rendered px] of every chart text under 10.5 px: its font size times its svg's scale.
const smallTexts = () =>
  [...document.querySelectorAll('svg.pg-chart text')]
    .filter((t) => t.textContent.trim() && t.getClientRects().length)
    .map((t) => {
      const svg = t.ownerSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return [t.textContent, Math.round(parseFloat(getComputedStyle(t).fontSize) * scale * 10) / 10];
    })
    .filter(([, px]) => px < 10.5);

// Each option's text in the select's own font, plus room for the padding and the arrow.
const selectFit = () => {
  const select = document.querySelector('[data-role=task]');
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = getComputedStyle(select).font;
  const widest = Math.max(...[...select.options].map((o) => ctx.measureText(o.text).width));
  return { widest, room: select.clientWidth - 32 };
};

const TITLES = { en: 'Attention Playground', zh: '注意力训练场' };

test('chart texts are at least 11 px and the task select shows every task’s whole name, at 1280 px and on a phone, in both languages', async () => {
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}playground.html?task=sort&lang=zh`,
    {
      viewport: { width: 1280, height: 900 },
    },
  );
  try {
    await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
    await page.click('[data-role=play]');
    await page.waitForFunction(() => window.attentionPlayground.history.loss.length >= 20, null, { timeout: 60000 });
    await page.click('[data-role=play]');
    await page.waitForSelector('[data-role=play][aria-pressed=false]');
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      for (const lang of ['zh', 'en']) {
        await page.click(`[data-lang=${lang}]`);
        await page.waitForFunction((title) => document.querySelector('h1').textContent === title, TITLES[lang]);
        // The charts redraw in the next frame (frame-parts.js); two frames and they are drawn.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const where = `${width} px, ${lang}`;
        const counted = await page.evaluate(() => document.querySelectorAll('svg.pg-chart .legend-item text').length);
        assert.ok(counted >= 2, `${where}: ${counted} legend texts`);
        assert.deepEqual(await page.evaluate(smallTexts), [], where);
        const fit = await page.evaluate(selectFit);
        assert.ok(fit.widest <= fit.room, `${where}: ${JSON.stringify(fit)}`);
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
