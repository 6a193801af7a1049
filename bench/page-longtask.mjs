// The page at its documented limits (docs/explorer.md, "The page's limits": 2,048 tokens, d_model 512, 16 heads):
// the longest main-thread task while it loads and while a reader switches views and steps,
// from Chromium's PerformanceObserver 'longtask' entries (tasks over 50 ms; none means the
// longest was under 50 ms). Medians over RUNS page loads. Needs `npm run build` first.
//
//   node bench/page-longtask.mjs [--runs 3] [--tokens 2048] [--write]
//
// --write puts the table into docs/benchmarks.md between the page-longtask markers.
import os from 'node:os';
import { startSite, writeSection } from './page-site.mjs';
import { median } from './timing.mjs';

const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1] : fallback;
};
const RUNS = Number(arg('runs', 3));
const TOKENS = Number(arg('tokens', 2048));
const VIEWS = ['links', 'heatmap', 'matrices', 'softmax'];
const QUIET_MS = 1500; // no long task for this long after the page says it is idle: settled

const WORDS = 'the cat sat on a mat and we ate hot pot in it so you can see how far it goes'.split(' ');
export const longSentence = (n) => Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]).join(' ');

/** Waits until the explorer is idle and no long task has come for QUIET_MS; returns the longest. */
async function settle(page) {
  await page.waitForFunction(() => window.attentionExplorer, null, { timeout: 120_000 });
  await page.evaluate(() => window.attentionExplorer.idle?.());
  await page.waitForFunction((quiet) => performance.now() - (window.__lastTaskEnd ?? 0) > quiet, QUIET_MS, {
    timeout: 120_000,
    polling: 200,
  });
  return page.evaluate(() => {
    const longest = Math.max(0, ...window.__tasks);
    window.__tasks = [];
    return longest;
  });
}

// Each view at step 7 (all heads), the stage of every step, the heatmap of each n×n step.
const CONFIGS = [
  { label: 'reference: 5 tokens, d_model 8, 2 heads (page load)', view: 'links', step: 7, small: true },
  ...VIEWS.map((view) => ({ label: `view ${view}, step 7, all heads`, view, step: 7 })),
  ...[1, 2, 3, 4, 5, 6, 8, 9, 10].map((step) => ({ label: `stage, step ${step} (links view)`, view: 'links', step })),
  ...[4, 5, 6].map((step) => ({ label: `view heatmap, step ${step}, all heads`, view: 'heatmap', step })),
  { label: 'view softmax, head 16, query 2000', view: 'softmax', step: 7, head: 15, q: 2000 },
];

/** Runs in the page before its scripts: records every long task's duration and end. */
function observeLongTasks() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__tasks.push(e.duration);
      window.__lastTaskEnd = e.startTime + e.duration;
    }
  }).observe({ type: 'longtask', buffered: true });
}

/** Opens the page at one configuration; the longest task until it settles (or 'crashed'). */
async function measureOne(browser, base, config) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(observeLongTasks);
  const query = new URLSearchParams(
    config.small
      ? { s: '猫 追 着 球 跑', view: config.view }
      : { s: longSentence(TOKENS), d: '512', h: '16', view: config.view },
  );
  query.set('step', String(config.step));
  if (config.head !== undefined) query.set('head', String(config.head + 1));
  if (config.q !== undefined) query.set('q', String(config.q));
  try {
    await page.goto(`${base}?${query}`);
    const longest = await settle(page);
    const tokens = await page.evaluate(() => window.attentionExplorer.trace?.nQuery);
    return { longest, tokens };
  } catch (error) {
    return { longest: /crash/i.test(error.message) ? 'crashed' : 'timeout' };
  } finally {
    await context.close();
  }
}

/**
 * One page load, then each configuration in turn as a reader would switch to it (store.set in
 * a task of the page's own): the longest task of each switch, without the page load's own work.
 */
async function measureSwitches(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(observeLongTasks);
  const out = {};
  try {
    const query = new URLSearchParams({ s: longSentence(TOKENS), d: '512', h: '16', view: 'links', step: '1' });
    await page.goto(`${base}?${query}`);
    await settle(page);
    for (const config of CONFIGS.filter((c) => !c.small)) {
      const change = { view: config.view, step: config.step, head: config.head ?? 'all', query: config.q ?? 0 };
      await page.evaluate((c) => setTimeout(() => window.attentionExplorer.store.set(c), 0), change);
      out[config.label] = await settle(page);
    }
  } catch (error) {
    out.error = /crash/i.test(error.message) ? 'crashed' : 'timeout';
  } finally {
    await context.close();
  }
  return out;
}

const { browser, base, close } = await startSite();
const results = {}; // label → [longest per run]
const switches = {}; // label → [longest per run]
let tokens;
try {
  for (let r = 0; r < RUNS; r++) {
    for (const config of CONFIGS) {
      const result = await measureOne(browser, base, config);
      if (!config.small) tokens ??= result.tokens;
      (results[config.label] ??= []).push(result.longest);
      console.error(`run ${r + 1}, ${config.label}: ${result.longest}`);
    }
    for (const [label, longest] of Object.entries(await measureSwitches(browser, base))) {
      (switches[label] ??= []).push(longest);
      console.error(`run ${r + 1}, switch to ${label}: ${longest}`);
    }
  }
} finally {
  await close();
}

const fmt = (ms) => (typeof ms === 'string' ? ms : ms === 0 ? '< 50' : String(Math.round(ms)));
const worst = (values) => values.find((v) => typeof v === 'string') ?? Math.max(...values);
const cells = (values) => {
  if (!values) return '– | –';
  const numbers = values.filter((v) => typeof v === 'number');
  const mid = numbers.length === values.length ? median(numbers) : worst(values);
  return `${fmt(mid)} | ${fmt(worst(values))}`;
};
const rows = Object.entries(results).map(
  ([label, values]) => `| ${label} | ${cells(values)} | ${cells(switches[label])} |`,
);
const table = [
  `${tokens} tokens, d_model 512, 16 heads, Chromium ${browser.version()} headless, ${os.cpus().length} cores (shared with other jobs), ${RUNS} runs; "page load" opens the page at that view and step and waits until it settles; "switching" loads the page once (links, step 1), then moves to each row in turn as a reader would.`,
  '',
  '| what | page load: longest task, median ms | worst run ms | switching to it: median ms | worst run ms |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...rows,
].join('\n');
console.log(table);

if (process.argv.includes('--write')) writeSection('page-longtask', table);
