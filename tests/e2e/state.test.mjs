// The page's state lives in its store: a keystroke goes to the store in its
// own event, with no debounce, and the views follow it; the views' own state (the heatmap's
// tables, the picked cell, the hovered or locked token) is store state too, set by the
// handlers and drawn by the store's change, and let go when the sentence no longer has it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { linkLines, linksPainted, sharedExplorer, useBrowser, transitionsDone } from './browser.mjs';

const session = useBrowser();
// One page for the file, brought to each test's link through its store.
const explorer = sharedExplorer(session);
after(() => explorer.close());
const store = (page) => page.evaluate(() => window.attentionExplorer.store.get());

test('a keystroke reaches the store in its own input event, and a small trace is computed and drawn in that event', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=links`);
  await page.waitForSelector('[data-role=links] text.token');
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), ['我', '爱', '吃', '火锅']);
  // Listens on the window after the page's own listener on the input (and the microtasks it
  // queued): what the page holds then is what the keystroke's own task made. A debounce would
  // leave the old text; a round trip to the worker would leave the old chips and links.
  await page.evaluate(() => {
    const input = document.querySelector('[data-role=sentence]');
    const explorer = window.attentionExplorer;
    // Texts a keystroke does not change keep their nodes (a new text node is laid out anew).
    for (const el of document.querySelectorAll('.step-button, .step-counter, [data-role=tokens] li'))
      el.firstChild.__kept = true;
    window.__seen = [];
    window.addEventListener('input', () =>
      window.__seen.push({
        value: input.value,
        sentence: explorer.store.get().sentence,
        tokens: explorer.trace.tokens.join('|'),
        onPage: explorer.trace.onPage,
        lastChip: document.querySelector('[data-role=tokens] li:last-child').textContent,
        queries: [...document.querySelectorAll('[data-role=links] text.token.query')]
          .map((el) => el.textContent)
          .join('|'),
      }),
    );
  });
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.keyboard.type(' z');
  const seen = await page.evaluate(() => window.__seen);
  const drawn = (value, tokens) => ({
    value,
    sentence: value,
    tokens,
    onPage: true,
    lastChip: tokens.split('|').at(-1),
    queries: tokens,
  });
  assert.deepEqual(seen, [drawn('我 爱 吃 火锅 ', '我|爱|吃|火锅'), drawn('我 爱 吃 火锅 z', '我|爱|吃|火锅|z')]);
  const rewritten = await page.evaluate(() =>
    [...document.querySelectorAll('.step-button, .step-counter, [data-role=tokens] li')]
      .filter((el) => !el.firstChild.__kept)
      .map((el) => el.textContent),
  );
  assert.deepEqual(rewritten, ['z'], 'only the new chip is a new text');
  // A space after the word: the same tokens, the same trace (nothing to compute again).
  await page.evaluate(() => (window.__trace = window.attentionExplorer.trace));
  await page.keyboard.type(' ');
  await page.evaluate(() => window.attentionExplorer.idle());
  assert.equal(await page.evaluate(() => window.attentionExplorer.store.get().sentence), '我 爱 吃 火锅 z ');
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace === window.__trace), true, 'the same trace');
  assert.equal(await page.evaluate(() => window.attentionExplorer.trace.disposed), false);
  assert.deepEqual(problems, []);
});

test('an error inside a view’s draw is said under the sentence and on the console, not swallowed', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=links`);
  await page.waitForSelector('[data-role=links] text.token');
  await page.evaluate(() => window.attentionExplorer.idle());
  // A fault in the links view's data: the next draw (a hovered token) reads it and throws.
  await page.evaluate(async () => {
    const explorer = window.attentionExplorer;
    window.__links = explorer.trace.links;
    explorer.trace.links = () => {
      throw new Error('injected draw fault');
    };
    explorer.store.set({ focus: { side: 'query', index: 1 } });
    await explorer.idle();
  });
  assert.match(await page.textContent('[data-role=message]'), /injected draw fault/);
  assert.ok(
    problems.some((p) => p.startsWith('console error') && p.includes('injected draw fault')),
    problems.join('\n'),
  );
  // The page is the next test's: the trace draws again (its links are the trace's own).
  await page.evaluate(() => {
    window.attentionExplorer.trace.links = window.__links;
    window.attentionExplorer.store.set({ focus: null });
  });
});

test('the heatmap’s tables, the picked cell and the locked token are store state, let go when stale', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=heatmap&step=7&s=The+cat+chased+the+ball`);
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  await page.click('[data-role=table-toggle]');
  await page.waitForSelector('[data-role=heatmap-tables] table');
  assert.equal((await store(page)).tables, true);
  assert.equal(await page.getAttribute('[data-role=table-toggle]', 'aria-expanded'), 'true');
  // Set from outside the page's handlers: the store's change alone draws it.
  await page.evaluate(() => window.attentionExplorer.store.set({ tables: false }));
  await page.waitForSelector('[data-role=heatmap-tables]', { state: 'hidden' });

  // A picked cell stays in the heatmap; the links view shows its link.
  await page.click('[data-role=heatmaps] g.multiple[data-head="1"] g.cell[data-i="4"][data-j="3"]');
  await page.waitForSelector('[data-role=heatmaps] g.cell.picked');
  await page.click('[role=tab][data-view=links]');
  await linksPainted(page, { pair: true });
  assert.deepEqual((await store(page)).pair, { head: 1, i: 4, j: 3 });
  await page.focus('[data-role=links] text.token.query >> nth=4');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-role=links] text.token.locked', { state: 'attached' });
  const locked = await store(page);
  assert.deepEqual(
    [locked.focus?.side, locked.focus?.index, locked.focus?.locked, locked.query],
    ['query', 4, true, 4],
  );

  // Three tokens: query 4 and cell (4, 3) are gone, and so are the lock and the highlight.
  await page.evaluate(() => window.attentionExplorer.store.set({ sentence: 'The cat sat' }));
  await page.evaluate(() => window.attentionExplorer.idle());
  await transitionsDone(page); // the old tokens and links have left
  const after = await store(page);
  assert.equal(after.focus, null);
  assert.equal(after.pair, null);
  assert.equal(await page.locator('[data-role=links] text.token.locked').count(), 0);
  const lines = await linkLines(page);
  assert.equal(lines.filter((line) => line.pair).length, 0);
  assert.ok(lines.length > 0, 'the links are drawn');
  assert.deepEqual(problems, []);
});
