// The explorer's cost panel (web/src/explorer/cost-panel.js), in English and 中文: a small
// measurement (#costMax=2048: n = 64 … 2048, half the engine's limit for attend(), in seconds; the fit needs the long lengths) draws a line per kind on both log–log
// charts with no NaN, prints finite slopes in which full attention's exceed the window's by a
// wide margin (memory: 2 against 1 exactly; time: more than 0.3 apart, whatever the machine's
// load, since full attention’s n² dominates from n = 512 on), the page stays responsive while
// the worker measures, Stop ends a run early, and no console error. Screenshots at 1280 px.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { explorerStarted, openPage, screenshot, screenshotDir, useBrowser, waitUntil } from './browser.mjs';
import { strings } from '../../web/src/i18n.js';
import { COST_KIND_KEYS } from '../../web/src/explorer/cost-kinds.js';

const session = useBrowser();
before(() => mkdirSync(screenshotDir, { recursive: true }));

const panelState = (page) => page.$eval('[data-role=cost-panel]', (el) => el.dataset.state ?? '');

/** Each kind's slopes and its lines' point counts and paths, read from the page. */
const readPanel = (page) =>
  page.evaluate(() => {
    const slopes = {};
    for (const tr of document.querySelectorAll('[data-role=cost-slopes] tbody tr')) {
      const [, , time, memory] = tr.querySelectorAll('td');
      slopes[tr.dataset.kind] = { time: time.dataset.slope, memory: memory.dataset.slope, text: time.textContent };
    }
    const lines = (role) =>
      Object.fromEntries(
        [...document.querySelectorAll(`[data-role=${role}] .cost-line`)].map((g) => [
          g.dataset.kind,
          {
            d: g.querySelector('path').getAttribute('d'),
            points: g.querySelectorAll('circle').length,
            color: getComputedStyle(g).color,
            values: [...g.querySelectorAll('circle title')].map((t) => t.textContent.split(': ').pop()).join(' '),
          },
        ]),
      );
    return { slopes, time: lines('cost-time'), memory: lines('cost-memory') };
  });

for (const lang of ['en', 'zh']) {
  test(`lang=${lang}: the cost panel measures, fits and stops`, async (t) => {
    const s = strings(lang);
    const { page, context, problems } = await openPage(session.browser, `${session.url}?lang=${lang}#costMax=2048`);
    try {
      await explorerStarted(page);
      await page.click('[data-role=cost-panel] summary');
      assert.equal((await page.textContent('[data-role=cost-panel] summary')).trim(), s.costTitle);
      assert.equal((await page.textContent('[data-role=cost-measure]')).trim(), s.costMeasure);
      assert.ok((await page.textContent('[data-role=cost-intro]')).includes('2048'), 'the intro states the longest n');
      assert.ok(await page.isDisabled('[data-role=cost-stop]'), 'nothing to stop before a run');
      assert.ok(await page.isHidden('[data-role=notice]'), 'the fragment is no link key: no notice');

      await page.click('[data-role=cost-measure]');
      // The page answers while the worker measures: a task on the page runs at once.
      assert.equal(await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve('free'), 0))), 'free');
      await waitUntil(async () => (await panelState(page)) === 'done', 'the measurement ends', 90000);
      const { slopes, time, memory } = await readPanel(page);
      assert.equal(await page.$eval('[data-role=cost-progress]', (p) => p.value === p.max), true, 'the bar is full');
      for (const kind of COST_KIND_KEYS) {
        for (const lines of [time, memory]) {
          assert.ok(lines[kind], `${kind} has a line`);
          assert.ok(lines[kind].points >= 5, `${kind}: n = 64 … 1024 at least, five points (${lines[kind].points})`);
          assert.doesNotMatch(lines[kind].d, /NaN|Infinity/, `${kind}'s path`);
        }
        assert.ok(Number.isFinite(Number(slopes[kind].time)), `${kind}: time slope ${slopes[kind].time}`);
        assert.ok(Number.isFinite(Number(slopes[kind].memory)), `${kind}: memory slope ${slopes[kind].memory}`);
        assert.doesNotMatch(slopes[kind].text, /NaN/);
      }
      const colors = new Set(COST_KIND_KEYS.map((kind) => time[kind].color));
      assert.equal(colors.size, COST_KIND_KEYS.length, `a colour per kind: ${[...colors]}`);
      assert.ok(!colors.has('rgb(0, 0, 0)'), 'no kind falls back to black');
      const slope = (kind, what) => Number(slopes[kind][what]);
      for (const kind of COST_KIND_KEYS)
        t.diagnostic(
          `${kind}: time slope ${slopes[kind].time}, memory ${slopes[kind].memory}; ms ${time[kind].values}`,
        );
      assert.ok(
        Math.abs(slope('full', 'memory') - 2) < 0.05,
        `full attention's scores grow as n²: ${slope('full', 'memory')}`,
      );
      for (const kind of ['window', 'longformer', 'bigbird', 'linear']) {
        assert.ok(Math.abs(slope(kind, 'memory') - 1) < 0.15, `${kind}'s memory grows as n: ${slope(kind, 'memory')}`);
      }
      assert.ok(
        slope('full', 'time') > slope('window', 'time') + 0.3,
        `full attention's time slope ${slope('full', 'time')} (${time.full.values} ms) exceeds the window's ${slope('window', 'time')} (${time.window.values} ms) by more than 0.3`,
      );
      const tutorial = await page.textContent('[data-role=cost-tutorial]');
      for (const text of ['O(n·d²)', 'O(n²·d)', 'O(n·d)', s.costSelfAttention])
        assert.ok(tutorial.includes(text), text);
      assert.ok((await page.textContent('[data-role=cost-status]')).length > 0);
      await page.$eval('[data-role=cost-panel]', (el) => el.scrollIntoView());
      await screenshot(page, `cost-panel-${lang}-1280`);

      // Stop: the run ends after the run in progress, with fewer points than a whole measurement.
      await page.click('[data-role=cost-measure]');
      await page.waitForFunction(() => document.querySelector('[data-role=cost-progress]').value >= 1);
      await page.click('[data-role=cost-stop]');
      await waitUntil(async () => (await panelState(page)) === 'stopped', 'the run stops', 30000);
      assert.equal((await page.textContent('[data-role=cost-status]')).trim(), s.costStopped);
      const stopped = await readPanel(page);
      const drawn = Object.values(stopped.time).reduce((sum, line) => sum + line.points, 0);
      assert.ok(drawn < COST_KIND_KEYS.length * 6, `stopped after ${drawn} points`);
      assert.equal(await page.isDisabled('[data-role=cost-measure]'), false, 'measure again after a stop');

      // The fragment's limit: the intro states it (a test of seconds, a slow machine).
      await page.goto('about:blank'); // a new document: a changed fragment alone would not reload
      await page.goto(`${session.url}?lang=${lang}#costMax=256`);
      await explorerStarted(page);
      const intro = await page.textContent('[data-role=cost-intro]');
      assert.ok(intro.includes('256') && !intro.includes('512'), intro);
      // Without it, the engine's limit for attend() (4,096: twice a trace's), read from the engine.
      await page.goto('about:blank');
      await page.goto(`${session.url}?lang=${lang}`);
      await explorerStarted(page);
      assert.ok((await page.textContent('[data-role=cost-intro]')).includes('4096'), 'the intro states n = 4096');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
