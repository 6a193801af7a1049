// The softmax view in Debian's Chromium: the query picker, the bars' numbers and tooltips, and a
// keystroke that rewrites only what changed (issue 11 §6: the view keeps its nodes and texts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../node/support.mjs';
import { openPage, startBrowser } from './browser.mjs';
import { engineTraceFor } from './engine-trace.mjs';

let session;
let engine;
before(async () => {
  session = await startBrowser();
  engine = await createEngine();
});
after(async () => {
  await session?.close();
});

const weightBars = (page) =>
  page.locator('.chart-weights rect.bar').evaluateAll((els) => els.map((el) => Number(el.dataset.value)));

/** The node engine's softmax weights of query `i`, head 0: what the weights chart must show. */
async function engineWeights(page, i) {
  const trace = await engineTraceFor(engine, page);
  return Array.from(trace.step('weights', 0).data.slice(i * trace.nKey, (i + 1) * trace.nKey));
}

test('a query button picks its own position, also where its token repeats (the second "the" is query 3)', async () => {
  const { page, context, problems } = await openPage(
    session.browser,
    `${session.url}?lang=en&view=softmax&s=the+cat+sat+the+end`,
  );
  const buttons = page.locator('.query-picker button');
  await buttons.nth(4).waitFor();
  assert.deepEqual(await buttons.allTextContents(), ['the', 'cat', 'sat', 'the', 'end']);
  await buttons.nth(3).click();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('q') === '3');
  const pressed = await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('aria-pressed')));
  assert.deepEqual(pressed, ['false', 'false', 'false', 'true', 'false']);
  assert.deepEqual(await weightBars(page), await engineWeights(page, 3));
  // The keyboard picks the same way: focus the first "the", Enter.
  await buttons.nth(0).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('q'));
  assert.deepEqual(await weightBars(page), await engineWeights(page, 0));
  assert.deepEqual(problems, []);
  await context.close();
});
