// A compact figure as a teacher drops it into a slide (1280×720) or a 900 px column (900×506):
// for every view of the registry, Chinese and English sentences, one, two and four heads where
// the view shows heads, its drawing fills the frame in one dimension at least and is centred in
// both, leaves no large empty band inside its box (a legend at the top right of a matrix left
// one under it), clips nothing, prints no text under 12 px and no label over another, and stands
// every CJK label upright. So does an exported figure's CJK. Measured in Chromium from the
// boxes the page lays out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { screenshotDir, transitionsDone, useBrowser, waitUntil } from './browser.mjs';
import { VIEW_KEYS } from '../../web/src/views/registry.js';

const session = useBrowser();
const SENTENCES = [
  ['zh', '我 爱 吃 火锅'],
  ['zh', '猫追着球跑'],
  ['en', 'the cat sat on the mat and slept'],
];
// The views that draw every head (the others draw one head's numbers).
const HEADS_SHOWN = new Set(['links', 'heatmap']);
// Samples across the drawing's box for its empty bands.
const GRID = { cols: 64, rows: 36 };

// In the page: the drawing of the view shown, as the window shows it.
const measure = ({ cols, rows }) => {
  const panel = document.querySelector('[data-panel]:not([hidden])');
  const shown = (el) =>
    el.getClientRects().length > 0 && !el.closest('[hidden]') && getComputedStyle(el).visibility !== 'hidden';
  const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
  // What draws: marks and texts (svg), canvases, and the HTML of the figure (buttons, legends).
  const marks = [
    ...panel.querySelectorAll('text, rect, line, path, circle, image, canvas, button, input, span'),
  ].filter(shown);
  const problems = [];
  const parts = [];
  for (const el of marks) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 && r.height <= 0) continue;
    // Clipped: past the box that shows its drawing (views/fit.js clips an svg's room below).
    const clip = el.closest('.svg-fit')?.getBoundingClientRect();
    if (clip && el.tagName !== 'CANVAS' && r.bottom > clip.bottom + 1 && r.top < clip.bottom)
      problems.push(`clipped: ${el.tagName}.${el.getAttribute('class')} "${el.textContent.slice(0, 20)}"`);
    if (clip && r.top >= clip.bottom) continue;
    // (A canvas keeps room to spare below its drawing, clipped on purpose: link-lines.js.)
    const bottom = clip && el.tagName === 'CANVAS' ? Math.min(r.bottom, clip.bottom) : r.bottom;
    parts.push({ left: r.left, top: r.top, right: r.right, bottom });
  }
  const box = {
    left: Math.min(...parts.map((r) => r.left)),
    top: Math.min(...parts.map((r) => r.top)),
    right: Math.max(...parts.map((r) => r.right)),
    bottom: Math.max(...parts.map((r) => r.bottom)),
  };
  // The largest empty rectangle of a grid of samples over the box (a share of the box).
  const w = (box.right - box.left) / cols;
  const h = (box.bottom - box.top) / rows;
  const heights = new Array(cols).fill(0);
  let empty = 0;
  for (let i = 0; i < rows; i++) {
    const y0 = box.top + i * h;
    for (let j = 0; j < cols; j++) {
      const x0 = box.left + j * w;
      const hit = parts.some((r) => r.left < x0 + w && r.right > x0 && r.top < y0 + h && r.bottom > y0);
      heights[j] = hit ? 0 : heights[j] + 1;
    }
    // The largest rectangle under the histogram of empty runs ending at row i.
    const stack = [];
    for (let j = 0; j <= cols; j++) {
      const height = j < cols ? heights[j] : 0;
      while (stack.length && heights[stack.at(-1)] >= height) {
        const top = heights[stack.pop()];
        const left = stack.length ? stack.at(-1) + 1 : 0;
        empty = Math.max(empty, top * (j - left));
      }
      stack.push(j);
    }
  }
  // Texts: their size as shown (font size × the scale of what draws them), their boxes, and
  // whether a CJK one is turned.
  const panelScale = panel.getBoundingClientRect().width / panel.offsetWidth;
  const texts = [...panel.querySelectorAll('text, button, label > span')]
    .filter(shown)
    .filter((t) => t.textContent.trim() !== '' && !t.querySelector('text'));
  const sizes = [];
  const boxes = [];
  const turned = [];
  for (const t of texts) {
    const svg = t instanceof SVGElement;
    const m = svg ? t.getScreenCTM() : null;
    const scale = svg ? Math.hypot(m.a, m.b) : panelScale;
    sizes.push({ text: t.textContent.trim().slice(0, 16), px: parseFloat(getComputedStyle(t).fontSize) * scale });
    const r = t.getBoundingClientRect();
    boxes.push({ text: t.textContent.trim().slice(0, 16), left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    if (CJK.test(t.textContent)) {
      const sideways = svg ? Math.abs(m.b) > 1e-3 * scale || Math.abs(m.c) > 1e-3 * scale : false;
      const orientation = getComputedStyle(t).textOrientation;
      if (sideways || orientation === 'sideways') turned.push(t.textContent.trim());
    }
  }
  // Labels over labels: boxes that overlap by more than a sliver (a tenth of the smaller).
  const overlaps = [];
  for (let a = 0; a < boxes.length; a++)
    for (let b = a + 1; b < boxes.length; b++) {
      const [p, q] = [boxes[a], boxes[b]];
      const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      const least = Math.min((p.right - p.left) * (p.bottom - p.top), (q.right - q.left) * (q.bottom - q.top));
      if (x > 1 && y > 1 && x * y > 0.1 * least) overlaps.push(`"${p.text}" / "${q.text}"`);
    }
  const caption = document.querySelector('.figure-caption');
  // Each token labels a row of a grid (the matrices' step 2 Q showed no tokens; thinned labels
  // named every other one): the tokens as the caption lists them, before its " · ".
  const strong = caption.querySelector('strong')?.textContent ?? '';
  const tokens = caption.textContent.slice(strong.length).trim().split(' · ')[0].split(' ');
  const rowLabels = [...panel.querySelectorAll('text.row-label')].filter(shown).map((t) => t.textContent);
  return {
    unlabelled: panel.querySelector('g.cells') ? tokens.filter((t) => !rowLabels.includes(t)) : [],
    box,
    empty: empty / (cols * rows),
    problems,
    small: sizes.filter((s) => s.px < 11.95),
    overlaps,
    turned,
    captionTop: caption.getBoundingClientRect().top,
    captionText: caption.textContent,
    scroll: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
  };
};

const cases = [
  ...VIEW_KEYS.flatMap((view) =>
    SENTENCES.flatMap(([lang, sentence]) =>
      (HEADS_SHOWN.has(view) ? [1, 2, 4] : [2]).map((heads) => ({ view, lang, sentence, heads, extra: '&step=7' })),
    ),
  ),
  // Other steps' matrices (Q, S, O) and hatched cells with their key.
  ...['&step=2', '&step=4', '&step=10', '&step=7&mask=causal'].flatMap((extra) =>
    ['matrices', 'heatmap'].map((view) => ({ view, lang: 'zh', sentence: '猫追着球跑', heads: 2, extra })),
  ),
];

for (const [width, height] of [
  [1280, 720],
  [900, 506],
]) {
  test(`compact figures fill ${width}×${height}, centred, no empty band, nothing clipped, text ≥ 12 px, CJK upright`, async () => {
    const context = await session.browser.newContext({ viewport: { width, height } });
    try {
      const page = await context.newPage();
      const failures = [];
      const report = [];
      for (const { view, lang, sentence, heads, extra } of cases) {
        const name = `${view} ${lang} "${sentence}" ${heads}h${extra}`;
        await page.goto(
          `${session.url}embed.html?compact=1&view=${view}${extra}&h=${heads}&lang=${lang}&s=${encodeURIComponent(sentence)}`,
        );
        await page.waitForSelector('.figure-caption');
        await transitionsDone(page);
        // Fitted once the drawing settles: two reads a frame apart agree.
        const seen = await waitUntil(async () => {
          const a = await page.evaluate(measure, GRID);
          await page.waitForTimeout(120);
          const b = await page.evaluate(measure, GRID);
          return (
            b.captionText.includes(lang === 'zh' ? '随机权重' : 'random weights') &&
            Number.isFinite(b.box.left) &&
            JSON.stringify(a.box) === JSON.stringify(b.box) &&
            b
          );
        }, `the ${name} figure settles`);
        const { box, captionTop } = seen;
        // The frame less its caption's line.
        const fill = { w: (box.right - box.left) / width, h: (box.bottom - box.top) / captionTop };
        const margins = { left: box.left, right: width - box.right, top: box.top, bottom: captionTop - box.bottom };
        report.push(
          `${view} ${lang} ${heads}h${extra}: ${Math.round(fill.w * 100)}%×${Math.round(fill.h * 100)}% empty ${Math.round(seen.empty * 100)}%`,
        );
        const fail = (what) => failures.push(`${name}: ${what}`);
        if (Math.max(fill.w, fill.h) < 0.9)
          fail(`fills ${Math.round(fill.w * 100)}% × ${Math.round(fill.h * 100)}% of the frame`);
        // Centred: its margins on either side differ by at most 4 % of the frame (and a few px).
        if (Math.abs(margins.left - margins.right) > 0.04 * width + 4)
          fail(`margins left ${Math.round(margins.left)} right ${Math.round(margins.right)}`);
        if (Math.abs(margins.top - margins.bottom) > 0.04 * captionTop + 8)
          fail(`margins top ${Math.round(margins.top)} bottom ${Math.round(margins.bottom)}`);
        if (seen.empty > 0.2) fail(`an empty band of ${Math.round(seen.empty * 100)}% of its box`);
        if (box.left < -1 || box.right > width + 1 || box.top < -1 || box.bottom > captionTop + 1)
          fail(`leaves its frame: ${JSON.stringify(box)}`);
        if (seen.scroll.width > width || seen.scroll.height > height) fail(`scrolls ${JSON.stringify(seen.scroll)}`);
        for (const problem of seen.problems.slice(0, 3)) fail(problem);
        if (seen.small.length)
          fail(
            `${seen.small.length} texts under 12 px: ${seen.small.slice(0, 3).map((s) => `${s.text} ${s.px.toFixed(1)}`)}`,
          );
        if (seen.overlaps.length) fail(`labels overlap: ${seen.overlaps.slice(0, 3).join(', ')}`);
        if (seen.turned.length) fail(`CJK on its side: ${seen.turned.slice(0, 5).join(' ')}`);
        if (seen.unlabelled.length) fail(`rows without their token: ${seen.unlabelled.join(' ')}`);
        if (heads === 2 && sentence === '猫追着球跑' && extra === '&step=7')
          await page.screenshot({ path: path.join(screenshotDir, `compact-fill-${view}-${width}x${height}.png`) });
      }
      console.log(`${width}×${height}:\n  ${report.join('\n  ')}`);
      assert.deepEqual(failures, []);
    } finally {
      await context.close();
    }
  });
}

// An exported figure (SVG, and the PNG drawn from it) stands its CJK labels upright as well: it
// carries its own rules for them (explorer/export.js), and is laid out here without the page's.
test('an exported figure stands every CJK label upright', async () => {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const turned = [];
    let counted = 0;
    for (const view of VIEW_KEYS) {
      await page.goto(`${session.url}?s=${encodeURIComponent('猫追着球跑 火锅')}&view=${view}&step=7&lang=zh`);
      await page.waitForSelector('[data-role=stage] g.operand', { timeout: 15000 });
      await transitionsDone(page);
      const svg = await page.evaluate(() => window.attentionExplorer.viewSVG());
      const figure = await context.newPage();
      await figure.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
      const seen = await figure.evaluate(() => {
        const CJK = /[\p{sc=Han}]/u;
        return [...document.querySelectorAll('text')]
          .filter((t) => CJK.test(t.textContent) && t.getClientRects().length > 0)
          .map((t) => {
            const m = t.getScreenCTM();
            return { text: t.textContent, turned: Math.abs(m.b) > 1e-3 || Math.abs(m.c) > 1e-3 };
          });
      });
      await figure.close();
      counted += seen.length;
      turned.push(...seen.filter((s) => s.turned).map((s) => `${view}: ${s.text}`));
    }
    assert.ok(counted >= 20, `only ${counted} CJK texts in the exported figures: the test reads the wrong ones`);
    assert.deepEqual(turned, []);
  } finally {
    await context.close();
  }
});
