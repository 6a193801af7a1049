// What a learner reads where the page asks them to check the arithmetic: step 4 prints every
// number of Q₁, K₁ᵀ and S₁ (no "…"), each agreeing with the engine's value to the digits it
// shows, at 1280 and 390 px, with screenshots in both languages. (That tutorial mode's texts
// describe its own computation is tests/node/step-texts.test.mjs's, without a page; the page in
// tutorial mode is tests/e2e/teaching.test.mjs's.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, transitionsDone, useBrowser, explorerStarted as started } from './browser.mjs';

const session = useBrowser();
const SENTENCE = '小猫坐在垫子上因为它很累';

/**
 * The largest error a shown cell text allows: half a unit of its last digit ("1.22" → 0.005,
 * "−.06" → 0.005, "4e−4" → 0.5e−4, "≈0" → 0.05). null for a text that is not a number.
 */
function tolerance(text) {
  if (text === '≈0') return 0.05;
  const m = /^−?(\d*)(?:\.(\d+))?(?:e(−?\d+))?$/.exec(text);
  if (!m || (!m[1] && !m[2])) return null;
  const exponent = m[3] ? Number(m[3].replace('−', '-')) : 0;
  return 0.5 * 10 ** (exponent - (m[2]?.length ?? 0));
}
const valueOf = (text) => (text === '≈0' ? 0 : Number(text.replace(/−/g, '-').replace(/^(-?)\./, '$10.')));

for (const width of [1280, 390]) {
  test(`step 4 at ${width} px: every number of Q₁, K₁ᵀ and S₁ is printed, to the engine's value`, async () => {
    const { page, context, problems } = await openPage(
      session.browser,
      `${session.url}?s=${encodeURIComponent(SENTENCE)}&step=4&lang=en`,
      { viewport: { width, height: 844 } },
    );
    await started(page);
    await transitionsDone(page);
    const cells = await page.$$eval('[data-role=stage] g.operand g.cell', (groups) =>
      groups.map((g) => ({ value: Number(g.getAttribute('data-value')), text: g.querySelector('text')?.textContent })),
    );
    // 8 tokens, d_k 4: Q₁ 8 × 4, K₁ᵀ 4 × 8, S₁ 8 × 8.
    assert.equal(cells.length, 128);
    const hidden = cells.filter((c) => c.text === '…' || !c.text);
    assert.equal(hidden.length, 0, `${hidden.length} cells hide their number`);
    for (const { value, text } of cells) {
      const allowed = tolerance(text);
      assert.notEqual(allowed, null, `"${text}" is a number`);
      assert.ok(Math.abs(valueOf(text) - value) <= allowed * 1.0001, `"${text}" shows ${value}`);
      // Two significant digits at least where the value has them (1.22 is not "1").
      if (Math.abs(value) >= 0.1 && Math.abs(value) < 10) assert.ok(allowed <= 0.05, `"${text}" for ${value}`);
    }
    await screenshot(page, `step4-${width}-en`);
    await page.click('.language button[data-lang="zh"]');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.evaluate(() => window.attentionExplorer.idle());
    await transitionsDone(page);
    await screenshot(page, `step4-${width}-zh`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
