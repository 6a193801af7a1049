// A figure exported from the dark page is drawn on white: its marks — links, bars,
// head swatches — take the light page's colours, each with at least 3:1 contrast on the figure's
// white background; none keeps a colour made for the dark panel (near-white head 8, the
// lightened orange and sky blue).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerStarted as started, transitionsDone, useBrowser } from './browser.mjs';
import { contrast } from './readable.mjs';
import { HEAD_COLORS, HEAD_COLORS_DARK } from '../../web/src/scales.js';

const session = useBrowser();
const lower = (list) => new Set(list.map((c) => c.toLowerCase()));
const darkOnly = [...lower(HEAD_COLORS_DARK)].filter((c) => !lower(HEAD_COLORS).has(c));

/** The colours of a figure's head-coloured marks and of all its marks (in the page: self-contained). */
function figureMarks(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const background = doc.querySelector('svg > rect').getAttribute('fill');
  const marks = [];
  for (const node of doc.querySelectorAll('line, rect, path, circle')) {
    if (node.parentNode === doc.documentElement && node.tagName === 'rect' && node.getAttribute('width') === '100%')
      continue;
    for (const name of ['fill', 'stroke']) {
      const value = node.getAttribute(name) || node.style?.[name] || '';
      if (/^#[0-9a-f]{6}$/i.test(value))
        marks.push({ tag: node.tagName, cls: node.getAttribute('class') ?? '', value: value.toLowerCase() });
    }
  }
  return { background, marks };
}

test('dark mode: the links and softmax views’ SVG figures have light-page colours on their white background', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const page = await context.newPage();
  // Four heads: orange, green and pink beside blue.
  await page.goto(`${session.url}?lang=en&h=4&view=links&step=7`);
  await started(page);
  assert.ok(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches));
  for (const view of ['links', 'softmax']) {
    await page.evaluate((view) => window.attentionExplorer.store.set({ view }), view);
    await page.evaluate(() => window.attentionExplorer.idle());
    await transitionsDone(page);
    const text = await page.evaluate(() => window.attentionExplorer.viewSVG());
    const { background, marks } = await page.evaluate(figureMarks, text);
    assert.equal(background, '#ffffff', view);
    const headMarks = marks.filter((m) => lower(HEAD_COLORS).has(m.value) || darkOnly.includes(m.value));
    assert.ok(headMarks.length > 0, `the ${view} figure has head-coloured marks`);
    for (const m of headMarks) {
      assert.ok(!darkOnly.includes(m.value), `${view}: ${m.tag}.${m.cls} keeps the dark page's ${m.value}`);
      assert.ok(contrast(m.value, background) >= 3, `${view}: ${m.tag}.${m.cls} ${m.value} on ${background}`);
    }
  }
  await context.close();
});
