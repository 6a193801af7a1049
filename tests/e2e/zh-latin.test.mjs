// No English left in 中文: the explorer in 中文 — random weights at each step and view,
// tutorial mode, each trained model — shows no Latin-script word outside an allow-list of
// symbols, file formats, code and package names (tests/node/latin-words.mjs). Read from the page
// as a person sees it: visible text nodes (shadow roots included), aria-labels, titles and
// placeholders; formulas (KaTeX) and <code> are set apart. One page, driven by its store: every
// string table (the playground's too) is read whole, without a page, by
// tests/node/zh-strings.test.mjs; this scan is what the tables cannot show, the page as built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, transitionsDone, useBrowser, explorerStarted as started } from './browser.mjs';
import { english } from '../node/latin-words.mjs';

const session = useBrowser();

/** Texts a person sees or hears on the page (in the page: self-contained). */
function visibleTexts(scope) {
  const out = [];
  const skip = 'code, .katex, script, style, textarea, input, [data-role=chips], text.token, .token';
  const walk = (root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || p.closest(skip) || p.closest('[hidden]')) continue;
      if (!p.closest('svg') && !p.getClientRects().length) continue;
      const t = n.textContent.trim();
      if (t) out.push(t);
    }
    for (const el of root.querySelectorAll('*')) {
      for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(scope ? document.querySelector(scope) : document.body);
  return out;
}

const settle = async (page) => {
  await page.evaluate(() => window.attentionExplorer.idle());
  await transitionsDone(page);
};

test('the explorer in 中文: every step and view, tutorial mode and the trained models', async () => {
  const views = ['links', 'heatmap', 'matrices', 'softmax'];
  const found = [];
  const scan = async (page, where, scope = null) =>
    found.push(...english(await page.evaluate(visibleTexts, scope)).map((f) => `${where}: ${f}`));
  // One page, taken through the steps by its store as the step buttons do: what is read is the
  // page at each step, view and mask, however it got there (a page load each was most of the time).
  const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=zh`);
  await started(page);
  await transitionsDone(page);
  for (let step = 1; step <= 10; step++) {
    const view = views[step % views.length];
    const mask = step % 2 ? 'causal' : 'none';
    await page.evaluate((s) => window.attentionExplorer.store.set(s), { step, view, mask });
    await settle(page);
    await scan(page, `step ${step} ${view}`);
  }
  // Linear attention: its own steps 4–8, the heatmap's two kinds, the links' toggle, the refused controls' reasons.
  for (let step = 4; step <= 8; step++) {
    const view = views[step % views.length];
    await page.evaluate((s) => window.attentionExplorer.store.set(s), {
      attention: 'linear',
      step,
      view,
      mask: 'causal',
    });
    await settle(page);
    await scan(page, `linear step ${step} ${view}`);
  }
  await page.evaluate(() => window.attentionExplorer.store.set({ attention: 'softmax' }));
  await page.evaluate(() => window.attentionExplorer.store.set({ tutorial: true, step: 10, mask: 'none' }));
  await settle(page);
  await scan(page, 'tutorial');
  // The trained models, chosen as the model list chooses them.
  const model = async (key, title) => {
    await page.evaluate((model) => window.attentionExplorer.store.set({ model }), key);
    await page.waitForFunction(
      (t) => document.querySelector('[data-role=model-about]')?.textContent.includes(t),
      title,
      {
        timeout: 60000,
      },
    );
    await settle(page);
  };
  await page.evaluate(() => window.attentionExplorer.store.set({ tutorial: false, step: 7, view: 'heatmap' }));
  await model('tang', '唐诗');
  await scan(page, 'tang');
  // The English prose model's tokens are English: its model line is read, not its tokens.
  await model('brown', '英文散文');
  await scan(page, 'brown', '[data-role=model-about]');
  assert.deepEqual(problems, []);
  await context.close();
  assert.deepEqual([...new Set(found)], []);
});
