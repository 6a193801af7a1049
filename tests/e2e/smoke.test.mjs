// The fast tier's browser check (npm test): each kind of page opens in Debian's Chromium and
// works, with no console error, page error or CSP violation and no request leaving the local
// server. One browser for the file, one page load per page kind:
//   the explorer: its heatmap cells equal the engine's weights (run in node), and a step moves;
//   the embed page and the web component: drawn, with the engine's numbers;
//   the single file from file:// with every other request refused;
//   the playground: a few training steps, with their loss on the page.
// The whole e2e suite (npm run test:full) checks each of these in depth.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../node/support.mjs';
import { engineTraceFor } from './engine-trace.mjs';
import { explorerStarted, offlineSingleFile, openPage, useBrowser } from './browser.mjs';

const session = useBrowser();
let engine;
before(async () => {
  engine = await createEngine();
});

function assertClean({ problems, requests }) {
  assert.deepEqual(problems, [], 'no console error or warning, no page error, no CSP violation');
  const away = requests.filter((url) => !url.startsWith(session.url) && !url.startsWith('blob:'));
  assert.deepEqual(away, [], 'no request leaves the local server');
}

/** The heatmap view's cells under `root` (a page, a frame or a shadow host's locator): [{ h, i, j, v }]. */
const heatmapCells = (root) =>
  root.locator('[data-role=heatmaps] g.multiple').evaluateAll((groups) =>
    groups.flatMap((g) =>
      [...g.querySelectorAll('g.cell')].map((c) => ({
        h: Number(g.dataset.head),
        i: Number(c.dataset.i),
        j: Number(c.dataset.j),
        v: Number(c.dataset.value),
      })),
    ),
  );

function assertWeights(cells, trace) {
  assert.equal(cells.length, trace.heads * trace.nQuery * trace.nKey, 'a cell per head, query and key');
  for (const { h, i, j, v } of cells) assert.equal(v, trace.step('weights', h).data[i * trace.nKey + j]);
}

test('the explorer draws the engine’s weights and steps on', async () => {
  const opened = await openPage(session.browser, `${session.url}?lang=en&s=猫追着球跑&mask=causal&step=7&view=heatmap`);
  const { page, context } = opened;
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  assert.deepEqual(await page.locator('[data-role=tokens] li').allTextContents(), ['猫', '追', '着', '球', '跑']);
  const trace = await engineTraceFor(engine, page);
  assertWeights(await heatmapCells(page), trace);
  await page.locator('h1').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForSelector('.step-button[data-step="8"][aria-current="step"]');
  assertClean(opened);
  await context.close();
});

test('the embed page and the web component draw', async () => {
  const embed = await openPage(session.browser, `${session.url}embed.html?s=我爱吃火锅&step=7&view=heatmap&lang=zh`);
  await embed.page.waitForSelector('[data-role=heatmaps] g.cell');
  assertWeights(await heatmapCells(embed.page), await engineTraceFor(engine, embed.page));
  assertClean(embed);
  await embed.context.close();

  const component = await openPage(session.browser, `${session.url}examples/component.html`);
  await component.page.waitForFunction(() =>
    [...document.querySelectorAll('attention-explorer')].every((e) => e.shadowRoot?.querySelector('g.cell')),
  );
  const chips = await component.page
    .locator('attention-explorer')
    .first()
    .evaluate((e) => [...e.shadowRoot.querySelectorAll('[data-role=tokens] li')].map((li) => li.textContent));
  assert.ok(chips.length > 0, 'the component shows its tokens');
  assertClean(component);
  await component.context.close();
});

test('the single file works from file:// with every other request refused', async () => {
  const { context, page, attempted, file, problems } = await offlineSingleFile(session.browser, {
    viewport: { width: 1280, height: 800 },
  });
  await page.goto(`${file}?lang=en&s=The+cat+chased+the+ball&step=7&view=heatmap`);
  await explorerStarted(page);
  await page.waitForSelector('[data-role=heatmaps] g.cell');
  assertWeights(await heatmapCells(page), await engineTraceFor(engine, page));
  assert.deepEqual(attempted, [], 'no network request');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the playground trains a few steps', async () => {
  const opened = await openPage(session.browser, `${session.url}playground.html?task=sort&lang=en`);
  const { page, context } = opened;
  await page.waitForSelector('[data-role=play]:not([disabled])', { timeout: 20000 });
  await page.click('[data-role=step]');
  await page.click('[data-role=step]');
  await page.waitForFunction(() => window.attentionPlayground.history.loss.length >= 2);
  const losses = await page.evaluate(() => window.attentionPlayground.history.loss.map(([, loss]) => loss));
  assert.ok(
    losses.every((loss) => Number.isFinite(loss) && loss > 0),
    `finite losses: ${losses}`,
  );
  assertClean(opened);
  await context.close();
});
