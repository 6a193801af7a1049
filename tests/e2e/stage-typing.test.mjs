// A keystroke redraws the stage by writing only what changed (dom.js put, tex.js's digits,
// legends and waves updated in place): what it leaves must be what a fresh page draws for the
// same sentence, at every step — the same SVG and the same explanation, node for node — and the
// equation's operands, legends and extras must be the nodes that were there.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, explorerStarted as started } from './browser.mjs';

const session = useBrowser();
let typed = null;
let fresh = null;
after(async () => {
  await typed?.context.close();
  await fresh?.context.close();
});
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
function drawn() {
  const canonical = (node, ordered = true) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    // The stage svg's own size keeps room to spare (views/fit.js): what it shows is data-view-box.
    const room = (a) => node.matches('svg[data-view-box]') && (a.name === 'viewBox' || a.name === 'height');
    const attributes = [...node.attributes]
      .filter((a) => a.name !== 'data-tex' && !room(a)) // the source, not the picture
      // A legend's gradient id counts the legends the page has made (its history, not its look).
      .map((a) => `${a.name}="${a.value.replace(/legend-gradient-\d+/, 'legend-gradient-#')}"`)
      .sort()
      .join(' ');
    if (node.hidden) return `<${node.localName} hidden>`; // what it holds is not shown
    const others = node.classList.contains('operand') || (node.matches('.stage-extra') && !node.matches('.pe-waves'));
    const inOrder = ordered && !others;
    const children = [...node.childNodes].map((child) => canonical(child, inOrder));
    if (!inOrder) children.sort();
    return `<${node.localName} ${attributes}>${children.join('')}</${node.localName}>`;
  };
  return {
    stage: canonical(document.querySelector('[data-role=stage]')),
    explain: canonical(document.querySelector('.explain')),
    shapes: document.querySelector('.explain .shapes').textContent,
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

async function settle(page) {
  await page.evaluate(() => window.attentionExplorer.idle());
  return page.evaluate(drawn);
}

// 8 tokens: typing n 7 → 8 keeps the shapes' digit count (their digits are rewritten in place);
// 10 tokens: 9 → 10 does not (KaTeX renders the line again).
for (const n of [8, 10]) {
  test(`typing token ${n} leaves the stage and explanation a fresh page draws, at steps 1–10`, async () => {
    // Two pages for both tests: the typed page takes each state through its store, the fresh
    // one is loaded anew at each step (what is compared is a page's first drawing).
    typed ??= await openPage(session.browser, `${session.url}?lang=en&step=1&s=${encodeURIComponent(words(n))}`);
    fresh ??= await openPage(session.browser, `${session.url}?lang=en&step=1`);
    for (const page of [typed.page, fresh.page]) {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await started(page);
    }
    // Step 10 too: a page opened at step=10, or typed in there, drew no stage (its operands read
    // the trace's flops, which the requests made before the trace exists did not have).
    for (let step = 1; step <= 10; step++) {
      // The typed page: the step's stage drawn with n - 1 tokens, then one key.
      await typed.page.evaluate(
        ([s, step]) => {
          document.querySelector('[data-role=sentence]').value = s;
          window.attentionExplorer.store.set({ sentence: s, step });
        },
        [words(n), step],
      );
      await typed.page.evaluate(() => window.attentionExplorer.idle());
      await typed.page.focus('[data-role=sentence]');
      await typed.page.keyboard.press('End');
      await typed.page.evaluate(
        (kept) => document.querySelectorAll(kept).forEach((node) => (node.__kept = true)),
        KEPT,
      );
      await typed.page.keyboard.press('z');
      const after = await settle(typed.page);
      // Updated in place: a keystroke replaces none of them (a replaced node is built, styled
      // and laid out anew).
      const replaced = await typed.page.evaluate(
        (kept) =>
          [...document.querySelectorAll(kept)]
            .filter((node) => !node.__kept)
            .map((node) => node.outerHTML.slice(0, 80)),
        KEPT,
      );
      assert.deepEqual(replaced, [], `step ${step}: nodes a keystroke made anew`);
      await fresh.page.goto(`${session.url}?lang=en&step=${step}&s=${encodeURIComponent(`${words(n)}z`)}`);
      await started(fresh.page);
      const expected = await settle(fresh.page);
      if (step === 1) assert.match(after.shapes, new RegExp(`\\[${n}×8\\]`), `the shapes line says ${n} tokens`);
      same(after.explain, expected.explain, `step ${step}: the explanation`);
      same(after.stage, expected.stage, `step ${step}: the stage`);
    }
    for (const { problems } of [typed, fresh]) assert.deepEqual(problems, []);
  });
}
