// No English left in 中文: every zh page and view — the explorer with random
// weights at each step and view, tutorial mode, each trained model, the playground — shows no
// Latin-script word outside an allow-list of symbols, file formats, code and package names
// (name@version). Read from the page as a person sees it: visible text nodes (shadow roots
// included), aria-labels, titles and placeholders; formulas (KaTeX) and <code> are set apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, transitionsDone, useBrowser, explorerStarted as started } from './browser.mjs';

const session = useBrowser();

// Symbols and terms the zh texts use as written in the tutorials, file formats, code.
const ALLOWED = new Set(
  [
    'd_model d_k d_ff QKV QK Softmax softmax PE sin cos GELU LayerNorm Transformer RNN Longformer',
    'SVG PNG CSV JSON txt UTF-8 English top-k unk logits W_O W_Q W_K W_V W_q W_k W_v NumPy np random seed randn',
    'head Concat fan-in Query Key Value Tab Kneser Ney AdamW',
  ]
    .join(' ')
    .split(' '),
);
// (Query, Key, Value: the English terms the tutorials give in brackets beside 查询, 键, 值; Tab: a
// key as printed on the keyboard; Kneser–Ney, AdamW: a method's name, as Chinese texts write it.) The language switch names its languages in their own words.
const ALLOWED_TEXT = new Set(['English', 'Language / 语言']);
const PACKAGE = /^[a-z][a-z0-9-]*@\d+(\.\d+)*$/;

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

/** The Latin-script words of `texts` outside the allow-list, with the text each is in. */
function english(texts) {
  const found = [];
  for (const text of texts) {
    if (ALLOWED_TEXT.has(text)) continue;
    // A title in 《》 is cited as written.
    for (const word of text.replace(/《[^》]*》/g, '').match(/[A-Za-z][A-Za-z0-9_@.-]*[A-Za-z0-9]/g) ?? []) {
      if (ALLOWED.has(word) || PACKAGE.test(word) || /^(np\.random\.\w+)$/.test(word)) continue;
      found.push(`"${word}" in "${text.slice(0, 100)}"`);
    }
  }
  return [...new Set(found)];
}

async function check(url, ready, scope = null) {
  const { page, context, problems } = await openPage(session.browser, `${session.url}${url}`);
  await ready(page);
  const found = english(await page.evaluate(visibleTexts, scope));
  await context.close();
  return { found, problems };
}

const explorer = async (page) => {
  await started(page);
  await transitionsDone(page);
};
const modelShown = (title) => async (page) => {
  await page.waitForFunction((t) => document.querySelector('[data-role=model-about]')?.textContent.includes(t), title, {
    timeout: 60000,
  });
  await explorer(page);
};

test('the explorer in 中文, random weights: every step and view', async () => {
  const views = ['links', 'heatmap', 'matrices', 'softmax'];
  const found = [];
  // One page, taken through the steps by its store as the step buttons do: what is read is the
  // page at each step, view and mask, however it got there (a page load each was most of the time).
  const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=zh`);
  await explorer(page);
  for (let step = 1; step <= 10; step++) {
    const view = views[step % views.length];
    const mask = step % 2 ? 'causal' : 'none';
    await page.evaluate((s) => window.attentionExplorer.store.set(s), { step, view, mask });
    await page.evaluate(() => window.attentionExplorer.idle());
    await transitionsDone(page);
    found.push(...english(await page.evaluate(visibleTexts, null)).map((f) => `step ${step} ${view}: ${f}`));
  }
  assert.deepEqual(problems, []);
  await context.close();
  const tutorial = await check('?lang=zh&tutorial=1&step=10', explorer);
  found.push(...tutorial.found.map((f) => `tutorial: ${f}`));
  assert.deepEqual([...new Set(found)], []);
});

test('the explorer in 中文 with the trained Tang model, and the English model’s line', async () => {
  const tang = await check('?lang=zh&model=tang&step=7&view=heatmap', modelShown('唐诗'));
  assert.deepEqual(tang.found, []);
  // The English prose model's tokens are English: its model line is read, not its tokens.
  const brown = await check('?lang=zh&model=brown', modelShown('英文散文'), '[data-role=model-about]');
  assert.deepEqual(brown.found, []);
});

test('the playground in 中文', async () => {
  const { found } = await check('playground.html?lang=zh', (page) =>
    page.waitForFunction(() => document.body.innerText.includes('损失'), null, { timeout: 30000 }),
  );
  assert.deepEqual(found, []);
});
