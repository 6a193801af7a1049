// The softmax view in Debian's Chromium: the query picker, the bars' numbers and tooltips, and a
// keystroke that rewrites only what changed (the view keeps its nodes and texts: a keystroke must
// fit in a frame).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../node/support.mjs';
import { sharedExplorer, useBrowser, transitionsDone } from './browser.mjs';
import { engineTraceFor } from './engine-trace.mjs';
import { formatValue } from '../../web/src/format.js';

const session = useBrowser();
// One page for the file, brought to each test's link through its store.
const explorer = sharedExplorer(session);
after(() => explorer.close());
let engine;
before(async () => {
  engine = await createEngine();
});

const weightBars = (page) =>
  page.locator('.chart-weights rect.bar').evaluateAll((els) => els.map((el) => Number(el.dataset.value)));

/** The node engine's softmax weights of query `i`, head 0: what the weights chart must show. */
async function engineWeights(page, i) {
  const trace = await engineTraceFor(engine, page);
  return Array.from(trace.step('weights', 0).data.slice(i * trace.nKey, (i + 1) * trace.nKey));
}

test('a query button picks its own position, also where its token repeats (the second "the" is query 3)', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=softmax&s=the+cat+sat+the+end`);
  await transitionsDone(page);
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
});

test('a keystroke that adds a token adds its button, bars, values and labels and keeps every other node and text; hover names the engine’s weight', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=softmax&s=the+cat+sat+on`);
  await transitionsDone(page);
  await page.waitForFunction(() => document.querySelectorAll('.chart-weights rect.bar').length === 4);
  // Every element of the view, and the text node each one holds, marked before the keystroke.
  await page.evaluate(() => {
    const root = document.querySelector('[data-role=softmax]');
    for (const el of root.querySelectorAll('*')) el.__before = el.firstChild ?? true;
    window.__records = new MutationObserver(() => {});
    window.__records.observe(root, { subtree: true, attributes: true });
  });
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.keyboard.type(' a');
  await page.waitForFunction(() => document.querySelectorAll('.chart-weights rect.bar').length === 5);
  const { added, gone, retexted, rewritten } = await page.evaluate(() => {
    const records = window.__records.takeRecords();
    const now = [...document.querySelectorAll('[data-role=softmax] *')];
    const describe = (el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`.trim();
    return {
      added: now.filter((el) => !el.__before).map(describe),
      gone: now.filter((el) => el.__before && !el.isConnected).length,
      retexted: now
        .filter((el) => el.__before && el.__before !== true && el.__before.nodeType === Node.TEXT_NODE)
        .filter((el) => el.firstChild !== el.__before)
        .map((el) => `${describe(el)} "${el.textContent}"`),
      // Attributes written on the old keys' score bars and on label texts (their <g> moves them).
      rewritten: records
        .filter(
          (r) => r.target.__before && r.target.matches('.chart-raw rect.bar, .chart-scaled rect.bar, text.bar-label'),
        )
        .map((r) => `${describe(r.target)} ${r.attributeName}`),
    };
  });
  // One button, and per chart one bar, its value and its label; nothing else made anew.
  // (a label is a <text> in the <g> that places it)
  const perChart = ['rect.bar', 'text.bar-value', 'g.', 'text.bar-label'];
  assert.deepEqual(added.sort(), ['button.', ...perChart, ...perChart, ...perChart].sort());
  assert.equal(gone, 0);
  assert.deepEqual(rewritten, [], 'the other keys’ scores are unchanged: so are their bars');
  // Texts that changed are the titles and values the new key changes; token texts stay.
  for (const text of retexted) assert.match(text, /^text\.(chart-title|bar-value|spread-title) /);
  assert.deepEqual(await page.locator('.query-picker button').allTextContents(), ['the', 'cat', 'sat', 'on', 'a']);
  const bars = await weightBars(page);
  const expected = await engineWeights(page, 0);
  assert.deepEqual(bars, expected);
  // Hover names the bar under the pointer with the engine's number, the new one as well as an old one.
  for (const k of [4, 1]) {
    await page.locator('.chart-weights rect.bar').nth(k).hover();
    const tip = page.locator('.tooltip');
    await tip.waitFor({ state: 'visible' });
    assert.equal(await tip.textContent(), `${['the', 'cat', 'sat', 'on', 'a'][k]}: ${formatValue(expected[k])}`);
  }
  await page.mouse.move(0, 0);
  await page.locator('.tooltip').waitFor({ state: 'hidden' });
  assert.deepEqual(problems, []);
});

test('a keystroke during the bars’ glide to a new query ends with every bar at its value (the glide is cut, not left to overwrite)', async () => {
  const { page, problems } = await explorer.show(`lang=en&view=softmax&s=the+cat+sat+on`);
  await transitionsDone(page);
  await page.waitForFunction(() => document.querySelectorAll('.chart-weights rect.bar').length === 4);
  // The glide is seen under way before the keystroke. On a loaded machine a frame can take longer
  // than the glide, which then ends before it is seen: another query is picked, up to five times.
  let query = 2;
  for (let attempt = 0; ; attempt++) {
    await page.locator('.query-picker button').nth(query).click();
    const gliding = await page
      .waitForFunction(() => document.querySelector('.chart-weights rect.bar').__transition, null, { timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    if (gliding) break;
    assert.ok(attempt < 4, 'the bars glide to a new query');
    query = query === 2 ? 1 : 2;
  }
  await page.focus('[data-role=sentence]');
  await page.keyboard.press('End');
  await page.keyboard.type(' a');
  await page.waitForFunction(() => document.querySelectorAll('.chart-weights rect.bar').length === 5);
  await transitionsDone(page);
  // Each bar spans [min(0, v), max(0, v)] in the data's units (its layer's transform maps them to pixels).
  const bars = await page
    .locator('.softmax-charts rect.bar')
    .evaluateAll((els) => els.map((el) => ['data-value', 'y', 'height'].map((name) => Number(el.getAttribute(name)))));
  assert.equal(bars.length, 15);
  for (const [v, y, height] of bars) {
    assert.ok(
      Math.abs(y - Math.min(0, v)) < 1e-6 && Math.abs(height - Math.abs(v)) < 1e-6,
      `${v}: y ${y}, height ${height}`,
    );
  }
  assert.deepEqual(await weightBars(page), await engineWeights(page, query));
  assert.deepEqual(problems, []);
});
