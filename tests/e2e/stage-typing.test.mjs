// A keystroke redraws the stage by writing only what changed (dom.js put, tex.js's digits,
// legends and waves updated in place): what it leaves must be what a fresh explorer draws for the
// same sentence, at every step — the same SVG and the same explanation, node for node — and the
// equation's operands, legends and extras must be the nodes that were there. Both are
// <attention-explorer> elements side by side on one page (the page's own explorer is the same
// createExplorer): a fresh one is a new element, not a page load (twenty of those were most of
// this file's time).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser } from './browser.mjs';

const session = useBrowser();
let context = null;
after(() => context?.close());
const WORDS = 'the cat sat on a mat and we ate hot pot in it so you can see how far it goes'.split(' ');
/** n - 1 words and a space: the letter typed after it is token n. */
const words = (n) => `${WORDS.slice(0, n - 1).join(' ')} `;

/**
 * The stage and the explanation as text: each element with its attributes sorted, and its
 * children. What other files draw by their own joins (the equation's matrices, matrix.js; the
 * score charts below steps 5 and 7, softmax.js) is compared as sets of children (a row label or
 * bar appended after the others looks the same); the legends, the waves and the explanation in
 * document order.
 */
function drawn(id) {
  const canonical = (node, ordered = true) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    // The stage svg's own size keeps room to spare (views/fit.js): what it shows is data-view-box.
    const room = (a) => node.matches('svg[data-view-box]') && (a.name === 'viewBox' || a.name === 'height');
    const attributes = [...node.attributes]
      .filter((a) => a.name !== 'data-tex' && !room(a)) // the source, not the picture
      // A legend's gradient id counts the legends the page has made, and an explorer's ids
      // (ae1-step-title) the explorers it has made: their history, not their look.
      .map(
        (a) =>
          `${a.name}="${a.value.replace(/legend-gradient-\d+/, 'legend-gradient-#').replace(/\bae\d+-/g, 'ae#-')}"`,
      )
      .sort()
      .join(' ');
    if (node.hidden) return `<${node.localName} hidden>`; // what it holds is not shown
    const others = node.classList.contains('operand') || (node.matches('.stage-extra') && !node.matches('.pe-waves'));
    const inOrder = ordered && !others;
    const children = [...node.childNodes].map((child) => canonical(child, inOrder));
    if (!inOrder) children.sort();
    return `<${node.localName} ${attributes}>${children.join('')}</${node.localName}>`;
  };
  const root = document.getElementById(id).shadowRoot;
  return {
    stage: canonical(root.querySelector('[data-role=stage]')),
    explain: canonical(root.querySelector('.explain')),
    shapes: root.querySelector('.explain .shapes').textContent,
  };
}

/** assert.equal for long drawings: names the first difference with what surrounds it. */
function same(actual, expected, what) {
  if (actual === expected) return;
  let k = 0;
  while (actual[k] === expected[k]) k++;
  const around = (text) => text.slice(Math.max(0, k - 300), k + 200);
  assert.fail(`${what} differs at ${k}:\n  typed: …${around(actual)}…\n  fresh: …${around(expected)}…`);
}

/** What a keystroke keeps: the equation's operands and operators, the legends, the extras. */
const KEPT = [
  '[data-role=stage] g.operand',
  '[data-role=stage] g.stage-legend',
  '[data-role=stage] g.stage-extra',
  '[data-role=stage] .pe-waves path',
].join(', ');

/** A page with no explorer of its own, in English, moving at once (reduced motion). */
async function hostPage() {
  context ??= await session.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const host = `${session.url}stage-typing.html`;
  await context.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script type="module" src="${session.url}attention-explorer.js"></script></head><body style="margin:0"></body></html>`,
    }),
  );
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => ['error', 'warning'].includes(m.type()) && problems.push(m.text()));
  await page.goto(host);
  return { page, problems };
}

/** Adds an <attention-explorer id> in English at `step` with `sentence`; resolves once drawn and idle. */
async function addExplorer(page, id, sentence, step) {
  await page.evaluate(
    ({ id, sentence, step }) => {
      const element = document.createElement('attention-explorer');
      Object.entries({ id, lang: 'en', sentence, step: String(step) }).forEach(([k, v]) => element.setAttribute(k, v));
      document.body.append(element);
    },
    { id, sentence, step },
  );
  await page.waitForFunction((id) => document.getElementById(id).explorer?.trace, id, { timeout: 15000 });
  return settle(page, id);
}

async function settle(page, id) {
  await page.evaluate((id) => document.getElementById(id).explorer.idle(), id);
  return page.evaluate(drawn, id);
}

// 8 tokens: typing n 7 → 8 keeps the shapes' digit count (their digits are rewritten in place);
// 10 tokens: 9 → 10 does not (KaTeX renders the line again).
for (const n of [8, 10]) {
  test(`typing token ${n} leaves the stage and explanation a fresh explorer draws, at steps 1–10`, async () => {
    const { page, problems } = await hostPage();
    await addExplorer(page, 'typed', words(n), 1);
    const kept = KEPT.split(', ')
      .map((selector) => `#typed ${selector}`)
      .join(', ');
    // Step 10 too: a page opened at step=10, or typed in there, drew no stage (its operands read
    // the trace's flops, which the requests made before the trace exists did not have).
    for (let step = 1; step <= 10; step++) {
      // The typed explorer: the step's stage drawn with n - 1 tokens, then one key.
      await page.evaluate(
        ([s, step]) => {
          const element = document.getElementById('typed');
          element.shadowRoot.querySelector('[data-role=sentence]').value = s;
          element.explorer.store.set({ sentence: s, step });
        },
        [words(n), step],
      );
      await settle(page, 'typed');
      await page.focus('#typed [data-role=sentence]');
      await page.keyboard.press('End');
      // (Playwright's CSS reaches into open shadow roots; the page's querySelectorAll does not.)
      const marks = await page.locator(kept).evaluateAll((nodes) => nodes.map((node) => (node.__kept = true)).length);
      assert.ok(marks > 0, `step ${step}: kept nodes to watch`);
      await page.keyboard.press('z');
      const after = await settle(page, 'typed');
      // Updated in place: a keystroke replaces none of them (a replaced node is built, styled
      // and laid out anew).
      const replaced = await page
        .locator(kept)
        .evaluateAll((nodes) => nodes.filter((node) => !node.__kept).map((node) => node.outerHTML.slice(0, 80)));
      assert.deepEqual(replaced, [], `step ${step}: nodes a keystroke made anew`);
      const expected = await addExplorer(page, 'fresh', `${words(n)}z`, step);
      await page.evaluate(() => document.getElementById('fresh').remove());
      if (step === 1) assert.match(after.shapes, new RegExp(`\\[${n}×8\\]`), `the shapes line says ${n} tokens`);
      same(after.explain, expected.explain, `step ${step}: the explanation`);
      same(after.stage, expected.stage, `step ${step}: the stage`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}
