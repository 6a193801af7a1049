// The playground's charts (loss, accuracy, the √d_k experiment's) keep their text
// readable: scaled through a wider viewBox their legends rendered at 7–9 px. Every chart text,
// at 1280 and 390 px, renders at 11 px or more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';

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

for (const width of [1280, 390]) {
  test(`the playground's chart texts are at least 11 px at ${width} px`, async () => {
    const context = await session.browser.newContext({ viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(`${session.url}playground.html?task=sort&lang=zh`);
      await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 30000 });
      await page.click('[data-role=play]');
      await page.waitForFunction(() => window.attentionPlayground.history.loss.length >= 20, null, { timeout: 60000 });
      const counted = await page.evaluate(() => document.querySelectorAll('svg.pg-chart .legend-item text').length);
      assert.ok(counted >= 2, `${counted} legend texts`);
      assert.deepEqual(await page.evaluate(smallTexts), []);
    } finally {
      await context.close();
    }
  });
}
