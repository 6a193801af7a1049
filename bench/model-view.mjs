// Time to the first model view: from choosing a trained model to the painted grid
// of every layer and head (the model fetched, loaded and run in the engine's worker, the ten-step
// explorer opened on its layer), and the longest main-thread task meanwhile (a frozen page would
// show one as long as the load). Medians over RUNS. Needs `npm run build` first.
//
//   node bench/model-view.mjs [--runs 5] [--write]
//
// Measures models/<key>.model for each shipped model present, and a model file the user opens
// (a stand-in of a shipped model's shape when none is there). --write puts the table into
// docs/benchmarks.md between the model-view markers.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../dist/engine/engine.js';
import { corpusModelFile } from '../tests/node/corpus_model_support.mjs';
import { startSite, writeSection } from './page-site.mjs';
import { median } from './timing.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const k = process.argv.indexOf(`--${name}`);
  return k > 0 ? process.argv[k + 1] : fallback;
};
const RUNS = Number(arg('runs', 5));
const TEXT = {
  tang: '床前明月光，疑是地上霜。举头望明月，低头思故乡。',
  brown: 'The jury said it did find that the city',
};

/** Runs in the page before its scripts: records every long task (over 50 ms). */
function observeLongTasks() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
}

const shipped = ['tang', 'brown'].filter((key) => existsSync(path.join(root, 'models', `${key}.model`)));
const profile = mkdtempSync(path.join(os.tmpdir(), 'ae-bench-'));
const { browser, base: url, close } = await startSite();

// The "file" case: a stand-in of about a shipped model's shape (1,000 symbols, 4 layers × 4
// heads, d_model 128, 64 tokens of context), float32, made from seeded weights.
const engine = await createEngine();
const standIn = corpusModelFile(engine, {
  symbols: Array.from({ length: 1000 }, (_, i) => String.fromCodePoint(0x4e00 + i)),
  length: 32,
  layers: 4,
  heads: 4,
  dModel: 128,
});
const standInFile = path.join(profile, 'stand-in.model');
writeFileSync(standInFile, standIn);

/** Opens the page with random weights, then chooses the model; ms to its grid, longest task. */
async function once(choose, text) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(observeLongTasks);
  await page.goto(`${url}?s=${encodeURIComponent(text)}`);
  await page.waitForFunction(() => window.attentionExplorer, null, { timeout: 60_000 });
  await page.evaluate(() => window.attentionExplorer.idle());
  await page.evaluate(() => (window.__tasks = []));
  const start = await page.evaluate(() => performance.now());
  await choose(page);
  await page.waitForFunction(
    () => {
      const cells = document.querySelectorAll('.model-cell img').length;
      return cells > 0 && window.attentionExplorer.trace?.heads > 0;
    },
    null,
    { timeout: 120_000, polling: 'raf' },
  );
  // The frame that shows the grid has been painted.
  const ms = await page.evaluate(
    (t0) => new Promise((done) => requestAnimationFrame(() => done(performance.now() - t0))),
    start,
  );
  await page.evaluate(() => window.attentionExplorer.idle());
  const longest = await page.evaluate(() => Math.max(0, ...window.__tasks));
  await context.close();
  return { ms, longest };
}

const cases = [
  ...shipped.map((key) => ({
    label: `${key} (models/${key}.model, ${Math.round(statSync(path.join(root, 'models', `${key}.model`)).size / 1024)} kB), chosen in the selector`,
    choose: (page) => page.selectOption('[data-role=model]', key),
    text: TEXT[key],
  })),
  {
    label: `a model file opened (stand-in: 1,000 symbols, 4 × 4 heads, d_model 128, ${Math.round(standIn.length / 1024)} kB float32)`,
    choose: (page) => page.setInputFiles('[data-role=model-file]', standInFile),
    text: '一丁七万丈三上下不与丐丑专且丕世',
  },
];

const rows = [];
try {
  for (const c of cases) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await once(c.choose, c.text));
    const fmt = (v) => (v === 0 ? '< 50' : String(Math.round(v)));
    rows.push(
      `| ${c.label} | ${Math.round(median(runs.map((r) => r.ms)))} | ${Math.round(Math.max(...runs.map((r) => r.ms)))} | ${fmt(median(runs.map((r) => r.longest)))} |`,
    );
    console.log(rows.at(-1));
  }
} finally {
  await close();
  rmSync(profile, { recursive: true, force: true });
}

const table = [
  `Chromium ${browser.version()} headless, ${os.cpus().length} cores shared with other jobs (load average ${os.loadavg()[0].toFixed(1)} when it ended: on a quiet machine expect less), ${RUNS} runs, each a fresh page: from choosing the model to the painted frame that shows the grid of every layer and head (fetch, load and run in the engine's worker, the explorer opened on layer 1).`,
  '',
  '| model | first model view, median ms | worst run ms | longest main-thread task meanwhile, median ms |',
  '| --- | ---: | ---: | ---: |',
  ...rows,
].join('\n');
console.log(table);

if (process.argv.includes('--write')) writeSection('model-view', table);
